// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/console.hpp: the process's console: progress lines and Ctrl-C.
//
// What: block_signals() (call first in main, before any thread exists) makes SIGINT and
// SIGTERM arrive only where they are waited for. A console then runs one thread that waits for
// those signals and, once per `interval`, prints the line its current reporter renders (to
// stderr, so stdout carries only results). The first Ctrl-C (SIGINT) or SIGTERM calls the
// interrupt handler (the run drains and reports what it measured) and says which came
// ("interrupted" or "terminated"); a second one exits at once with status 128 + the signal.
// The reporter and the handler are plain callables that read snapshots; the console never
// touches live counters itself.
//
// Lifetime: start() once; stop() (or the destructor) joins the thread.
// Thread-safety: set_reporter / set_interrupt from any thread; once they return, the previous
// handler is not running (handlers run under the console's lock, so they must be quick and must
// not call back into the console).
// A second Ctrl-C runs the before-exit handler (a dashboard gives the terminal back) and then
// exits at once with status 130.
#pragma once

#include <atomic>
#include <chrono>
#include <csignal>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace tpcc::cli {

void block_signals();

class console {
 public:
  explicit console(std::chrono::milliseconds interval, bool print = true);
  console(const console&) = delete;
  console& operator=(const console&) = delete;
  ~console();

  void start();
  // Stops and joins the thread: after it returns no handler runs any more. Call it before
  // what the handlers refer to is destroyed. Idempotent; the destructor calls it.
  void stop();
  // The line printed at each tick; an empty function prints nothing.
  void set_reporter(std::function<std::string()> line);
  void clear_reporter() { set_reporter(nullptr); }
  // When an interrupt already came (before any handler was set), the new handler runs at once.
  void set_interrupt(std::function<void()> on_interrupt);
  // Runs before the immediate exit of a second Ctrl-C; an empty function: nothing.
  void set_before_exit(std::function<void()> before_exit);
  [[nodiscard]] bool interrupted() const noexcept { return interrupted_.load(); }
  // The exit status an interrupted process reports: 128 + the signal (130 for Ctrl-C's SIGINT,
  // 143 for SIGTERM), as shells do.
  [[nodiscard]] int interrupt_status() const noexcept { return 128 + signal_.load(); }

 private:
  void loop();
  void tick();
  void interrupt(int signo);

  const std::chrono::milliseconds interval_;
  const bool print_;
  std::mutex mutex_;
  std::function<std::string()> reporter_;
  std::function<void()> on_interrupt_;
  std::function<void()> before_exit_;
  std::atomic<bool> done_{false};
  std::atomic<bool> interrupted_{false};
  std::atomic<int> signal_{SIGINT};  // the first stop signal that came
  std::thread thread_;
};

}  // namespace tpcc::cli
