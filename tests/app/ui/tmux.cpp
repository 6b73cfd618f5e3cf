// SPDX-License-Identifier: Apache-2.0
// tests/app/ui/tmux.cpp: a private tmux server driven through its command line (see tmux.hpp).
#include "tmux.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace tpcc::testing {
namespace {

std::string output_of(const std::string& command) {
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("popen failed: " + command);
  std::string out;
  std::array<char, 4096> buffer{};
  for (std::size_t n = 0; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) {
    out.append(buffer.data(), n);
  }
  pclose(pipe);
  return out;
}

const std::string exit_marker = "shoal-tpcc-exit=";

}  // namespace

std::string shell_quote(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  out += '\'';
  return out;
}

bool tmux_session::available() { return std::system("tmux -V > /dev/null 2>&1") == 0; }

tmux_session::tmux_session(std::size_t columns, std::size_t rows)
    : socket_("shoal-tpcc-ui-" + std::to_string(getpid())),
      raw_path_("/tmp/" + socket_ + ".raw"),
      columns_(columns),
      rows_(rows) {
  std::remove(raw_path_.c_str());
}

tmux_session::~tmux_session() {
  tmux("kill-server 2>/dev/null");
  std::remove(raw_path_.c_str());
}

std::string tmux_session::tmux(const std::string& args) const {
  return output_of("tmux -f /dev/null -L " + socket_ + " " + args);
}

void tmux_session::start(const std::string& command) {
  const std::string gate = "tmux -L " + socket_ + " wait-for go";
  const std::string line = gate + "; " + command + "; echo " + exit_marker + "$?; sleep 600";
  tmux("new-session -d -s main -x " + std::to_string(columns_) + " -y " + std::to_string(rows_) +
       " " + shell_quote(line));
  tmux("pipe-pane -t main -o " + shell_quote("cat >> " + raw_path_));
  tmux("wait-for -S go");
}

std::string tmux_session::screen() const { return tmux("capture-pane -p -t main"); }

std::string tmux_session::history() const { return tmux("capture-pane -p -t main -S -2000"); }

std::string tmux_session::raw() const {
  const std::ifstream in(raw_path_);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void tmux_session::send_keys(const std::string& keys) const { tmux("send-keys -t main " + keys); }

std::string tmux_session::wait_for(const std::function<bool(const std::string&)>& seen,
                                   std::chrono::seconds limit) const {
  const auto until = std::chrono::steady_clock::now() + limit;
  std::string shown = screen();
  while (!seen(shown) && std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    shown = screen();
  }
  return shown;
}

int tmux_session::wait_exit(std::chrono::seconds limit) const {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    const std::string all = history();
    const auto at = all.rfind(exit_marker);
    if (at != std::string::npos) return std::atoi(all.c_str() + at + exit_marker.size());
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  return -1;
}

}  // namespace tpcc::testing
