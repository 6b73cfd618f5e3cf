// SPDX-License-Identifier: Apache-2.0
// tests/app/terminal/pace_test.cpp: --rate's pacing arithmetic (terminal/pace.hpp): the mean
// gap per terminal, exponential gaps of that mean, intended starts that never depend on when
// transactions end, and the lag of a late start, on fixed time points.
#include "terminal/pace.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>

namespace {

using namespace std::chrono_literals;
using tpcc::stats::clock;
using tpcc::terminal::draw_gap;
using tpcc::terminal::mean_gap;
using tpcc::terminal::paced_clock;
using tpcc::terminal::rate_pace;

TEST(pace, TheMeanGapIsTerminalsTimesSixtyOverTheRate) {
  EXPECT_EQ(mean_gap(60'000, 20), 20ms);  // 1,000 a second over 20 terminals: 50 each
  EXPECT_EQ(mean_gap(600, 1), 100ms);
  EXPECT_EQ(mean_gap(0, 10), 0ns);
  EXPECT_EQ(mean_gap(-5, 10), 0ns);
  EXPECT_EQ(mean_gap(1000, 0), 0ns);
}

TEST(pace, GapsAreExponentialWithTheMeanAsked) {
  tpcc::random::rng r(38);
  constexpr int n = 200'000;
  double sum = 0, squares = 0;
  int above_mean = 0;
  for (int i = 0; i < n; ++i) {
    const double g = std::chrono::duration<double, std::milli>(draw_gap(r, 20ms)).count();
    ASSERT_GE(g, 0.0);
    sum += g;
    squares += g * g;
    above_mean += g > 20.0 ? 1 : 0;
  }
  const double mean = sum / n;
  EXPECT_NEAR(mean, 20.0, 20.0 * 4 / std::sqrt(n));  // 4 standard errors
  // An exponential's standard deviation is its mean, and e^-1 of it lies above the mean.
  EXPECT_NEAR(std::sqrt(squares / n - mean * mean), 20.0, 0.3);
  EXPECT_NEAR(static_cast<double>(above_mean) / n, std::exp(-1.0), 0.005);
}

TEST(pace, IntendedStartsFollowTheScheduleNotTheCompletions) {
  tpcc::random::rng a(7), b(7);
  const clock::time_point t0{};
  paced_clock pace{t0};
  clock::time_point expected = t0;
  for (int i = 0; i < 100; ++i) {
    pace.advance(a, 10ms);
    expected += draw_gap(b, 10ms);
    EXPECT_EQ(pace.intended, expected);  // the same draws whatever the transactions took
  }
}

TEST(pace, AStartAfterItsIntendedTimeIsLateByTheDifference) {
  const clock::time_point t0{};
  const paced_clock pace{t0 + 5s};
  EXPECT_EQ(pace.lag(t0 + 4s), 0ns);  // early: it sleeps until then
  EXPECT_EQ(pace.lag(t0 + 5s), 0ns);
  EXPECT_EQ(pace.lag(t0 + 7500ms), 2500ms);
}

TEST(pace, TheRateCanBeChangedWhileRunning) {
  rate_pace pace;
  EXPECT_FALSE(pace.active());
  pace.set(6000, 10);
  EXPECT_TRUE(pace.active());
  EXPECT_EQ(pace.gap(), 100ms);
  pace.set(12000, 10);  // a step schedule's next step
  EXPECT_EQ(pace.gap(), 50ms);
}

}  // namespace
