// SPDX-License-Identifier: Apache-2.0
// tests/app/stats/pace_test.cpp: the --rate figures (stats/pace.hpp) on fixed time points:
// intended starts in the window, how late they began, the backlog at the window's start and
// end, and when it counts as grown.
#include "stats/pace.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace {

using namespace std::chrono_literals;
using tpcc::stats::clock;
using tpcc::stats::pace_recorder;
using tpcc::stats::pace_totals;

const clock::time_point t0 = clock::time_point{} + 1h;  // the window: [t0 + 10 s, t0 + 70 s)

pace_recorder window() { return pace_recorder(t0 + 10s, t0 + 70s); }

TEST(pace_recorder, OnTimeStartsLeaveNoBacklog) {
  pace_recorder p = window();
  for (int s = 0; s < 80; ++s) p.began(t0 + std::chrono::seconds(s), t0 + std::chrono::seconds(s));
  const pace_totals t = p.take(60);
  EXPECT_EQ(t.intended, 60U);  // seconds 10 to 69
  EXPECT_EQ(t.began, 60U);
  EXPECT_EQ(t.at_start.behind, 0U);
  EXPECT_EQ(t.at_end.behind, 0U);
  EXPECT_DOUBLE_EQ(t.max_lag_seconds, 0);
  EXPECT_DOUBLE_EQ(t.window_seconds, 60);
  EXPECT_DOUBLE_EQ(t.offered_tpm, 60);
  EXPECT_FALSE(t.grew());
}

TEST(pace_recorder, LateStartsAreBehindAtTheMomentsTheySpan) {
  pace_recorder p = window();
  p.began(t0 + 8s, t0 + 12s);   // behind at the start, 2 s late then
  p.began(t0 + 30s, t0 + 31s);  // late inside the window only
  p.began(t0 + 64s, t0 + 75s);  // behind at the end, 6 s late then
  const pace_totals t = p.take(3);
  EXPECT_EQ(t.at_start.behind, 1U);
  EXPECT_DOUBLE_EQ(t.at_start.oldest_seconds, 2);
  EXPECT_EQ(t.at_end.behind, 1U);
  EXPECT_DOUBLE_EQ(t.at_end.oldest_seconds, 6);
  EXPECT_EQ(t.intended, 2U);  // 8 s is before the window
  EXPECT_DOUBLE_EQ(t.max_lag_seconds, 11);
  EXPECT_TRUE(
      t.grew());  // 6 s at the end against 2 s at the start: more than max(1 s, 0.6 s) later
}

TEST(pace_recorder, StartsNeverBegunCountAsBehindAtTheEnd) {
  pace_recorder p = window();
  p.never_began(t0 + 20s);
  p.never_began(t0 + 60s);
  const pace_totals t = p.take(1);
  EXPECT_EQ(t.at_end.behind, 2U);
  EXPECT_DOUBLE_EQ(t.at_end.oldest_seconds, 50);
  EXPECT_EQ(t.at_start.behind, 0U);
  EXPECT_EQ(t.intended, 2U);
  EXPECT_EQ(t.began, 0U);
  EXPECT_TRUE(t.grew());
}

TEST(pace_recorder, AnInterruptMovesTheWindowsEnd) {
  pace_recorder p = window();
  p.close_window(t0 + 40s);
  p.close_window(t0 + 50s);  // later: ignored
  p.began(t0 + 35s, t0 + 45s);
  const pace_totals t = p.take(1);
  EXPECT_EQ(t.at_end.behind, 1U);
  EXPECT_DOUBLE_EQ(t.at_end.oldest_seconds, 5);
  EXPECT_DOUBLE_EQ(t.window_seconds, 30);
}

TEST(pace_recorder, ASteadyLagIsNotGrowth) {
  pace_totals t;
  t.window_seconds = 60;
  t.at_start.oldest_seconds = 4;
  t.at_end.oldest_seconds = 4.9;  // within max(1 s, 1 % of 60 s = 0.6 s)
  EXPECT_FALSE(t.grew());
  t.at_end.oldest_seconds = 5.1;
  EXPECT_TRUE(t.grew());
  t.window_seconds = 7200;  // a 2-hour window: 1 % is 72 s
  t.at_end.oldest_seconds = 70;
  EXPECT_FALSE(t.grew());
  t.at_end.oldest_seconds = 80;
  EXPECT_TRUE(t.grew());
}

}  // namespace
