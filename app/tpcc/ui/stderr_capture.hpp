// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/stderr_capture.hpp: what the process writes to stderr, kept off the screen while a
// dashboard owns it, shown in the log pane, and written out afterwards so nothing is lost.
//
// What: the constructor points file descriptor 2 at a pipe; a reader thread copies everything
// arriving there to an unnamed spool file (so memory stays bounded however much is written)
// and keeps the last `tail_lines` complete lines for the log pane. restore() points fd 2 back
// at the real stderr, waits until the reader has taken everything written before, then
// replays the whole spool to the real stderr: every byte written while captured reaches it,
// in order, once the screen is gone.
// Lifetime: one capture at a time per process; restore() (or the destructor) ends it. If the
// pipe or the spool cannot be made, nothing is captured (active() is false) and stderr stays
// as it was.
// Thread-safety: tail() from any thread; restore() from any thread, at most one caller at a
// time (the owner serialises it); writers to fd 2 are any thread (the kernel orders them).
#pragma once

#include <cstddef>
#include <cstdio>
#include <deque>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tpcc::ui {

class stderr_capture {
 public:
  explicit stderr_capture(std::size_t tail_lines = 256);
  stderr_capture(const stderr_capture&) = delete;
  stderr_capture& operator=(const stderr_capture&) = delete;
  ~stderr_capture();

  [[nodiscard]] bool active() const noexcept { return real_stderr_ >= 0; }
  // The last complete lines written, oldest first (at most `n`).
  [[nodiscard]] std::vector<std::string> tail(std::size_t n) const;
  // Puts fd 2 back and writes out everything captured. Idempotent.
  void restore();

 private:
  void read_pipe();
  void keep(const char* data, std::size_t n);

  const std::size_t tail_lines_;
  int real_stderr_ = -1;  // a duplicate of the original fd 2 while capturing
  int pipe_read_ = -1;
  std::FILE* spool_ = nullptr;
  mutable std::mutex mutex_;
  std::deque<std::string> tail_;  // guarded by mutex_
  std::string partial_;           // the reader's unfinished line (reader thread only)
  std::thread reader_;
};

}  // namespace tpcc::ui
