// SPDX-License-Identifier: Apache-2.0
// 14_graceful_stop: Ctrl-C drains the terminals through a gate: stop issuing, finish what is in
// flight, report.
//
// Shows: 1,000 terminals loop transaction (5 ms) -> think time (20 ms) for 3 s or until Ctrl-C;
// each transaction enters a shoal::gate. At the end, `co_await gate.close()` admits nothing new
// and waits for the transactions in flight; then a stop request wakes the thinking terminals
// at once (their sleeps return false), and each leaves its loop because the gate is closed.
// Every transaction that started has finished before the report. Needs no signal to run.
#include <shoal/gate.hpp>
#include <shoal/sleep.hpp>
#include <shoal/stop.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <latch>
#include <stop_token>
#include <thread>

#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;

std::atomic<bool> interrupted{false};  // set by the SIGINT handler
void on_sigint(int /*signal*/) { interrupted.store(true, std::memory_order_relaxed); }

struct run_state {
  shoal::gate in_flight;
  std::stop_source stop;
  std::atomic<int> started{0}, finished{0};  // relaxed: main reads them after the latch
};

shoal::task<void> terminal(run_state& run) {
  for (;;) {
    if (const shoal::gate_token inside = run.in_flight.enter()) {
      run.started.fetch_add(1, std::memory_order_relaxed);
      co_await shoal::sleep_for(5ms);  // the transaction (NO DATABASE)
      run.finished.fetch_add(1, std::memory_order_relaxed);
    } else {
      co_return;  // the gate is closed: issue nothing new
    }
    co_await shoal::sleep_for(20ms);  // think time: a stop request ends it early
  }
}

shoal::task<void> launch(run_state& run, std::latch& ended) {
  co_await shoal::with_stop_token(run.stop.get_token(), terminal(run));
  ended.count_down();  // release: pairs with main's wait()
}

shoal::task<bool> drain(run_state& run) { co_return co_await run.in_flight.close(); }

}  // namespace

int main() {
  std::signal(SIGINT, on_sigint);
  std::printf("14_graceful_stop: 1,000 terminals for 3 s (Ctrl-C ends it early)\n");
  std::fflush(stdout);
  run_state run;
  std::latch ended(1000);
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  for (int i = 0; i < 1000; ++i) pool.spawn(launch(run, ended));
  const auto end = std::chrono::steady_clock::now() + 3s;
  while (!interrupted.load(std::memory_order_relaxed) && std::chrono::steady_clock::now() < end)
    std::this_thread::sleep_for(10ms);
  const bool drained = shoal::sync_wait(drain(run));  // closed: in-flight transactions finish
  run.stop.request_stop();                            // thinking terminals wake and leave
  ended.wait();
  shoal::sync_wait(pool.stop());
  std::printf("  ended by %s: %d transactions\n", interrupted ? "Ctrl-C" : "the time limit",
              run.finished.load());
  examples::check(drained && run.started.load() == run.finished.load(),
                  "every transaction in flight finished before the report");
  return examples::finish("14_graceful_stop");
}
