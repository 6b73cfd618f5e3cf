// SPDX-License-Identifier: Apache-2.0
// 19_subpools: a subpool caps how many of its jobs run at once; run_blocking keeps blocking
// calls off the workers.
//
// Shows: a thread_pool of 2 workers; a subpool "disk" of capacity 2 in front of it; 8 jobs
// spawned into it, each making a blocking call (a 5 ms sleep standing in for a read) with
// `co_await shoal::run_blocking(f)`, which runs on the pool's blocking threads, started on
// demand, and resumes the job on its own worker. At most 2 disk jobs are in progress at once,
// while the workers stay free: an emergency job is admitted beyond the cap and runs at once.
#include <shoal/run_blocking.hpp>
#include <shoal/subpool.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <semaphore>
#include <thread>

#include "support/check.hpp"

namespace {

struct tally {
  std::atomic<int> in_progress{0};
  std::atomic<int> most{0};
  std::atomic<int> left{8};
  std::binary_semaphore all_done{0};
};

shoal::task<> disk_job(tally& t) {
  const int now = t.in_progress.fetch_add(1) + 1;
  for (int seen = t.most.load(); seen < now && !t.most.compare_exchange_weak(seen, now);) {
  }
  const auto worker = std::this_thread::get_id();
  co_await shoal::run_blocking([] { std::this_thread::sleep_for(std::chrono::milliseconds(5)); });
  examples::check(std::this_thread::get_id() == worker, "resumed on its own worker");
  t.in_progress.fetch_sub(1);
  if (t.left.fetch_sub(1) == 1) t.all_done.release();
}

shoal::task<int> emergency(shoal::subpool& disk) {
  auto slot = co_await disk.enter(shoal::priority::emergency);  // never waits
  co_return static_cast<int>(disk.running());
}

}  // namespace

int main() {
  std::printf("19_subpools\n");
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  {
    shoal::subpool disk(pool, {.name = "disk", .capacity = 2});
    tally t;
    for (int i = 0; i < 8; ++i) disk.spawn(disk_job(t));
    const int running_with_it = shoal::sync_wait(emergency(disk));
    std::printf("  emergency job admitted with %d disk jobs in progress (capacity 2)\n",
                running_with_it);
    t.all_done.acquire();
    std::printf("  8 disk jobs done, at most %d at once, on %zu blocking thread(s)\n",
                t.most.load(), pool.blocking_thread_count());
    examples::check(t.most.load() <= 2, "the capacity caps the jobs in progress");
    examples::check(pool.blocking_thread_count() >= 1, "blocking threads started on demand");
    shoal::sync_wait(pool.stop());  // waits for the last job to give its slot back
  }
  return examples::finish("19_subpools");
}
