// SPDX-License-Identifier: Apache-2.0
// 15_stuck_request: the async backtrace of a chain that is suspended, as a watchdog logs it.
//
// Shows: `shoal::async_backtrace(handle)` walks a suspended chain (here a payment stuck in a
// slow "query" sleeping on worker 0) from its innermost coroutine out; a watchdog bound to the
// same worker takes it, so the chain cannot run while it is walked. The report is what a
// stuck-request detector would log. (From inside a running chain: 08_async_backtrace.)
#include <shoal/async_backtrace.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <chrono>
#include <coroutine>
#include <cstdio>
#include <latch>
#include <string>

#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;
using query_handle = std::coroutine_handle<shoal::task<void>::promise_type>;

struct own_handle {  // gives the awaiting task its own handle without suspending it
  query_handle handle;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(query_handle h) noexcept {
    handle = h;
    return false;
  }
  query_handle await_resume() const noexcept { return handle; }
};

struct stuck_state {
  query_handle in_query;  // written and read on worker 0 only
  std::string report;
};

shoal::task<void> slow_query(stuck_state& s) {
  s.in_query = co_await own_handle{};
  co_await shoal::sleep_for(50ms);  // far longer than the watchdog allows
  s.in_query = {};
}

shoal::task<void> load_customer(stuck_state& s) { co_await slow_query(s); }

shoal::task<void> payment(stuck_state& s, std::latch& finished) {
  co_await load_customer(s);
  finished.count_down();  // release: pairs with main's wait()
}

shoal::task<void> watchdog(stuck_state& s, std::latch& finished) {
  co_await shoal::sleep_for(10ms);
  if (s.in_query) s.report = shoal::format_async_backtrace(shoal::async_backtrace(s.in_query));
  finished.count_down();  // release: pairs with main's wait()
}

}  // namespace

int main() {
  std::printf("15_stuck_request\n");
  stuck_state stuck;
  std::latch finished(2);
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  pool.spawn_on(0, payment(stuck, finished));  // both on worker 0
  pool.spawn_on(0, watchdog(stuck, finished));
  finished.wait();
  shoal::sync_wait(pool.stop());
  std::printf("  the watchdog's report on the stuck payment:\n%s", stuck.report.c_str());
  const std::size_t a = stuck.report.find("slow_query");
  const std::size_t b = stuck.report.find("load_customer");
  const std::size_t c = stuck.report.find("payment");
  examples::check(c != std::string::npos && a < b && b < c,  // npos is the largest value
                  "it names slow_query, load_customer, payment, innermost first");
  return examples::finish("15_stuck_request");
}
