// SPDX-License-Identifier: Apache-2.0
// 02_thread_pool: moving coroutines onto a shoal::thread_pool and back off it.
//
// Shows: `co_await pool.schedule()` moves a coroutine onto some worker; `co_await
// pool.schedule_on(k)` moves it to worker k and binds it there (still on k after a yield and
// a sleep); `pool.spawn(t)` / `pool.spawn_on(k, t)` start detached work, which main joins with
// a std::latch; every piece of work has finished before `sync_wait(pool.stop())`.
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>
#include <shoal/yield.hpp>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <latch>
#include <thread>

#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;
using examples::check;

int worker_index(shoal::thread_pool& pool) {  // which worker runs the caller; -1: none
  for (std::size_t k = 0; k < pool.size(); ++k)
    if (shoal::executor::current() == &pool.worker(k)) return static_cast<int>(k);
  return -1;
}

shoal::task<bool> hop_into_pool(shoal::thread_pool& pool) {
  const std::thread::id main_thread = std::this_thread::get_id();
  co_await pool.schedule();
  co_return std::this_thread::get_id() != main_thread&& worker_index(pool) >= 0;
}

shoal::task<int> stay_on_worker_1(shoal::thread_pool& pool) {
  co_await pool.schedule_on(1);
  int on_home = worker_index(pool) == 1 ? 1 : 0;
  co_await shoal::yield();
  on_home += worker_index(pool) == 1 ? 1 : 0;
  co_await shoal::sleep_for(2ms);
  co_return on_home + (worker_index(pool) == 1 ? 1 : 0);
}

// Detached work: counts down as the very last thing it does (release: pairs with wait()).
struct tally {
  std::atomic<int> ran{0};  // relaxed, both: main reads them after the latch
  std::atomic<int> misplaced{0};
};

shoal::task<void> job(shoal::thread_pool& pool, int home, tally& t, std::latch& finished) {
  co_await shoal::sleep_for(1ms);
  t.ran.fetch_add(1, std::memory_order_relaxed);
  if (home >= 0 && worker_index(pool) != home) t.misplaced.fetch_add(1, std::memory_order_relaxed);
  finished.count_down();
}

}  // namespace

int main() {
  std::printf("02_thread_pool\n");
  tally t;  // declared before the pool: it outlives every coroutine
  std::latch unbound(1000);
  std::latch bound(10);
  shoal::thread_pool pool({.workers = 2});
  pool.start();

  check(shoal::sync_wait(hop_into_pool(pool)), "schedule() moves the coroutine onto a worker");
  check(shoal::sync_wait(stay_on_worker_1(pool)) == 3,
        "schedule_on(1) binds it to worker 1 across yield and sleep");
  for (int i = 0; i < 1000; ++i) pool.spawn(job(pool, -1, t, unbound));
  unbound.wait();
  check(t.ran.load(std::memory_order_relaxed) == 1000, "1000 spawned jobs ran, a latch joined");
  for (int i = 0; i < 10; ++i)
    pool.spawn_on(static_cast<std::size_t>(i % 2), job(pool, i % 2, t, bound));
  bound.wait();
  check(t.misplaced.load(std::memory_order_relaxed) == 0, "spawn_on(k) work runs on worker k");

  shoal::sync_wait(pool.stop());  // all work has finished: stop only ends idle workers
  return examples::finish("02_thread_pool");
}
