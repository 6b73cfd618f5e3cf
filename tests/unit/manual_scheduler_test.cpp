// SPDX-License-Identifier: Apache-2.0
// The test support itself: ready work runs only when asked, in FIFO order unless seeded.
#include "support/manual_scheduler.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "shoal/yield.hpp"

namespace {

using shoal::task;
using shoal::testing::manual_scheduler;

TEST(ManualScheduler, RunsNothingUntilAsked) {
  manual_scheduler sched;
  bool ran = false;
  auto body = [&]() -> task<> {
    ran = true;
    co_return;
  };
  auto s = sched.spawn(body());
  EXPECT_FALSE(ran);
  EXPECT_EQ(sched.ready_count(), 1u);
  EXPECT_TRUE(sched.run_one());
  EXPECT_TRUE(ran);
  EXPECT_TRUE(s.done());
  EXPECT_FALSE(sched.run_one());
}

TEST(ManualScheduler, YieldInterleavesChainsInFifoOrder) {
  manual_scheduler sched;
  std::vector<int> trace;
  auto body = [&](int id) -> task<> {
    for (int i = 0; i < 3; ++i) {
      trace.push_back(id);
      co_await shoal::yield();
    }
  };
  auto a = sched.spawn(body(1));
  auto b = sched.spawn(body(2));
  sched.run_all();
  EXPECT_EQ(trace, (std::vector<int>{1, 2, 1, 2, 1, 2}));
  EXPECT_TRUE(a.done() && b.done());
}

TEST(ManualScheduler, ASeededSchedulerRunsEverythingInAnotherOrder) {
  manual_scheduler sched(42);
  std::vector<int> trace;
  auto body = [&](int id) -> task<> {
    for (int i = 0; i < 4; ++i) {
      trace.push_back(id);
      co_await shoal::yield();
    }
  };
  std::vector<shoal::testing::spawned<void>> all;
  all.reserve(4);
  for (int i = 0; i < 4; ++i) all.push_back(sched.spawn(body(i)));
  sched.run_all();
  EXPECT_EQ(trace.size(), 16u);
  std::vector<int> fifo;
  fifo.reserve(16);
  for (int r = 0; r < 4; ++r) {
    for (int i = 0; i < 4; ++i) fifo.push_back(i);
  }
  EXPECT_NE(trace, fifo);
}

TEST(ManualScheduler, ExceptionsReachTheSpawnedHandle) {
  manual_scheduler sched;
  auto body = []() -> task<int> {
    co_await shoal::yield();
    throw std::runtime_error("late failure");
  };
  auto s = sched.spawn(body());
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_THROW(s.get(), std::runtime_error);
}

}  // namespace
