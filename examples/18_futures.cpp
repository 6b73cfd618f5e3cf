// SPDX-License-Identifier: Apache-2.0
// 18_futures: futures with a monadic API (asynqro's), filled from any thread, awaited by
// coroutines.
//
// Shows: a promise filled by a foreign thread and a chain of transformations on its future
// (map, flat_map, filter with with_failure, recover); zip and sequence; a job started with
// spawn_future whose result a coroutine co_awaits without blocking a worker, and one whose
// cancel() stops its coroutine through its stop token; run_sequence, one job per element.
#include <shoal/future.hpp>
#include <shoal/future_run.hpp>
#include <shoal/promise.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <chrono>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;
using order = shoal::future<int, std::string>;  // a failure is a message here

// An "API" answering later, each answer from a thread of its own (joined at exit).
struct shop {
  std::mutex m;  // price_of is called from the clerks' threads too (in callbacks)
  std::vector<std::jthread> clerks;
  order price_of(int item) {
    shoal::promise<int, std::string> p;
    const std::lock_guard lock(m);
    clerks.emplace_back([p, item] { item < 0 ? p.failure("no such item") : p.success(item * 10); });
    return p.get_future();
  }
};

shoal::task<int> total(shoal::thread_pool& pool, shop& s) {
  // co_await resumes this coroutine on its own worker when the future is filled.
  const int a = co_await shoal::spawn_future(pool, [] { return 20; });
  const int b = co_await s.price_of(2);
  co_return a + b;
}

}  // namespace

int main() {
  std::printf("18_futures\n");
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  shop s;

  order checked = s.price_of(3)
                      .map([](int price) { return price + 5; })
                      .filter([](int price) { return price < 100; }, "too expensive")
                      .flat_map([&s](int price) {
                        return s.price_of(1).map([price](int p) { return price + p; });
                      });
  examples::check(checked.value() == 45, "map, filter and flat_map chained on a foreign fill");

  order refused = s.price_of(4).map([](int price) -> int {
    if (price > 30) return shoal::with_failure<std::string>("over budget");
    return price;
  });
  examples::check(refused.failure() == "over budget", "with_failure failed the transformation");
  examples::check(s.price_of(-1).recover_value(0).value() == 0, "recover_value replaced a failure");

  auto both = s.price_of(1).zip(s.price_of(2));
  examples::check(both.value() == std::tuple(10, 20), "zip gave a tuple of both values");
  auto all = shoal::sequence(std::vector<order>{s.price_of(1), s.price_of(2), s.price_of(3)});
  examples::check(all.value() == std::vector<int>{10, 20, 30}, "sequence kept the order");
  auto thrown = order::successful(1).map([](int) -> int { throw std::runtime_error("boom"); });
  examples::check(thrown.failure() == "boom", "an exception in map became the failure");

  examples::check(shoal::sync_wait(total(pool, s)) == 40, "a coroutine co_awaited two futures");

  auto sleeper = shoal::spawn_future(pool, []() -> shoal::task<bool> {
    co_return co_await shoal::sleep_for(1h);  // false once its stop token is requested
  });
  sleeper.cancel();
  examples::check(sleeper.is_failed(), "cancel() filled the future at once");

  auto squares =
      shoal::run_sequence(pool, std::vector<int>{1, 2, 3, 4}, [](int x) { return x * x; });
  examples::check(squares.value() == std::vector<int>{1, 4, 9, 16}, "run_sequence: one job each");

  shoal::sync_wait(pool.stop());  // returns once the cancelled sleeper has ended too
  return examples::finish("18_futures");
}
