// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/stderr_capture.cpp: fd 2 into a pipe, a spool and a tail (see stderr_capture.hpp).
#include "ui/stderr_capture.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>

namespace tpcc::ui {
namespace {

void write_all(int fd, const char* data, std::size_t n) {
  while (n > 0) {
    const ssize_t w = ::write(fd, data, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return;
    data += w;
    n -= static_cast<std::size_t>(w);
  }
}

}  // namespace

stderr_capture::stderr_capture(std::size_t tail_lines) : tail_lines_(tail_lines) {
  std::array<int, 2> fds{-1, -1};
  spool_ = std::tmpfile();
  if (spool_ == nullptr || ::pipe(fds.data()) != 0) {
    if (spool_ != nullptr) std::fclose(spool_);
    spool_ = nullptr;
    return;
  }
  std::fflush(stderr);
  real_stderr_ = ::dup(STDERR_FILENO);
  if (real_stderr_ < 0 || ::dup2(fds[1], STDERR_FILENO) < 0) {
    if (real_stderr_ >= 0) ::close(real_stderr_);
    real_stderr_ = -1;
    ::close(fds[0]);
    ::close(fds[1]);
    std::fclose(spool_);
    spool_ = nullptr;
    return;
  }
  ::close(fds[1]);  // fd 2 is now the pipe's only write end
  pipe_read_ = fds[0];
  reader_ = std::thread([this] { read_pipe(); });
}

stderr_capture::~stderr_capture() { restore(); }

std::vector<std::string> stderr_capture::tail(std::size_t n) const {
  const std::scoped_lock lock(mutex_);
  const std::size_t shown = std::min(n, tail_.size());
  return {tail_.end() - static_cast<std::ptrdiff_t>(shown), tail_.end()};
}

// Runs until every write end is closed (restore() closes the last one, fd 2).
void stderr_capture::read_pipe() {
  std::array<char, 4096> buffer{};
  for (;;) {
    const ssize_t n = ::read(pipe_read_, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    std::fwrite(buffer.data(), 1, static_cast<std::size_t>(n), spool_);
    keep(buffer.data(), static_cast<std::size_t>(n));
  }
  if (!partial_.empty()) keep("\n", 1);
}

void stderr_capture::keep(const char* data, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (data[i] != '\n') {
      partial_ += data[i];
      continue;
    }
    const std::scoped_lock lock(mutex_);
    tail_.push_back(std::move(partial_));
    partial_.clear();
    if (tail_.size() > tail_lines_) tail_.pop_front();
  }
}

void stderr_capture::restore() {
  if (real_stderr_ < 0) return;
  std::fflush(stderr);
  ::dup2(real_stderr_, STDERR_FILENO);  // closes the pipe's last write end: the reader ends
  if (reader_.joinable()) reader_.join();
  ::close(pipe_read_);
  std::fflush(spool_);
  std::fseek(spool_, 0, SEEK_SET);
  std::array<char, 4096> buffer{};
  for (std::size_t n = 0; (n = std::fread(buffer.data(), 1, buffer.size(), spool_)) > 0;) {
    write_all(STDERR_FILENO, buffer.data(), n);
  }
  std::fclose(spool_);
  spool_ = nullptr;
  ::close(real_stderr_);
  real_stderr_ = -1;
  pipe_read_ = -1;
}

}  // namespace tpcc::ui
