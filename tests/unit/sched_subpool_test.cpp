// SPDX-License-Identifier: Apache-2.0
// shoal::subpool: a capacity capping how many of its jobs are in progress, priorities deciding
// who goes in when a slot frees, and the starvation rule (issue 17).
#include "shoal/subpool.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <semaphore>
#include <thread>
#include <vector>

#include "shoal/sleep.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::priority;
using shoal::subpool;
using shoal::task;
using shoal::testing::eventually;
using shoal::testing::running_pool;

TEST(Subpool, ACapacityOfZeroMeansThePoolsWorkerCount) {
  running_pool p(2);
  subpool s(p.pool, {.name = "intensive"});
  EXPECT_EQ(s.capacity(), 2u);
  EXPECT_EQ(s.name(), "intensive");
}

TEST(Subpool, CapacityCapsHowManyJobsAreInProgressAtOnce) {
  running_pool p(2);
  subpool io(p.pool, {.name = "io", .capacity = 3});
  std::atomic<int> in_progress{0};
  std::atomic<int> most{0};
  std::atomic<int> left{24};
  std::binary_semaphore done{0};
  for (int i = 0; i < 24; ++i) {
    io.spawn([](std::atomic<int>& now, std::atomic<int>& peak, std::atomic<int>& rest,
                std::binary_semaphore& all) -> task<> {
      const int n = now.fetch_add(1) + 1;
      int seen = peak.load();
      while (seen < n && !peak.compare_exchange_weak(seen, n)) {
      }
      co_await shoal::sleep_for(1ms);  // suspended, still holding its slot
      now.fetch_sub(1);
      if (rest.fetch_sub(1) == 1) all.release();
    }(in_progress, most, left, done));
  }
  done.acquire();
  EXPECT_LE(most.load(), 3);
  EXPECT_GE(most.load(), 1);
  EXPECT_TRUE(eventually([&] { return io.running() == 0; }));
}

// Holds the only slot of `s` from a coroutine on the pool until `go` is released.
struct slot_holder {
  std::binary_semaphore go{0};
  std::binary_semaphore held{0};
  task<> hold(subpool& s) {
    auto slot = co_await s.enter();
    held.release();
    go.acquire();  // blocks this worker briefly; the pool has another
  }
};

// Queues one job per priority in `order` behind a held slot, then frees it; returns the order in
// which they ran.
std::vector<int> admission_order(std::size_t limit, const std::vector<priority>& order) {
  running_pool p(2);
  subpool s(p.pool, {.name = "one", .capacity = 1, .starvation_limit = limit});
  slot_holder holder;
  p.pool.spawn(holder.hold(s));
  holder.held.acquire();
  std::mutex m;
  std::vector<int> ran;
  std::atomic<int> left{static_cast<int>(order.size())};
  std::binary_semaphore done{0};
  for (std::size_t i = 0; i < order.size(); ++i) {
    s.spawn(
        [](int id, std::mutex& mu, std::vector<int>& log, std::atomic<int>& rest,
           std::binary_semaphore& all) -> task<> {
          {
            const std::lock_guard lock(mu);
            log.push_back(id);
          }
          if (rest.fetch_sub(1) == 1) all.release();
          co_return;
        }(static_cast<int>(i), m, ran, left, done),
        order[i]);
    EXPECT_TRUE(eventually([&] { return s.waiting() == i + 1; }));  // queued in this order
  }
  holder.go.release();
  done.acquire();
  return ran;
}

TEST(Subpool, AFreedSlotGoesToTheHighestPriorityThenTheOldest) {
  const auto ran = admission_order(100, {priority::low, priority::high, priority::background,
                                         priority::regular, priority::high});
  EXPECT_EQ(ran, (std::vector<int>{1, 4, 3, 0, 2}));
}

TEST(Subpool, AWaiterThatWatchedTheStarvationLimitOfAdmissionsGoesNext) {
  // background first, then five high ones: after two admissions the background one goes.
  const auto ran = admission_order(2, {priority::background, priority::high, priority::high,
                                       priority::high, priority::high, priority::high});
  EXPECT_EQ(ran, (std::vector<int>{1, 2, 0, 3, 4, 5}));
}

TEST(Subpool, EmergencyIsAdmittedAtOnceEvenBeyondTheCapacity) {
  running_pool p(2);
  subpool s(p.pool, {.name = "one", .capacity = 1});
  slot_holder holder;
  p.pool.spawn(holder.hold(s));
  holder.held.acquire();
  auto body = [&]() -> task<std::size_t> {
    auto slot = co_await s.enter(priority::emergency);
    co_return s.running();
  };
  EXPECT_EQ(shoal::sync_wait(body()), 2u);
  holder.go.release();
  EXPECT_TRUE(eventually([&] { return s.running() == 0; }));
}

TEST(Subpool, ASlotResetEarlyLetsTheNextJobIn) {
  running_pool p(1);
  subpool s(p.pool, {.name = "one", .capacity = 1});
  auto body = [&]() -> task<int> {
    auto first = co_await s.enter();
    first.reset();
    auto second = co_await s.enter();  // would wait forever were the first slot still held
    co_return second ? 1 : 0;
  };
  EXPECT_EQ(shoal::sync_wait(body()), 1);
}

}  // namespace
