// SPDX-License-Identifier: Apache-2.0
// gate on the manual scheduler: admission until closed, close waits for what is in flight,
// cancellation of the wait.
#include "shoal/gate.hpp"

#include <gtest/gtest.h>

#include <stop_token>
#include <utility>

#include "shoal/stop.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using shoal::task;
using shoal::testing::manual_scheduler;

task<bool> close_gate(shoal::gate& g) { co_return co_await g.close(); }

TEST(Gate, AdmitsWorkUntilClosedThenAdmitsNothing) {
  manual_scheduler sched;
  shoal::gate g;
  shoal::gate_token a = g.enter();
  EXPECT_TRUE(a);
  EXPECT_EQ(g.in_flight(), 1u);
  auto closing = sched.spawn(close_gate(g));
  sched.run_all();
  EXPECT_TRUE(g.is_closed());
  EXPECT_FALSE(g.enter()) << "closed: no admission";
  EXPECT_EQ(g.in_flight(), 1u);
  a.reset();
  sched.run_all();
  EXPECT_TRUE(closing.get());
}

TEST(Gate, CloseWaitsUntilTheLastTokenLeavesAndResumesOnItsOwnExecutor) {
  manual_scheduler sched;
  shoal::gate g;
  shoal::gate_token a = g.enter();
  shoal::gate_token b = g.enter();
  auto closing = sched.spawn(close_gate(g));
  auto also_closing = sched.spawn(close_gate(g));
  sched.run_all();
  a.reset();
  sched.run_all();
  EXPECT_FALSE(closing.done()) << "one still inside";
  shoal::gate_token moved = std::move(b);
  EXPECT_FALSE(b);  // NOLINT(bugprone-use-after-move): moved-from tokens are empty
  EXPECT_EQ(g.in_flight(), 1u);
  moved.reset();
  EXPECT_EQ(sched.ready_count(), 2u) << "woken, not run inline by the last to leave";
  sched.run_all();
  EXPECT_TRUE(closing.get());
  EXPECT_TRUE(also_closing.get());
  EXPECT_EQ(g.in_flight(), 0u);
}

TEST(Gate, CloseWithNothingInFlightCompletesAtOnce) {
  manual_scheduler sched;
  shoal::gate g;
  auto closing = sched.spawn(close_gate(g));
  EXPECT_EQ(sched.run_all(), 1u);
  EXPECT_TRUE(closing.get());
}

TEST(Gate, AStoppedCloseReturnsFalseButTheGateStaysClosed) {
  manual_scheduler sched;
  shoal::gate g;
  shoal::gate_token inside = g.enter();
  std::stop_source source;
  auto closing = sched.spawn(shoal::with_stop_token(source.get_token(), close_gate(g)));
  sched.run_all();
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(closing.done());
  EXPECT_FALSE(closing.get());
  EXPECT_TRUE(g.is_closed());
  EXPECT_FALSE(g.enter());
  EXPECT_EQ(g.in_flight(), 1u);
  inside.reset();
  EXPECT_EQ(sched.ready_count(), 0u) << "the stopped closer is gone";
}

TEST(Gate, ACloseStoppedBeforeItsAwaitStillClosesTheGate) {
  manual_scheduler sched;
  shoal::gate g;
  std::stop_source source;
  source.request_stop();
  auto closing = sched.spawn(shoal::with_stop_token(source.get_token(), close_gate(g)));
  sched.run_all();
  EXPECT_FALSE(closing.get());
  EXPECT_TRUE(g.is_closed());
}

}  // namespace
