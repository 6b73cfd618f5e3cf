// app/tpcc/cli/console.hpp: the process's console: progress lines and Ctrl-C.
//
// What: block_signals() (call first in main, before any thread exists) makes SIGINT and
// SIGTERM arrive only where they are waited for. A console then runs one thread that waits for
// those signals and, once per `interval`, prints the line its current reporter renders (to
// stderr, so stdout carries only results). The first Ctrl-C calls the interrupt handler (the
// run drains and reports what it measured); a second one exits at once with status 130.
// The reporter and the handler are plain callables that read snapshots; the console never
// touches live counters itself.
//
// Lifetime: start() once; the destructor stops and joins the thread.
// Thread-safety: set_reporter / set_interrupt from any thread; they take effect at the next tick.
#pragma once

#include <atomic>
#include <chrono>
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
  // The line printed at each tick; an empty function prints nothing.
  void set_reporter(std::function<std::string()> line);
  void set_interrupt(std::function<void()> on_interrupt);
  [[nodiscard]] bool interrupted() const noexcept { return interrupted_.load(); }

 private:
  void loop();
  void tick();
  void interrupt();

  const std::chrono::milliseconds interval_;
  const bool print_;
  std::mutex mutex_;
  std::function<std::string()> reporter_;
  std::function<void()> on_interrupt_;
  std::atomic<bool> done_{false};
  std::atomic<bool> interrupted_{false};
  std::thread thread_;
};

}  // namespace tpcc::cli
