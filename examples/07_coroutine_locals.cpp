// SPDX-License-Identifier: Apache-2.0
// 07_coroutine_locals: a request id that follows the request, not the thread.
//
// Shows: a `shoal::coroutine_local<T>` declared once, like a thread_local; each terminal binds
// its name for its whole life and a fresh request id per request (`auto scope = co_await
// key.bind(v)`; the binding ends with the scope); a plain logging function, called two awaits
// deep, reads both with get() (nobody passes them down); the values survive sleeps, across
// which the pool may move a terminal to the other worker, and never leak to another terminal
// running on the same thread; outside every binding get() gives the declaration's fallback.
#include <shoal/coroutine_local.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <latch>
#include <string>

#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;

const shoal::coroutine_local<std::string> terminal_name{"-"};
const shoal::coroutine_local<int> request_id{0};
std::atomic<int> lines{0};
std::atomic<int> wrong_lines{0};

// A plain function: it takes no request id, yet knows the current one.
void log(int terminal, int request) {
  lines.fetch_add(1, std::memory_order_relaxed);  // relaxed: read by main after the latch
  if (terminal_name.get() != "terminal-" + std::to_string(terminal) || request_id.get() != request)
    wrong_lines.fetch_add(1, std::memory_order_relaxed);
}

shoal::task<void> read_stock(int terminal, int request) {
  co_await shoal::sleep_for(200us);  // the "database"
  log(terminal, request);
}

shoal::task<void> new_order(int terminal, int request) {
  log(terminal, request);
  for (int item = 0; item < 3; ++item) co_await read_stock(terminal, request);
}

shoal::task<void> terminal(int k, std::latch& finished) {
  {
    auto name = co_await terminal_name.bind("terminal-" + std::to_string(k));
    for (int n = 1; n <= 20; ++n) {
      auto id = co_await request_id.bind(k * 1000 + n);
      co_await new_order(k, k * 1000 + n);
      co_await shoal::sleep_for(1ms);  // think time: it may wake on the other worker
    }
  }  // the bindings end here, before the count-down
  finished.count_down();  // release: pairs with main's wait()
}

}  // namespace

int main() {
  std::printf("07_coroutine_locals\n");
  examples::check(terminal_name.get() == "-" && request_id.get() == 0,
                  "outside every binding, get() gives the fallbacks ('-', 0)");
  std::latch finished(8);
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  for (int k = 1; k <= 8; ++k) pool.spawn(terminal(k, finished));
  finished.wait();
  shoal::sync_wait(pool.stop());
  std::printf("  %d log lines from 8 terminals on 2 workers\n", lines.load());
  examples::check(lines.load() == 8 * 20 * 4 && wrong_lines.load() == 0,
                  "every log line saw its own terminal's name and current request id");
  return examples::finish("07_coroutine_locals");
}
