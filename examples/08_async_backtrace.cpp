// 08_async_backtrace: who is waiting for whom, printed.
//
// Shows:
//   - `co_await shoal::async_backtrace_here()` inside a coroutine three awaits deep gives the
//     awaiting chain, itself first, down to the root sync_wait started;
//   - `shoal::async_backtrace(handle)` on a chain that is suspended (here a slow "query"
//     sleeping on worker 0), taken by a watchdog on the same worker: the report a stuck-request
//     detector would log;
//   - `shoal::format_async_backtrace` names each coroutine (from the ELF symbol table) and prints
//     its module+offset for `addr2line -f -C -e <module> <offset>`.
// In gdb, `shoal-bt <handle>` prints the same chain (tools/gdb/shoal_backtrace.py).
//
// Exits 0 when both backtraces name the three coroutines innermost first, 1 otherwise.
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
#include <vector>

namespace {

using namespace std::chrono_literals;

int failures = 0;

void check(bool ok, const char* what) {
  std::printf("  [%s] %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) ++failures;
}

// True when `text` names the three functions in this order.
bool in_order(const std::string& text, const char* first, const char* second, const char* third) {
  const std::size_t a = text.find(first);
  const std::size_t b = text.find(second);
  const std::size_t c = text.find(third);
  return a != std::string::npos && b != std::string::npos && c != std::string::npos && a < b &&
         b < c;
}

// Part 1: a backtrace taken from inside the chain.
shoal::task<std::string> validate_order() {
  const std::vector<shoal::async_frame> frames = co_await shoal::async_backtrace_here();
  co_return shoal::format_async_backtrace(frames);
}

shoal::task<std::string> price_order() { co_return co_await validate_order(); }

shoal::task<std::string> handle_request() { co_return co_await price_order(); }

// Part 2: a chain suspended in a slow query, and a watchdog that reports where it is stuck.
using query_handle = std::coroutine_handle<shoal::task<void>::promise_type>;

// Gives the awaiting task's own handle without suspending it.
struct own_handle {
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
  co_await shoal::sleep_for(50ms);  // the query takes far longer than the watchdog allows
  s.in_query = {};
}

shoal::task<void> load_customer(stuck_state& s) { co_await slow_query(s); }

shoal::task<void> payment(stuck_state& s, std::latch& finished) {
  co_await load_customer(s);
  finished.count_down();  // release: pairs with finished.wait() in main
}

// Runs on the same worker as the chain (both bound to worker 0), so the chain cannot run while
// the watchdog walks it.
shoal::task<void> watchdog(stuck_state& s, std::latch& finished) {
  co_await shoal::sleep_for(10ms);
  if (s.in_query) s.report = shoal::format_async_backtrace(shoal::async_backtrace(s.in_query));
  finished.count_down();  // release: pairs with finished.wait() in main
}

}  // namespace

int main() {
  std::printf("08_async_backtrace\n");

  const std::string here = shoal::sync_wait(handle_request());
  std::printf("  from inside validate_order:\n%s", here.c_str());
  check(in_order(here, "validate_order", "price_order", "handle_request"),
        "async_backtrace_here names validate_order, price_order, handle_request in order");

  stuck_state stuck;
  std::latch finished(2);
  {
    shoal::thread_pool pool({.workers = 2});
    pool.start();
    pool.spawn_on(0, payment(stuck, finished));
    pool.spawn_on(0, watchdog(stuck, finished));
    finished.wait();
    shoal::sync_wait(pool.stop());
  }
  std::printf("  the watchdog's report on the stuck payment:\n%s", stuck.report.c_str());
  check(in_order(stuck.report, "slow_query", "load_customer", "payment"),
        "async_backtrace of the suspended query names slow_query, load_customer, payment");

  if (failures != 0) {
    std::printf("08_async_backtrace: %d check(s) FAILED\n", failures);
    return 1;
  }
  std::printf("08_async_backtrace: all checks passed\n");
  return 0;
}
