// SPDX-License-Identifier: Apache-2.0
// tests/app/metrics/scrape.cpp: a background run and its metrics scraped (see scrape.hpp).
#include "scrape.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <csignal>
#include <cstdint>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>

namespace tpcc::testing {

using namespace std::chrono_literals;

std::string file_text(const std::string& path) {
  const std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

background_run::background_run(const temp_dir& dir, const std::vector<std::string>& args)
    : out_(dir.file("run.out")), err_(dir.file("run.err")) {
  pid_ = fork();
  if (pid_ == 0) {
    const int o = open(out_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int e = open(err_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(o, STDOUT_FILENO);
    dup2(e, STDERR_FILENO);
    std::vector<std::string> copy = args;
    std::string binary = SHOAL_TPCC_BINARY;
    std::vector<char*> argv{binary.data()};
    for (auto& a : copy) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
}

background_run::~background_run() {
  if (running()) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

std::optional<int> background_run::metrics_port() {
  static const std::regex printed(R"(metrics: http://127\.0\.0\.1:([0-9]+)/metrics)");
  for (auto waited = 0ms; waited < 30s; waited += 50ms) {
    std::smatch m;
    const std::string err = stderr_text();
    if (std::regex_search(err, m, printed)) return std::stoi(m[1]);
    if (!running()) return std::nullopt;
    std::this_thread::sleep_for(50ms);
  }
  return std::nullopt;
}

void background_run::interrupt() const { kill(pid_, SIGINT); }

int background_run::wait(std::chrono::seconds limit) {
  for (auto waited = 0ms; waited < limit && running(); waited += 50ms) {
    std::this_thread::sleep_for(50ms);
  }
  return exited_ && WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
}

bool background_run::running() {
  if (!exited_ && pid_ > 0 && waitpid(pid_, &status_, WNOHANG) == pid_) exited_ = true;
  return pid_ > 0 && !exited_;
}

// One HTTP exchange on a plain blocking socket; nullopt when nothing listens on the port.
std::optional<std::string> http_get(int port, const std::string& path) {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  const timeval limit{.tv_sec = 10, .tv_usec = 0};
  setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
  if (connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return std::nullopt;
  }
  const std::string request = "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  static_cast<void>(send(fd, request.data(), request.size(), MSG_NOSIGNAL));
  std::string got;
  std::array<char, 4096> buffer{};
  for (ssize_t n = 0; (n = recv(fd, buffer.data(), buffer.size(), 0)) > 0;) {
    got.append(buffer.data(), static_cast<std::size_t>(n));
  }
  close(fd);
  return got;
}

std::string body_of(const std::string& response) {
  const auto end = response.find("\r\n\r\n");
  return end == std::string::npos ? "" : response.substr(end + 4);
}

}  // namespace tpcc::testing
