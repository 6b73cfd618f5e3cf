// app/tpcc/report/confidence.cpp: Wilson and normal intervals (see confidence.hpp).
#include "report/confidence.hpp"

#include <algorithm>
#include <cmath>

namespace tpcc::report {

interval wilson(std::uint64_t part, std::uint64_t whole) noexcept {
  if (whole == 0) return {0.0, 1.0};
  const double n = static_cast<double>(whole);
  const double p = static_cast<double>(part) / n;
  const double z2 = z_verdict * z_verdict;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z_verdict * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n);
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

interval mean_interval(double mean, double sd, std::uint64_t n) noexcept {
  if (n == 0) return {mean, mean};
  const double half = z_verdict * sd / std::sqrt(static_cast<double>(n));
  return {mean - half, mean + half};
}

judgement judge_range(double value, interval ci, double low, double high) noexcept {
  if (value >= low && value <= high) return judgement::pass;
  if (ci.high < low || ci.low > high) return judgement::fail;
  return judgement::inconclusive;
}

}  // namespace tpcc::report
