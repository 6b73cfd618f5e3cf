// 02_thread_pool: moving coroutines onto a shoal::thread_pool and back off it.
//
// Shows:
//   - `co_await pool.schedule()` moves a coroutine from main's thread onto some worker;
//   - `co_await pool.schedule_on(k)` moves it to worker k and binds it there: after a yield and a
//     sleep it is still on worker k;
//   - `pool.spawn(t)` starts detached work; main waits for all of it with a std::latch;
//   - `pool.spawn_on(k, t)` starts detached work bound to worker k;
//   - the orderly end: every piece of work has finished before `sync_wait(pool.stop())`.
//
// Exits 0 when all of that happened as described, 1 (naming what did not) otherwise.
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

namespace {

using namespace std::chrono_literals;

int failures = 0;

void check(bool ok, const char* what) {
  std::printf("  [%s] %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) ++failures;
}

// Which worker of `pool` runs the calling code: its index, or -1 when none does.
int worker_index(shoal::thread_pool& pool) {
  for (std::size_t k = 0; k < pool.size(); ++k) {
    if (shoal::executor::current() == &pool.worker(k)) return static_cast<int>(k);
  }
  return -1;
}

shoal::task<bool> hop_into_pool(shoal::thread_pool& pool) {
  const std::thread::id main_thread = std::this_thread::get_id();
  co_await pool.schedule();
  std::printf("  schedule():      running on worker %d\n", worker_index(pool));
  co_return std::this_thread::get_id() != main_thread&& worker_index(pool) >= 0;
}

// Binds itself to worker 1, then checks it is still there after a yield and a sleep.
shoal::task<int> stay_on_worker_1(shoal::thread_pool& pool) {
  co_await pool.schedule_on(1);
  int on_home = worker_index(pool) == 1 ? 1 : 0;
  std::printf("  schedule_on(1):  running on worker %d\n", worker_index(pool));
  co_await shoal::yield();
  on_home += worker_index(pool) == 1 ? 1 : 0;
  co_await shoal::sleep_for(2ms);
  on_home += worker_index(pool) == 1 ? 1 : 0;
  std::printf("  after yield and sleep_for: still on worker %d\n", worker_index(pool));
  co_return on_home;
}

// Detached work: does its part, then counts down as the very last thing it does.
shoal::task<void> job(std::atomic<int>& done_jobs, std::latch& finished) {
  co_await shoal::yield();
  done_jobs.fetch_add(1, std::memory_order_relaxed);  // read by main after finished.wait()
  finished.count_down();                              // release: pairs with finished.wait()
}

shoal::task<void> pinned_job(shoal::thread_pool& pool, std::size_t k, std::atomic<int>& misplaced,
                             std::latch& finished) {
  for (int i = 0; i < 3; ++i) {
    if (worker_index(pool) != static_cast<int>(k))
      misplaced.fetch_add(1, std::memory_order_relaxed);
    co_await shoal::sleep_for(1ms);
  }
  finished.count_down();  // release: pairs with finished.wait()
}

void print_stats(shoal::thread_pool& pool) {
  for (std::size_t k = 0; k < pool.size(); ++k) {
    const shoal::worker_stats s = pool.stats(k);
    std::printf(
        "  worker %zu: resumed %llu, stolen %llu, parked %llu, timers fired %llu\n", k,
        static_cast<unsigned long long>(s.resumed), static_cast<unsigned long long>(s.stolen),
        static_cast<unsigned long long>(s.parked), static_cast<unsigned long long>(s.timers_fired));
  }
}

}  // namespace

int main() {
  std::printf("02_thread_pool\n");
  constexpr int jobs = 1000;
  constexpr int pinned_jobs = 10;
  // Declared before the pool: they outlive every coroutine that touches them.
  std::atomic<int> done_jobs{0};
  std::atomic<int> misplaced{0};
  std::latch jobs_finished(jobs);
  std::latch pinned_finished(pinned_jobs);

  shoal::thread_pool pool({.workers = 2});
  pool.start();

  check(shoal::sync_wait(hop_into_pool(pool)), "schedule() moves the coroutine onto a worker");
  check(shoal::sync_wait(stay_on_worker_1(pool)) == 3,
        "schedule_on(1) binds it to worker 1 across yield and sleep");

  for (int i = 0; i < jobs; ++i) pool.spawn(job(done_jobs, jobs_finished));
  jobs_finished.wait();
  check(done_jobs.load(std::memory_order_relaxed) == jobs, "1000 spawned jobs ran, latch joined");

  for (int i = 0; i < pinned_jobs; ++i) {
    const std::size_t k = static_cast<std::size_t>(i) % pool.size();
    pool.spawn_on(k, pinned_job(pool, k, misplaced, pinned_finished));
  }
  pinned_finished.wait();
  check(misplaced.load(std::memory_order_relaxed) == 0, "spawn_on(k) work always runs on worker k");

  print_stats(pool);
  shoal::sync_wait(pool.stop());  // all work has finished: stop only has idle workers to end
  std::printf("  pool stopped\n");

  if (failures != 0) {
    std::printf("02_thread_pool: %d check(s) FAILED\n", failures);
    return 1;
  }
  std::printf("02_thread_pool: all checks passed\n");
  return 0;
}
