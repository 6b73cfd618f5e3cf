// SPDX-License-Identifier: Apache-2.0
// shoal::fiber on a real 2-worker pool (run under TSan in CI): many fibers awaiting sleeps,
// tasks, yields and events completed from other threads; bound fibers staying on their worker;
// migrating fibers; pool shutdown with fibers suspended.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <vector>

#include "shoal/async_event.hpp"
#include "shoal/executor.hpp"
#include "shoal/fiber.hpp"
#include "shoal/sleep.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/yield.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::running_pool;

task<int> add_one(int x) {
  co_await shoal::yield();
  co_return x + 1;
}

// What many fibers do: plain calls that await tasks, yields and short sleeps.
int fiber_work(int seed, int rounds) {
  int value = seed;
  for (int r = 0; r < rounds; ++r) {
    value = shoal::await(add_one(value));
    shoal::await(shoal::yield());
    if (r % 8 == 0) shoal::await(shoal::sleep_for(100us));
  }
  return value;
}

TEST(FiberStress, ThousandsOfFibersOnTwoWorkersAllFinishWithTheirValues) {
  constexpr int fibers = 2000;
  constexpr int rounds = 20;
  std::atomic<long> sum{0};
  std::atomic<int> finished{0};
  {
    running_pool p(2);
    for (int i = 0; i < fibers; ++i) {
      p.pool.spawn(shoal::fiber([&sum, &finished, i] {
        sum.fetch_add(fiber_work(i, rounds), std::memory_order_relaxed);
        finished.fetch_add(1, std::memory_order_relaxed);
      }));
    }
  }  // stop waits for every fiber: each one's awaits complete by themselves
  EXPECT_EQ(finished.load(), fibers);
  const long expected = static_cast<long>(fibers) * (fibers - 1) / 2 + long{fibers} * rounds;
  EXPECT_EQ(sum.load(), expected);
  EXPECT_EQ(shoal::fiber_stacks().live, 0U);
}

TEST(FiberStress, ABoundFiberAlwaysResumesOnItsWorker) {
  constexpr int fibers = 64;
  constexpr int rounds = 200;
  std::atomic<int> moved{0};
  std::atomic<int> finished{0};
  shoal::async_event go;
  {
    running_pool p(2);
    for (int i = 0; i < fibers; ++i) {
      p.pool.spawn(shoal::fiber([&] {
        const shoal::executor* home = shoal::executor::current();
        static_cast<void>(shoal::await(go.wait()));  // set() from the test's thread
        for (int r = 0; r < rounds; ++r) {
          if (shoal::executor::current() != home) moved.fetch_add(1, std::memory_order_relaxed);
          shoal::await(add_one(r));
          shoal::await(shoal::yield());
        }
        if (shoal::executor::current() != home) moved.fetch_add(1, std::memory_order_relaxed);
        finished.fetch_add(1, std::memory_order_relaxed);
      }));
    }
    std::this_thread::sleep_for(10ms);
    go.set();
  }
  EXPECT_EQ(finished.load(), fibers);
  EXPECT_EQ(moved.load(), 0) << "a bound fiber resumed on another worker";
}

TEST(FiberStress, MigratingFibersMayChangeWorkersAndStillFinish) {
  constexpr int fibers = 256;
  std::atomic<long> sum{0};
  {
    running_pool p(2);
    for (int i = 0; i < fibers; ++i) {
      p.pool.spawn(
          shoal::fiber([&sum, i] { sum.fetch_add(fiber_work(i, 40)); }, {.migrate = true}));
    }
  }
  EXPECT_EQ(sum.load(), static_cast<long>(fibers) * (fibers - 1) / 2 + long{fibers} * 40);
}

TEST(FiberStress, PoolStopRefusesWhileFibersWaitForeverThenStopsOnceTheyAreCancelled) {
  constexpr int fibers = 100;
  std::stop_source source;
  std::atomic<int> cancelled{0};
  shoal::async_event never;
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  for (int i = 0; i < fibers; ++i) {
    auto body = [&] {
      if (!shoal::await(never.wait())) cancelled.fetch_add(1, std::memory_order_relaxed);
    };
    pool.spawn(shoal::fiber(body), source.get_token());
  }
  // Every fiber suspended on an event nobody sets: stop refuses and the pool keeps running.
  EXPECT_THROW(shoal::sync_wait(pool.stop()), std::logic_error);
  EXPECT_EQ(shoal::fiber_stacks().live, static_cast<std::size_t>(fibers));
  source.request_stop();
  shoal::sync_wait(pool.stop());
  EXPECT_EQ(cancelled.load(), fibers);
  EXPECT_EQ(shoal::fiber_stacks().live, 0U);
}

TEST(FiberStress, PoolStopWaitsForFibersThatAreSleeping) {
  std::atomic<int> woke{0};
  {
    running_pool p(2);
    for (int i = 0; i < 200; ++i) {
      p.pool.spawn(shoal::fiber([&] {
        if (shoal::await(shoal::sleep_for(20ms))) woke.fetch_add(1, std::memory_order_relaxed);
      }));
    }
  }
  EXPECT_EQ(woke.load(), 200);
}

TEST(FiberStress, TasksOnThePoolAwaitFibersAndFibersAwaitTasks) {
  constexpr int chains = 500;
  std::atomic<long> sum{0};
  {
    running_pool p(2);
    for (int i = 0; i < chains; ++i) {
      p.pool.spawn([](std::atomic<long>& out, int x) -> task<> {
        const int v = co_await shoal::fiber([x] { return shoal::await(add_one(x)) * 2; });
        out.fetch_add(v, std::memory_order_relaxed);
      }(sum, i));
    }
  }
  EXPECT_EQ(sum.load(), 2L * (static_cast<long>(chains) * (chains - 1) / 2 + chains));
}

}  // namespace
