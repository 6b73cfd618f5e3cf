// SPDX-License-Identifier: Apache-2.0
// tests/app/stats/pace_windows_test.cpp: the --rate figures of each --schedule step's window
// (stats/pace_windows.hpp) on fixed time points: each start counted in the windows it falls in,
// a backlog that grows in one step only, an interrupt ending the step it came in; and two
// clients' figures added (pace_totals::add).
#include "stats/pace_windows.hpp"

#include <gtest/gtest.h>

#include <chrono>

namespace {

using namespace std::chrono_literals;
using tpcc::stats::clock;
using tpcc::stats::pace_totals;
using tpcc::stats::pace_windows;

const clock::time_point m0 = clock::time_point{} + 2h;  // the measurement: [m0, m0 + 30 s)

// Two steps of 15 s, each measured after a 3 s settle time.
pace_windows two_steps() {
  return pace_windows({m0, m0 + 30s}, {{m0 + 3s, m0 + 15s}, {m0 + 18s, m0 + 30s}});
}

TEST(pace_windows, EachStepCountsTheStartsOfItsOwnWindow) {
  pace_windows p = two_steps();
  for (int s = 0; s < 30; ++s) p.began(m0 + std::chrono::seconds(s), m0 + std::chrono::seconds(s));
  ASSERT_EQ(p.steps(), 2U);
  EXPECT_EQ(p.take(2).intended, 30U);
  const pace_totals first = p.take_step(0, 1);
  const pace_totals second = p.take_step(1, 3);
  EXPECT_EQ(first.intended, 12U);   // seconds 3 to 14
  EXPECT_EQ(second.intended, 12U);  // seconds 18 to 29
  EXPECT_DOUBLE_EQ(first.offered_tpm, 1);
  EXPECT_DOUBLE_EQ(second.offered_tpm, 3);
  EXPECT_DOUBLE_EQ(second.window_seconds, 12);
  EXPECT_FALSE(first.grew());
  EXPECT_FALSE(second.grew());
}

TEST(pace_windows, ABacklogGrowingInTheSecondStepIsThatStepsOnly) {
  pace_windows p = two_steps();
  for (int s = 0; s < 16; ++s) p.began(m0 + std::chrono::seconds(s), m0 + std::chrono::seconds(s));
  // From 16 s on, the starts begin half as fast as intended: 16 s at 16 s, 17 s at 18 s, ...
  for (int s = 16; s < 30; ++s) {
    p.began(m0 + std::chrono::seconds(s), m0 + std::chrono::seconds(16 + 2 * (s - 16)));
  }
  const pace_totals first = p.take_step(0, 1);
  const pace_totals second = p.take_step(1, 1);
  EXPECT_EQ(first.at_end.behind, 0U);
  EXPECT_FALSE(first.grew());
  EXPECT_EQ(second.at_start.behind, 1U);  // 18 s itself, begun at 20 s (17 s began at 18 s)
  EXPECT_DOUBLE_EQ(second.at_start.oldest_seconds, 0);
  EXPECT_EQ(second.at_end.behind, 6U);  // 24 s to 29 s, begun from 32 s on
  EXPECT_DOUBLE_EQ(second.at_end.oldest_seconds, 6);
  EXPECT_TRUE(second.grew());
  EXPECT_TRUE(p.take(1).grew()) << "and the whole window's";
}

TEST(pace_windows, AnInterruptEndsTheStepItCameIn) {
  pace_windows p = two_steps();
  p.close_window(m0 + 20s);
  p.never_began(m0 + 19s);
  EXPECT_EQ(p.window_end(), m0 + 20s);
  const pace_totals second = p.take_step(1, 1);
  EXPECT_DOUBLE_EQ(second.window_seconds, 2);
  EXPECT_EQ(second.at_end.behind, 1U);
  EXPECT_DOUBLE_EQ(second.at_end.oldest_seconds, 1);
  EXPECT_DOUBLE_EQ(p.take_step(0, 1).window_seconds, 12) << "the step before ended as planned";
}

TEST(pace_totals_add, CountsAndBacklogsAddTheLagsAreTheWorse) {
  pace_totals a;
  a.offered_tpm = 100;
  a.window_seconds = 10;
  a.intended = 5;
  a.began = 4;
  a.max_lag_seconds = 2;
  a.at_start = {1, 0.5};
  a.at_end = {3, 2};
  pace_totals b = a;
  b.window_seconds = 11;
  b.max_lag_seconds = 1;
  b.at_end = {7, 1.5};
  a.add(b);
  EXPECT_DOUBLE_EQ(a.offered_tpm, 200);
  EXPECT_DOUBLE_EQ(a.window_seconds, 11);
  EXPECT_EQ(a.intended, 10U);
  EXPECT_EQ(a.began, 8U);
  EXPECT_DOUBLE_EQ(a.max_lag_seconds, 2);
  EXPECT_EQ(a.at_start.behind, 2U);
  EXPECT_EQ(a.at_end.behind, 10U);
  EXPECT_DOUBLE_EQ(a.at_end.oldest_seconds, 2);
}

}  // namespace
