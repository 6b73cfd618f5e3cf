// SPDX-License-Identifier: Apache-2.0
// Timers on the manual scheduler's fake clock: sleep_for, sleep_until, deadline, timer_heap.
#include "shoal/sleep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <random>
#include <stdexcept>
#include <vector>

#include "shoal/detail/timer_heap.hpp"
#include "shoal/sync_wait.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::manual_scheduler;

TEST(Sleep, ResumesAtItsDeadlineAndNotBefore) {
  manual_scheduler sched;
  auto sleeper = []() -> task<bool> { co_return co_await shoal::sleep_for(10ms); };
  auto s = sched.spawn(sleeper());
  sched.run_all();
  EXPECT_EQ(sched.timer_count(), 1u);
  sched.advance(9ms);
  EXPECT_FALSE(s.done());
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get());
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(Sleep, EqualDeadlinesResumeInTheOrderTheyWereArmed) {
  manual_scheduler sched;
  std::vector<int> order;
  auto sleeper = [&](int id) -> task<> {
    co_await shoal::sleep_for(5ms);
    order.push_back(id);
  };
  std::vector<shoal::testing::spawned<void>> all;
  all.reserve(5);
  for (int i = 0; i < 5; ++i) all.push_back(sched.spawn(sleeper(i)));
  sched.run_all();
  sched.advance(5ms);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3, 4}));
}

TEST(Sleep, ShorterSleepsResumeFirst) {
  manual_scheduler sched;
  std::vector<int> order;
  auto sleeper = [&](int ms) -> task<> {
    co_await shoal::sleep_for(std::chrono::milliseconds(ms));
    order.push_back(ms);
  };
  auto a = sched.spawn(sleeper(30));
  auto b = sched.spawn(sleeper(10));
  auto c = sched.spawn(sleeper(20));
  sched.run_all();
  sched.advance(15ms);
  EXPECT_EQ(order, (std::vector<int>{10}));
  sched.advance(15ms);
  EXPECT_EQ(order, (std::vector<int>{10, 20, 30}));
}

TEST(Sleep, SleepUntilAPastTimeResumesOnTheNextTimerPass) {
  manual_scheduler sched;
  auto sleeper = [&]() -> task<> { co_await shoal::sleep_until(sched.now() - 1s); };
  auto s = sched.spawn(sleeper());
  sched.run_all();
  EXPECT_FALSE(s.done());
  sched.advance(0ms);
  EXPECT_TRUE(s.done());
}

TEST(Sleep, OutsideAnyExecutorThrowsLogicError) {
  // A coroutine resumed by hand (no executor on this thread) cannot sleep.
  auto sleeper = []() -> task<> { co_await shoal::sleep_for(1ms); };
  auto bare = sleeper();
  auto h = bare.release();
  h.promise().continuation = std::noop_coroutine();
  EXPECT_EQ(shoal::executor::current(), nullptr);
  h.resume();
  ASSERT_TRUE(h.done());
  EXPECT_THROW(h.promise().result().take(), std::logic_error);
  h.destroy();
}

TEST(Deadline, ExpiredAndRemainingFollowTheExecutorsClock) {
  manual_scheduler sched;
  bool checked = false;
  auto body = [&]() -> task<> {
    const auto d = shoal::deadline::after(100ms);
    EXPECT_FALSE(d.expired());
    EXPECT_EQ(d.remaining(), 100ms);
    co_await shoal::sleep_for(40ms);
    EXPECT_EQ(d.remaining(), 60ms);
    co_await d;
    EXPECT_TRUE(d.expired());
    EXPECT_EQ(d.remaining(), 0ms);
    checked = true;
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(40ms);
  EXPECT_FALSE(s.done());
  sched.advance(60ms);
  EXPECT_TRUE(s.done());
  EXPECT_TRUE(checked);
}

TEST(Sleep, WorksUnderSyncWaitOnTheRealClock) {
  auto body = []() -> task<shoal::duration> {
    const auto start = shoal::clock::now();
    co_await shoal::sleep_for(5ms);
    co_return shoal::clock::now() - start;
  };
  EXPECT_GE(shoal::sync_wait(body()), 5ms);
}

TEST(TimerHeap, PopsInDeadlineOrderAndHonoursErase) {
  std::mt19937 rng(12345);
  std::vector<shoal::detail::timer_node> nodes(1000);
  shoal::detail::timer_heap heap;
  const shoal::time_point base{};
  for (auto& n : nodes) {
    n.deadline = base + std::chrono::microseconds(rng() % 500);
    heap.push(n);
  }
  std::vector<shoal::time_point> expected;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (i % 3 == 0) {
      EXPECT_TRUE(heap.erase(nodes[i]));
      EXPECT_FALSE(heap.erase(nodes[i]));
    } else {
      expected.push_back(nodes[i].deadline);
    }
  }
  std::sort(expected.begin(), expected.end());
  std::vector<shoal::time_point> got;
  while (auto* n = heap.pop_expired(base + std::chrono::hours(1))) got.push_back(n->deadline);
  EXPECT_EQ(got, expected);
  EXPECT_TRUE(heap.empty());
}

}  // namespace
