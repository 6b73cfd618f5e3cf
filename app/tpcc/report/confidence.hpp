// app/tpcc/report/confidence.hpp: simultaneous 95 % confidence intervals for the verdict's ratios
// and means, and the three-way judgement built on them.
//
// What: a measured share or mean is a sample; a short run's sample can miss a limit by chance.
// The verdict therefore judges each such figure three ways:
//   pass          the measured value meets the limit;
//   fail          the whole confidence interval lies outside the limit (missing it by chance
//                 is unlikely, see below);
//   inconclusive  the value misses the limit but the interval reaches it: more data is needed.
// The intervals are simultaneous: the verdict judges about ten such figures, and a run whose
// every true figure is within its limits must not FAIL by chance on any one of them more
// than 5 % of the time. So each interval is a 99.5 % one (Bonferroni: 5 % shared among ten
// two-sided intervals, z = 3.02), and together they are a 95 % family.
// Shares use the Wilson score interval (sound for small counts and shares near 0 or 1);
// means use the normal approximation, mean +- z sd / sqrt(n), with the sd the caller knows
// (the distribution's, or the mean itself for the negative-exponential think times).
// Thread-safety: pure functions.
#pragma once

#include <cstdint>

namespace tpcc::report {

struct interval {
  double low = 0, high = 0;
};

// The normal quantile of a two-sided 99.5 % interval: 1 - 0.05 / 10 / 2 = 0.9975.
inline constexpr double z_verdict = 3.023;

// The Wilson interval of the share part / whole, continuity-corrected; [0, 1] when whole is 0.
[[nodiscard]] interval wilson(std::uint64_t part, std::uint64_t whole) noexcept;
// The interval of a mean of n samples with standard deviation sd; the point when n is 0.
[[nodiscard]] interval mean_interval(double mean, double sd, std::uint64_t n) noexcept;

enum class judgement { pass, fail, inconclusive };

// `value` against [low, high], its interval `ci`.
[[nodiscard]] judgement judge_range(double value, interval ci, double low, double high) noexcept;

}  // namespace tpcc::report
