// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/console.cpp: signal waiting and progress ticks (see console.hpp).
#include "cli/console.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <utility>

namespace tpcc::cli {
namespace {

sigset_t stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  return set;
}

const char* signal_words(int signo) {
  return signo == SIGTERM ? "terminated (SIGTERM)" : "interrupted (Ctrl-C)";
}

}  // namespace

void block_signals() {
  const sigset_t set = stop_signals();
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

console::console(std::chrono::milliseconds interval, bool print)
    : interval_(interval), print_(print) {}

console::~console() { stop(); }

void console::stop() {
  done_.store(true);
  if (thread_.joinable()) thread_.join();
}

void console::start() {
  thread_ = std::thread([this] { loop(); });
}

void console::set_reporter(std::function<std::string()> line) {
  const std::scoped_lock lock(mutex_);
  reporter_ = std::move(line);
}

void console::set_interrupt(std::function<void()> on_interrupt) {
  const std::scoped_lock lock(mutex_);
  on_interrupt_ = std::move(on_interrupt);
  if (interrupted_.load() && on_interrupt_) on_interrupt_();
}

void console::set_before_exit(std::function<void()> before_exit) {
  const std::scoped_lock lock(mutex_);
  before_exit_ = std::move(before_exit);
}

// Handlers run under the lock, so once set_reporter / set_interrupt has returned the old one
// is not running and what it referred to may go.
void console::tick() {
  std::string line;
  {
    const std::scoped_lock lock(mutex_);
    if (!print_ || !reporter_) return;
    line = reporter_();
  }
  if (!line.empty()) std::fprintf(stderr, "%s\n", line.c_str());
}

void console::interrupt(int signo) {
  if (interrupted_.exchange(true)) {
    {
      const std::scoped_lock lock(mutex_);
      if (before_exit_) before_exit_();
    }
    std::fprintf(stderr, "shoal-tpcc: %s again, exiting now\n", signal_words(signo));
    std::_Exit(128 + signo);
  }
  signal_.store(signo);
  std::fprintf(stderr,
               "shoal-tpcc: %s: finishing transactions in flight, then reporting (again to quit "
               "at once)\n",
               signal_words(signo));
  const std::scoped_lock lock(mutex_);
  if (on_interrupt_) on_interrupt_();
}

void console::loop() {
  const sigset_t set = stop_signals();
  const auto slice = std::chrono::milliseconds(100);
  auto next_tick = std::chrono::steady_clock::now() + interval_;
  while (!done_.load()) {
    const timespec wait{0, static_cast<long>(slice.count()) * 1'000'000L};
    const int signo = sigtimedwait(&set, nullptr, &wait);
    if (signo > 0) interrupt(signo);
    if (std::chrono::steady_clock::now() >= next_tick) {
      tick();
      next_tick += interval_;
    }
  }
}

}  // namespace tpcc::cli
