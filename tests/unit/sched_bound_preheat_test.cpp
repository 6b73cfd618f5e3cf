// SPDX-License-Identifier: Apache-2.0
// shoal::thread_bound (jobs of one key on one worker, a bounded share of the workers) and
// shoal::preheat (frame caches filled before the first jobs): issue 17's last two items.
#include <gtest/gtest.h>

#include <latch>
#include <stdexcept>
#include <thread>
#include <vector>

#include "shoal/frame_allocator.hpp"
#include "shoal/future_run.hpp"
#include "shoal/preheat.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_bound.hpp"
#include "shoal/yield.hpp"
#include "support/running_pool.hpp"

namespace {

using shoal::task;
using shoal::testing::running_pool;

// The thread of each worker of the pool.
std::vector<std::thread::id> worker_threads(shoal::thread_pool& pool) {
  std::vector<std::thread::id> ids;
  for (std::size_t k = 0; k < pool.size(); ++k) {
    auto f = shoal::spawn_future_on(pool, k, [] { return std::this_thread::get_id(); });
    f.wait();
    ids.push_back(f.value());
  }
  return ids;
}

TEST(ThreadBound, TakesTheShareOfTheWorkersRoundedUpAtLeastOne) {
  running_pool p(2);
  EXPECT_EQ(shoal::thread_bound(p.pool).count(), 1U);  // a quarter of 2, rounded up
  EXPECT_EQ(shoal::thread_bound(p.pool, 0.5).count(), 1U);
  EXPECT_EQ(shoal::thread_bound(p.pool, 0.51).count(), 2U);
  EXPECT_EQ(shoal::thread_bound(p.pool, 1.0).count(), 2U);
  EXPECT_THROW(shoal::thread_bound(p.pool, 0.0), std::invalid_argument);
  EXPECT_THROW(shoal::thread_bound(p.pool, 1.5), std::invalid_argument);
}

TEST(ThreadBound, EveryJobOfAKeyRunsOnItsWorkerAndOnlyTheShareIsUsed) {
  running_pool p(2);
  const std::vector<std::thread::id> workers = worker_threads(p.pool);
  const shoal::thread_bound all(p.pool, 1.0);
  const shoal::thread_bound quarter(p.pool);
  for (std::uint64_t key = 0; key < 20; ++key) {
    auto f = all.run(key, [] { return std::this_thread::get_id(); });
    auto g = quarter.run(key, [] { return std::this_thread::get_id(); });
    f.wait();
    g.wait();
    EXPECT_EQ(f.value(), workers[key % 2]) << key;
    EXPECT_EQ(g.value(), workers[0]) << key;  // one worker of two runs every bound job
  }
}

TEST(ThreadBound, ADetachedJobStaysOnItsWorkerAcrossAwaits) {
  running_pool p(2);
  const std::vector<std::thread::id> workers = worker_threads(p.pool);
  const shoal::thread_bound bound(p.pool, 1.0);
  std::vector<std::thread::id> seen(4);
  std::latch done(1);
  auto job = [&]() -> task<void> {
    for (auto& id : seen) {
      id = std::this_thread::get_id();
      co_await shoal::yield();  // back through the scheduler: a bound job resumes on its worker
    }
    done.count_down();
  };
  bound.spawn(7, job());
  done.wait();
  for (const auto& id : seen) EXPECT_EQ(id, workers[1]);
}

// System allocations of `count` frames of `size` allocated and freed on the calling thread.
std::uint64_t system_allocations_for(std::size_t size, std::size_t count) {
  const auto before = shoal::this_thread_frame_stats().system_allocations;
  std::vector<void*> frames;
  frames.reserve(count);
  for (std::size_t i = 0; i < count; ++i) frames.push_back(shoal::frame_allocate(size));
  for (void* f : frames) shoal::frame_deallocate(f, size);
  return shoal::this_thread_frame_stats().system_allocations - before;
}

TEST(Preheat, FillsEveryWorkersCacheAndTheCallersSoTheFirstFramesCostNoMalloc) {
  if (!shoal::frame_recycling_enabled()) GTEST_SKIP() << "ASan builds use the system allocator";
  running_pool p(2);
  shoal::sync_wait(shoal::preheat(p.pool, {.frames_per_class = 32, .up_to_bytes = 1024}));
  for (std::size_t k = 0; k < p.pool.size(); ++k) {
    auto f = shoal::spawn_future_on(p.pool, k, [] { return system_allocations_for(1024, 32); });
    f.wait();
    EXPECT_EQ(f.value(), 0U) << "worker " << k;
  }
  EXPECT_EQ(system_allocations_for(960, 32), 0U) << "the awaiting thread";
}

}  // namespace
