// tests/app/random/statistics.hpp: the goodness-of-fit helpers of the random-module tests.
//
// What: Pearson's chi-square statistic of observed counts against expected probabilities, and
// a critical value far in the tail (about 5 standard deviations) so a correct generator with
// a fixed seed passes with certainty while a wrong distribution fails by orders of magnitude.
// Thread-safety: pure functions.
#pragma once

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

}  // namespace tpcc::random::testing
