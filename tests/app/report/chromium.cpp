// SPDX-License-Identifier: Apache-2.0
// tests/app/report/chromium.cpp: headless Chromium for the report tests (see chromium.hpp).
#include "chromium.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#include "support/temp_dir.hpp"

namespace tpcc::testing {
namespace {

namespace fs = std::filesystem;

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Single quotes for the shell (paths come from the test's own temporary directories).
std::string shell_quoted(const std::string& s) {
  std::string out = "'";
  for (const char ch : s) {
    if (ch == '\'') {
      out += "'\\''";
    } else {
      out += ch;
    }
  }
  return out + "'";
}

browser_result run_chromium(const fs::path& chromium, const std::vector<std::string>& extra,
                            const fs::path& page) {
  const temp_dir dir("shoal-chromium");
  std::string command = "timeout 120 ";
  command.append(shell_quoted(chromium.string()));
  for (const char* flag : {"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                           "--no-first-run", "--disable-background-networking",
                           "--disable-component-update", "--disable-sync", "--hide-scrollbars"}) {
    command.append(" ").append(flag);
  }
  command.append(" ").append(
      shell_quoted(std::string("--user-data-dir=").append((dir.path() / "profile").string())));
  for (const std::string& e : extra) command.append(" ").append(shell_quoted(e));
  command.append(" ").append(
      shell_quoted(std::string("file://").append(fs::absolute(page).string())));
  command.append(" >").append(shell_quoted((dir.path() / "out").string()));
  command.append(" 2>").append(shell_quoted((dir.path() / "err").string()));
  browser_result r;
  const int status = std::system(command.c_str());
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read_all(dir.path() / "out");
  r.err = read_all(dir.path() / "err");
  return r;
}

}  // namespace

std::optional<fs::path> find_chromium() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path == nullptr ? "/usr/bin" : path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    fs::path candidate = fs::path(dir) / "chromium";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

browser_result dump_dom(const fs::path& chromium, const fs::path& page) {
  return run_chromium(chromium, {"--dump-dom"}, page);
}

browser_result dump_dom(const fs::path& chromium, const fs::path& page, int width, int height) {
  return run_chromium(chromium,
                      {"--dump-dom", std::string("--window-size=")
                                         .append(std::to_string(width))
                                         .append(",")
                                         .append(std::to_string(height))},
                      page);
}

browser_result screenshot(const fs::path& chromium, const fs::path& page, const fs::path& png,
                          int width, int height) {
  return run_chromium(chromium,
                      {std::string("--screenshot=").append(fs::absolute(png).string()),
                       std::string("--window-size=")
                           .append(std::to_string(width))
                           .append(",")
                           .append(std::to_string(height))},
                      page);
}

}  // namespace tpcc::testing
