// SPDX-License-Identifier: Apache-2.0
// tests/app/random/statistics.hpp: the goodness-of-fit helpers of the random-module tests.
//
// What: Pearson's chi-square statistic of observed counts against expected probabilities, a
// critical value far in the tail (about 5 standard deviations) so a correct generator with a
// fixed seed passes with certainty while a wrong distribution fails by orders of magnitude,
// and the exact probability mass of NURand (clause 2.1.6) by enumeration.
// Thread-safety: pure functions.
#pragma once

#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tpcc::random::testing {

// Sum over bins of (observed - expected)^2 / expected, expected = probability * total.
inline double chi_square(const std::vector<std::int64_t>& observed,
                         const std::vector<double>& probability) {
  double total = 0;
  for (const auto count : observed) total += static_cast<double>(count);
  double statistic = 0;
  for (std::size_t i = 0; i < observed.size(); ++i) {
    const double expected = probability[i] * total;
    if (expected == 0) {
      statistic += observed[i] == 0 ? 0.0 : 1e300;
      continue;
    }
    const double diff = static_cast<double>(observed[i]) - expected;
    statistic += diff * diff / expected;
  }
  return statistic;
}

// The chi-square quantile for `degrees` of freedom at z standard normal deviations
// (Wilson-Hilferty approximation): z = 5 is a one-in-3.5-million tail.
inline double chi_square_critical(double degrees, double z = 5.0) {
  const double h = 2.0 / (9.0 * degrees);
  const double root = 1.0 - h + z * std::sqrt(h);
  return degrees * root * root * root;
}

// The exact mass of NURand(a, x, y) with constant c, indexed by value - x, by enumerating
// every (random(0, a), random(x, y)) pair: (a + 1) x (y - x + 1) steps, for small cases.
inline std::vector<double> nurand_mass_by_pairs(std::int64_t a, std::int64_t x, std::int64_t y,
                                                std::int64_t c) {
  const auto width = static_cast<std::size_t>(y - x + 1);
  std::vector<double> mass(width, 0.0);
  const double pair = 1.0 / (static_cast<double>(a + 1) * static_cast<double>(width));
  for (std::int64_t i = 0; i <= a; ++i) {
    for (std::int64_t j = x; j <= y; ++j) {
      mass[static_cast<std::size_t>(((i | j) + c) % (y - x + 1))] += pair;
    }
  }
  return mass;
}

// The same mass when a + 1 is a power of two (255, 1023, 8191), fast enough for
// NURand(8191, 1, 100000): for each j, i | j keeps j's bits above a and sets, below a, a
// superset s of j's low bits; each superset comes from 2^popcount(j & a) values of i.
inline std::vector<double> nurand_mass(std::int64_t a, std::int64_t x, std::int64_t y,
                                       std::int64_t c) {
  const auto width = static_cast<std::size_t>(y - x + 1);
  std::vector<double> mass(width, 0.0);
  const double pair = 1.0 / (static_cast<double>(a + 1) * static_cast<double>(width));
  for (std::int64_t j = x; j <= y; ++j) {
    const std::int64_t low = j & a;
    const std::int64_t high = j & ~a;
    const double weight =
        pair *
        static_cast<double>(std::int64_t{1} << std::popcount(static_cast<std::uint64_t>(low)));
    for (std::int64_t s = low; s <= a; s = (s + 1) | low) {
      mass[static_cast<std::size_t>(((high | s) + c) % (y - x + 1))] += weight;
    }
  }
  return mass;
}

}  // namespace tpcc::random::testing
