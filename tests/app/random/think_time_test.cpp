// SPDX-License-Identifier: Apache-2.0
// Think times (clause 5.2.5.4): negative exponential, clamped at 10 x the mean.
#include "random/think_time.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <vector>

#include "random/rng.hpp"

namespace {

using tpcc::random::rng;
using tpcc::random::think_time;

constexpr double mean_seconds = 5.0;
constexpr int draws = 1000000;

std::vector<double> draw_seconds(std::uint64_t seed) {
  rng r{seed};
  std::vector<double> out;
  out.reserve(draws);
  for (int i = 0; i < draws; ++i) {
    out.push_back(std::chrono::duration<double>(think_time(r, mean_seconds)).count());
  }
  return out;
}

// E[min(X, c)] = integral over [0, c] of P(X > t) dt = mean x (1 - e^(-c / mean)); with
// c = 10 x mean that is mean x (1 - e^-10).
TEST(random_think_time, MeanMatchesTheClampedExponentialWithinOnePercent) {
  const auto seconds = draw_seconds(401);
  double sum = 0;
  for (const double s : seconds) sum += s;
  const double expected = mean_seconds * (1.0 - std::exp(-10.0));
  EXPECT_NEAR(sum / draws, expected, 0.01 * expected);
}

TEST(random_think_time, NeverNegativeAndNeverAboveTenTimesTheMean) {
  const auto seconds = draw_seconds(403);
  EXPECT_GE(*std::min_element(seconds.begin(), seconds.end()), 0.0);
  EXPECT_LE(*std::max_element(seconds.begin(), seconds.end()), 10 * mean_seconds);
}

// Shape, not only the mean (a uniform draw on [0, 2 x mean] has the same mean): P(X > mean)
// is e^-1, the median is mean x ln 2, and about e^-10 x 10^6 (45) draws hit the clamp.
TEST(random_think_time, ShapeIsExponentialWithTheTailClamped) {
  auto seconds = draw_seconds(405);
  const auto above_mean =
      std::count_if(seconds.begin(), seconds.end(), [](double s) { return s > mean_seconds; });
  EXPECT_NEAR(static_cast<double>(above_mean) / draws, std::exp(-1.0), 0.003);
  const auto clamped = std::count_if(seconds.begin(), seconds.end(),
                                     [](double s) { return s >= 10 * mean_seconds; });
  EXPECT_GE(clamped, 20);
  EXPECT_LE(clamped, 80);
  auto middle = seconds.begin() + draws / 2;
  std::nth_element(seconds.begin(), middle, seconds.end());
  EXPECT_NEAR(*middle, mean_seconds * std::log(2.0), 0.01 * mean_seconds);
}

TEST(random_think_time, ZeroMeanGivesZero) {
  rng r{407};
  EXPECT_EQ(think_time(r, 0.0), std::chrono::nanoseconds{0});
}

}  // namespace
