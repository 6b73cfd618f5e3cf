// SPDX-License-Identifier: Apache-2.0
// tests/app/run/schedule_windows_test.cpp: the windows a schedule's steps ran, as the run records
// them: back to back from the measurement interval's start, each without its settle time, the
// step an interrupt came in marked partial, the steps never begun left out.
#include "run/schedule.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

namespace {

using namespace std::chrono_literals;
using tpcc::run::rate_step;
using tpcc::run::step_windows;

const std::vector<rate_step> three_steps = {{1000, 4s}, {2000, 40s}, {3000, 4s}};

TEST(schedule_windows, StepsRunBackToBackWithoutTheirSettleTime) {
  const auto w = step_windows(three_steps, 2.5, 48);
  ASSERT_EQ(w.size(), 3U);
  EXPECT_DOUBLE_EQ(w[0].start_seconds, 2.5);
  EXPECT_DOUBLE_EQ(w[0].window_start, 3.5);  // a quarter of 4 s
  EXPECT_DOUBLE_EQ(w[0].end_seconds, 6.5);
  EXPECT_DOUBLE_EQ(w[1].window_start, 11.5);  // at most 5 s
  EXPECT_DOUBLE_EQ(w[2].rate_tpm, 3000);
  EXPECT_DOUBLE_EQ(w[2].end_seconds, 50.5);
  for (const auto& step : w) EXPECT_FALSE(step.partial);
}

// --warmup 0s: the measurement's start is taken a moment before the terminals start.
TEST(schedule_windows, AMeasurementStartJustBeforeTheTerminalsStartsTheFirstStepAtZero) {
  const auto w = step_windows(three_steps, -0.001, 48);
  ASSERT_EQ(w.size(), 3U);
  EXPECT_DOUBLE_EQ(w[0].start_seconds, 0);
  EXPECT_DOUBLE_EQ(w[0].window_start, -0.001 + tpcc::run::settle_seconds(4));
  EXPECT_DOUBLE_EQ(w[1].start_seconds, -0.001 + 4);
}

TEST(schedule_windows, AnInterruptMarksItsStepPartialAndDropsTheRest) {
  const auto w = step_windows(three_steps, 0, 10);
  ASSERT_EQ(w.size(), 2U);
  EXPECT_FALSE(w[0].partial);
  EXPECT_TRUE(w[1].partial);
  EXPECT_DOUBLE_EQ(w[1].end_seconds, 10);
  // Ended at a step's end: that step is whole and the next never began.
  const auto at_edge = step_windows(three_steps, 0, 4);
  ASSERT_EQ(at_edge.size(), 1U);
  EXPECT_FALSE(at_edge[0].partial);
  EXPECT_TRUE(step_windows(three_steps, 0, 0).empty());
  EXPECT_DOUBLE_EQ(tpcc::run::mean_rate(three_steps), (4000 + 80000 + 12000) / 48.0);
  EXPECT_DOUBLE_EQ(tpcc::run::peak_rate(three_steps), 3000);
}

}  // namespace
