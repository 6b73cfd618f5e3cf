// SPDX-License-Identifier: Apache-2.0
// Cancellation on the manual scheduler: implicit stop-token propagation, cancellable sleeps,
// with_stop_token, with_timeout / with_deadline, and every race of a stop with a sleep.
#include "shoal/stop.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <stop_token>

#include "shoal/sleep.hpp"
#include "shoal/timeout.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::manual_scheduler;

task<bool> sleep_10ms() { co_return co_await shoal::sleep_for(10ms); }

TEST(Stop, SleepStoppedBeforeItStartsReturnsFalseWithoutArmingATimer) {
  manual_scheduler sched;
  std::stop_source source;
  source.request_stop();
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), sleep_10ms()));
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_FALSE(s.get());
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(Stop, SleepStoppedWhileSleepingWakesAtOnceAndDisarmsItsTimer) {
  manual_scheduler sched;
  std::stop_source source;
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), sleep_10ms()));
  sched.run_all();
  EXPECT_EQ(sched.timer_count(), 1u);
  source.request_stop();
  EXPECT_EQ(sched.ready_count(), 1u);  // posted by the stop callback, not by time
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_FALSE(s.get());
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(Stop, StopAfterTheSleepCompletedChangesNothing) {
  manual_scheduler sched;
  std::stop_source source;
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), sleep_10ms()));
  sched.run_all();
  sched.advance(10ms);
  ASSERT_TRUE(s.done());
  source.request_stop();
  EXPECT_EQ(sched.ready_count(), 0u);
  EXPECT_TRUE(s.get());
}

TEST(Stop, AwaitedTasksInheritTheTokenImplicitly) {
  manual_scheduler sched;
  std::stop_source source;
  auto leaf = []() -> task<std::stop_token> { co_return shoal::current_stop_token(); };
  auto middle = [&]() -> task<std::stop_token> { co_return co_await leaf(); };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), middle()));
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get() == source.get_token());
  EXPECT_FALSE(shoal::current_stop_token().stop_possible()) << "leaked outside the coroutine";
}

TEST(Stop, StopReachesASleepSeveralAwaitsDeep) {
  manual_scheduler sched;
  std::stop_source source;
  auto deep = []() -> task<bool> { co_return co_await sleep_10ms(); };
  auto deeper = [&]() -> task<bool> { co_return co_await deep(); };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), deeper()));
  sched.run_all();
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_FALSE(s.get());
  EXPECT_TRUE(shoal::stop_requested() == false);
}

TEST(Stop, AnEmptyTokenShieldsAnAwaitFromItsCallersStop) {
  manual_scheduler sched;
  std::stop_source source;
  auto shielded = []() -> task<bool> {
    co_return co_await shoal::with_stop_token(std::stop_token{}, sleep_10ms());
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), shielded()));
  sched.run_all();
  source.request_stop();
  sched.run_all();
  EXPECT_FALSE(s.done());
  sched.advance(10ms);
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get());
}

TEST(Stop, PlainFunctionsSeeTheRunningCoroutinesToken) {
  manual_scheduler sched;
  std::stop_source source;
  auto body = [&]() -> task<bool> {
    co_await shoal::sleep_for(1ms);
    co_return shoal::current_stop_token() == source.get_token() && !shoal::stop_requested();
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), body()));
  sched.run_all();
  EXPECT_FALSE(shoal::current_stop_token().stop_possible());
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get());
}

TEST(Timeout, CancelsASlowOperationAtItsDeadline) {
  manual_scheduler sched;
  auto body = []() -> task<bool> {
    co_return co_await shoal::with_timeout(10ms, shoal::sleep_for(1s));
  };
  auto s = sched.spawn(body());
  sched.run_all();
  EXPECT_EQ(sched.timer_count(), 2u);
  sched.advance(9ms);
  EXPECT_FALSE(s.done());
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_FALSE(s.get());
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(Timeout, LetsAFastOperationFinishAndDisarmsItsTimer) {
  manual_scheduler sched;
  auto body = []() -> task<bool> {
    co_return co_await shoal::with_timeout(1s, shoal::sleep_for(10ms));
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(10ms);
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get());
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(Timeout, TheCallersStopReachesThroughIt) {
  manual_scheduler sched;
  std::stop_source source;
  auto body = []() -> task<bool> {
    co_return co_await shoal::with_deadline(shoal::now() + 1s, shoal::sleep_for(1s));
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), body()));
  sched.run_all();
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_FALSE(s.get());
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(Timeout, DeliversTheOperationsException) {
  manual_scheduler sched;
  auto failing = []() -> task<int> {
    co_await shoal::sleep_for(1ms);
    throw std::runtime_error("inner failure");
  };
  auto body = [&]() -> task<int> { co_return co_await shoal::with_timeout(1s, failing()); };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_THROW(s.get(), std::runtime_error);
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(Timeout, AnOperationThatIgnoresCancellationKeepsItsResult) {
  manual_scheduler sched;
  auto stubborn = []() -> task<int> {
    co_await shoal::with_stop_token(std::stop_token{}, shoal::sleep_for(50ms));
    co_return 7;
  };
  auto body = [&]() -> task<int> { co_return co_await shoal::with_timeout(10ms, stubborn()); };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(10ms);
  EXPECT_FALSE(s.done());
  sched.advance(40ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 7);
}

}  // namespace
