// SPDX-License-Identifier: Apache-2.0
// async_event on the manual scheduler: set wakes every waiter on its own executor, reset, and
// every order of a stop with a set.
#include "shoal/async_event.hpp"

#include <gtest/gtest.h>

#include <stop_token>

#include "shoal/stop.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using shoal::task;
using shoal::testing::manual_scheduler;

task<bool> wait_for(shoal::async_event& ev) { co_return co_await ev.wait(); }

TEST(AsyncEvent, WaitingOnASetEventContinuesAtOnce) {
  manual_scheduler sched;
  shoal::async_event ev(true);
  auto w = sched.spawn(wait_for(ev));
  EXPECT_EQ(sched.run_all(), 1u);
  ASSERT_TRUE(w.done());
  EXPECT_TRUE(w.get());
}

TEST(AsyncEvent, SetWakesEveryWaiterWithoutRunningThemInline) {
  manual_scheduler sched;
  shoal::async_event ev;
  auto a = sched.spawn(wait_for(ev));
  auto b = sched.spawn(wait_for(ev));
  auto c = sched.spawn(wait_for(ev));
  sched.run_all();
  EXPECT_FALSE(a.done() || b.done() || c.done());
  ev.set();
  EXPECT_TRUE(ev.is_set());
  EXPECT_EQ(sched.ready_count(), 3u);
  EXPECT_FALSE(a.done());
  sched.run_all();
  ASSERT_TRUE(a.done() && b.done() && c.done());
  EXPECT_TRUE(a.get() && b.get() && c.get());
}

TEST(AsyncEvent, AResetAfterTheSetDoesNotTakeTheWakeUpBack) {
  manual_scheduler sched;
  shoal::async_event ev;
  auto w = sched.spawn(wait_for(ev));
  sched.run_all();
  ev.set();
  ev.reset();
  sched.run_all();
  ASSERT_TRUE(w.done());
  EXPECT_TRUE(w.get());
  EXPECT_FALSE(ev.is_set());
}

TEST(AsyncEvent, AWaitAfterResetSuspendsUntilTheNextSet) {
  manual_scheduler sched;
  shoal::async_event ev(true);
  ev.reset();
  auto w = sched.spawn(wait_for(ev));
  sched.run_all();
  EXPECT_FALSE(w.done());
  ev.set();
  ev.set();  // a second set changes nothing
  sched.run_all();
  ASSERT_TRUE(w.done());
  EXPECT_TRUE(w.get());
}

TEST(AsyncEvent, StopBeforeWaitingReturnsFalseEvenWhenSet) {
  manual_scheduler sched;
  shoal::async_event ev(true);
  std::stop_source source;
  source.request_stop();
  auto w = sched.spawn(shoal::with_stop_token(source.get_token(), wait_for(ev)));
  sched.run_all();
  ASSERT_TRUE(w.done());
  EXPECT_FALSE(w.get());
}

TEST(AsyncEvent, StopWhileWaitingWakesOnlyThatWaiterWithFalse) {
  manual_scheduler sched;
  shoal::async_event ev;
  std::stop_source source;
  auto stopped = sched.spawn(shoal::with_stop_token(source.get_token(), wait_for(ev)));
  auto other = sched.spawn(wait_for(ev));
  sched.run_all();
  source.request_stop();
  EXPECT_EQ(sched.ready_count(), 1u);
  sched.run_all();
  ASSERT_TRUE(stopped.done());
  EXPECT_FALSE(stopped.get());
  EXPECT_FALSE(other.done());
  ev.set();
  sched.run_all();
  ASSERT_TRUE(other.done());
  EXPECT_TRUE(other.get());
}

TEST(AsyncEvent, ASetThatComesBeforeTheStopWins) {
  manual_scheduler sched;
  shoal::async_event ev;
  std::stop_source source;
  auto w = sched.spawn(shoal::with_stop_token(source.get_token(), wait_for(ev)));
  sched.run_all();
  ev.set();
  source.request_stop();
  EXPECT_EQ(sched.ready_count(), 1u) << "woken once, not twice";
  sched.run_all();
  ASSERT_TRUE(w.done());
  EXPECT_TRUE(w.get());
}

TEST(AsyncEvent, AStopThatComesBeforeTheSetWins) {
  manual_scheduler sched;
  shoal::async_event ev;
  std::stop_source source;
  auto w = sched.spawn(shoal::with_stop_token(source.get_token(), wait_for(ev)));
  sched.run_all();
  source.request_stop();
  ev.set();
  EXPECT_EQ(sched.ready_count(), 1u) << "woken once, not twice";
  sched.run_all();
  ASSERT_TRUE(w.done());
  EXPECT_FALSE(w.get());
}

}  // namespace
