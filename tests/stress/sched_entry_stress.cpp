// SPDX-License-Identifier: Apache-2.0
// The pool's entry path under real concurrency (issue 17): the lock-free global ring with many
// producers and consumers, frames recycled across threads through the allocator's depot, and
// avalanches of spawns from threads outside the pool (every job runs once, stop then succeeds).
#include "pool/mpmc_ring.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <semaphore>
#include <thread>
#include <vector>

#include "shoal/detail/root_task.hpp"
#include "shoal/executor.hpp"
#include "shoal/frame_allocator.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/yield.hpp"

namespace {

using shoal::detail::mpmc_ring;

void* as_handle(std::uintptr_t i) {
  // Fake entries: distinct non-null addresses are all the ring needs.
  return reinterpret_cast<void*>(i << 4);  // NOLINT(performance-no-int-to-ptr)
}
std::uintptr_t as_index(void* h) { return reinterpret_cast<std::uintptr_t>(h) >> 4; }

TEST(MpmcRing, IsFifoAndRefusesWhenFull) {
  mpmc_ring ring(4);
  for (std::uintptr_t i = 1; i <= 4; ++i) EXPECT_TRUE(ring.push(as_handle(i)));
  EXPECT_FALSE(ring.push(as_handle(5)));
  std::vector<std::uintptr_t> rest;
  auto first = ring.pop_some(3, [&](void* h) { rest.push_back(as_index(h)); });
  EXPECT_EQ(as_index(first), 1u);
  EXPECT_EQ(rest, (std::vector<std::uintptr_t>{2, 3}));
  EXPECT_TRUE(ring.push(as_handle(5)));
  EXPECT_EQ(as_index(ring.pop_some(1, [](void*) {})), 4u);
  EXPECT_EQ(as_index(ring.pop_some(8, [](void*) {})), 5u);
  EXPECT_TRUE(ring.empty());
  EXPECT_FALSE(ring.pop_some(8, [](void*) {}));
  void* const six[] = {as_handle(6), as_handle(7),  as_handle(8),
                       as_handle(9), as_handle(10), as_handle(11)};
  EXPECT_EQ(ring.push_some(six, 6), 4u);  // as many as there is room for
  EXPECT_EQ(ring.push_some(six + 4, 2), 0u);
  EXPECT_EQ(as_index(ring.pop_some(1, [](void*) {})), 6u);
}

TEST(MpmcRingStress, EveryItemIsTakenExactlyOnceByManyProducersAndConsumers) {
  constexpr std::uintptr_t per_producer = 20'000;
  constexpr std::uintptr_t producers = 3;
  mpmc_ring ring(64);  // small: producers meet a full ring often
  std::vector<std::atomic<int>> taken(producers * per_producer + 1);
  std::atomic<std::uintptr_t> left{producers * per_producer};
  auto take = [&](void* h) {
    taken[as_index(h)].fetch_add(1);
    left.fetch_sub(1);
  };
  auto consumer = [&] {
    while (left.load() != 0) {
      if (auto h = ring.pop_some(5, take)) take(h);
    }
  };
  auto producer = [&](std::uintptr_t p) {
    for (std::uintptr_t i = 1; i <= per_producer; ++i) {
      if (p % 2 == 1 && i + 3 <= per_producer) {  // odd producers push in batches of 4
        void* const four[] = {as_handle(p * per_producer + i), as_handle(p * per_producer + i + 1),
                              as_handle(p * per_producer + i + 2),
                              as_handle(p * per_producer + i + 3)};
        std::size_t done = 0;
        while (done < 4) {
          done += ring.push_some(four + done, 4 - done);
          if (done < 4) std::this_thread::yield();
        }
        i += 3;
        continue;
      }
      while (!ring.push(as_handle(p * per_producer + i))) std::this_thread::yield();
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(2 + producers);
  for (int c = 0; c < 2; ++c) threads.emplace_back(consumer);
  for (std::uintptr_t p = 0; p < producers; ++p) threads.emplace_back(producer, p);
  for (auto& t : threads) t.join();
  for (std::uintptr_t i = 1; i <= producers * per_producer; ++i) {
    ASSERT_EQ(taken[i].load(), 1) << "item " << i;
  }
}

// A producer allocates frames, a consumer thread frees them: once the consumer's cache is full,
// the frames come back to the producer through the depot instead of the system allocator.
TEST(FrameDepotStress, FramesFreedOnAnotherThreadAreRecycledByTheAllocatingThread) {
  if (!shoal::frame_recycling_enabled()) GTEST_SKIP() << "recycling is off (ASan build)";
  constexpr std::size_t frame = 192;
  constexpr int rounds = 200;
  constexpr int per_round = 1'000;
  std::vector<void*> batch;
  std::binary_semaphore handed{0};
  std::binary_semaphore freed{0};
  std::thread consumer([&] {
    for (int r = 0; r < rounds; ++r) {
      handed.acquire();
      for (void* p : batch) shoal::frame_deallocate(p, frame);
      freed.release();
    }
  });
  std::uint64_t late_system = 0;
  for (int r = 0; r < rounds; ++r) {
    const auto before = shoal::this_thread_frame_stats();
    batch.clear();
    for (int i = 0; i < per_round; ++i) batch.push_back(shoal::frame_allocate(frame));
    if (r >= rounds / 2)
      late_system +=
          shoal::this_thread_frame_stats().system_allocations - before.system_allocations;
    handed.release();
    freed.acquire();
  }
  consumer.join();
  // In the second half nearly every frame is a recycled one (a partial batch may be missing).
  EXPECT_LT(late_system, std::uint64_t{rounds / 2} * 64);
}

shoal::task<> count_down(std::atomic<std::int64_t>& left, std::binary_semaphore& done) {
  if (left.fetch_sub(1) == 1) done.release();
  co_return;
}

TEST(PoolEntryStress, AvalanchesFromThreadsOutsideThePoolRunEveryJobOnce) {
  constexpr std::int64_t per_thread = 100'000;
  constexpr int posters = 3;
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  for (int round = 0; round < 3; ++round) {
    std::atomic<std::int64_t> left{per_thread * posters};
    std::binary_semaphore done{0};
    std::vector<std::thread> threads;
    threads.reserve(posters);
    for (int t = 0; t < posters; ++t) {
      threads.emplace_back([&] {
        for (std::int64_t i = 0; i < per_thread; ++i) pool.spawn(count_down(left, done));
      });
    }
    for (auto& t : threads) t.join();
    done.acquire();
    EXPECT_EQ(left.load(), 0);
  }
  shoal::sync_wait(pool.stop());  // every spawned chain ended: the stop is not refused
}

// Bursts separated by idle gaps: every burst must wake the parked workers (no lost wake-up when
// a burst starts while they are going to sleep).
TEST(PoolEntryStress, BurstsAfterIdleGapsAreAllRun) {
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  for (int burst = 0; burst < 2'000; ++burst) {
    const std::int64_t n = 1 + burst % 7;
    std::atomic<std::int64_t> left{n};
    std::binary_semaphore done{0};
    for (std::int64_t i = 0; i < n; ++i) pool.spawn(count_down(left, done));
    done.acquire();
    if (burst % 100 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  shoal::sync_wait(pool.stop());
}

// A task spawned from outside the pool is queued as itself and gets its root from the worker
// that takes it (pool_state::runnable): the chain still has an environment of its own, so a
// binding made inside it holds for the rest of the chain.
shoal::task<> bind_then_yield(shoal::thread_pool& pool, std::atomic<int>& elsewhere,
                              std::atomic<std::int64_t>& left, std::binary_semaphore& done) {
  co_await pool.schedule_on(1);
  for (int i = 0; i < 20; ++i) {
    co_await shoal::yield();
    if (shoal::executor::current() != &pool.worker(1)) elsewhere.fetch_add(1);
  }
  if (left.fetch_sub(1) == 1) done.release();
}

TEST(PoolEntryStress, AChainSpawnedFromOutsideKeepsTheBindingItMakes) {
  constexpr std::int64_t chains = 2'000;
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  std::atomic<int> elsewhere{0};
  std::atomic<std::int64_t> left{chains};
  std::binary_semaphore done{0};
  for (std::int64_t i = 0; i < chains; ++i) {
    pool.spawn(bind_then_yield(pool, elsewhere, left, done));
  }
  done.acquire();
  EXPECT_EQ(elsewhere.load(), 0);
  shoal::sync_wait(pool.stop());
}

// The global queue holds both kinds of entry at once, past the ring into the overflow: tasks
// spawned from outside (made runnable by the worker taking them) and coroutines posted from
// outside, while the jobs spawn more from the workers (their roots made there). Every one runs
// once, and stop then finds nothing left.
shoal::task<> spawn_inside(shoal::thread_pool& pool, std::atomic<std::int64_t>& left,
                           std::binary_semaphore& done) {
  pool.spawn(count_down(left, done));
  if (left.fetch_sub(1) == 1) done.release();
  co_return;
}

TEST(PoolEntryStress, SpawnsAndPostsFromOutsideAndSpawnsFromWorkersShareTheQueue) {
  constexpr std::int64_t per_thread = 30'000;
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  for (int round = 0; round < 3; ++round) {
    // Four arrivals per index: spawn_inside and its child, a posted root, a spawned count_down.
    std::atomic<std::int64_t> left{4 * per_thread};
    std::binary_semaphore done{0};
    std::thread spawner([&] {
      for (std::int64_t i = 0; i < per_thread; ++i) pool.spawn(spawn_inside(pool, left, done));
    });
    std::thread poster([&] {
      // Coroutines posted from outside (thread_pool::post), next to the spawned tasks: each a
      // root that frees itself.
      for (std::int64_t i = 0; i < per_thread; ++i) {
        pool.post(shoal::detail::run_root<void>(count_down(left, done), nullptr)
                      .start_with(&shoal::detail::destroy_root, nullptr));
      }
    });
    for (std::int64_t i = 0; i < per_thread; ++i) pool.spawn(count_down(left, done));
    spawner.join();
    poster.join();
    done.acquire();
    EXPECT_EQ(left.load(), 0);
  }
  shoal::sync_wait(pool.stop());
}

}  // namespace
