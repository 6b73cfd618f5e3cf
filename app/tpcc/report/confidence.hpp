// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/confidence.hpp: simultaneous confidence intervals for the verdict's ratios and
// means, and the three-way judgement built on them.
//
// What: a measured share or mean is a sample; a short run's sample can miss a limit by chance.
// The verdict therefore judges each such figure three ways:
//   pass          the measured value meets the limit;
//   fail          the whole confidence interval lies outside the limit (missing it by chance
//                 is unlikely, see below);
//   inconclusive  the value misses the limit but the interval reaches it: more data is needed.
// The intervals are simultaneous and wide: a FAIL that a correct client can get teaches users
// to ignore FAIL, so each interval is a 99.999 % one (z = 4.42): over the twenty-odd figures
// judged, a run whose every true figure is within its limits FAILs by chance in fewer than 1 in
// 2,000 runs (Bonferroni); tests/app/report/calibration_test.cpp measures it, with the power
// the width leaves (docs/tpcc/results.md, calibration).
// Shares use the Wilson score interval (sound for small counts and shares near 0 or 1) and,
// where a terminal's transactions are not independent draws (its deck, its own sequence), the
// cluster interval over terminal groups (a ratio estimator whose variance is taken from how
// the groups differ, Student t with groups - 1 degrees of freedom); the verdict takes the
// wider of the two. Means use the normal approximation, mean +- z sd / sqrt(n), with the sd the
// caller knows; the think-time mean, a sum of negative-exponential draws, its gamma interval.
// Method per item: docs/tpcc/results.md. Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <span>

namespace tpcc::report {

struct interval {
  double low = 0, high = 0;
};

// The normal quantile of a two-sided 99.999 % interval: 1 - 0.00001 / 2 = 0.999995.
inline constexpr double z_verdict = 4.417;

// The Wilson interval of the share part / whole, continuity-corrected; [0, 1] when whole is 0.
[[nodiscard]] interval wilson(std::uint64_t part, std::uint64_t whole) noexcept;
// The interval of a mean of n samples with standard deviation sd; the point when n is 0.
[[nodiscard]] interval mean_interval(double mean, double sd, std::uint64_t n) noexcept;

// Fewer groups with transactions than this, and the cluster interval is all of [0, 1]: the
// groups' spread says nothing yet.
inline constexpr std::size_t min_cluster_groups = 5;

// The Student t quantile of the verdict's two-sided level for `df` (>= 4) degrees of freedom:
// a table to 40, then the Cornish-Fisher expansion around z_verdict (within 0.1 % there).
[[nodiscard]] double t_verdict(double df) noexcept;

// The share sum(part) / sum(whole) over independent groups, part[g] of whole[g], with the
// cluster (ratio estimator) interval: [0, 1] with fewer than min_cluster_groups non-empty groups.
[[nodiscard]] interval cluster_share(std::span<const std::uint64_t> part,
                                     std::span<const std::uint64_t> whole) noexcept;

// The smallest interval holding both.
[[nodiscard]] interval widest(interval a, interval b) noexcept;

// The interval of rho in `ratio` = rho x Gamma(n, 1) / n: the mean of n independent
// negative-exponential draws over their expected mean (n may be fractional: an effective count).
// Never below 0; all of [0, inf) in effect when n is small.
[[nodiscard]] interval exponential_ratio(double ratio, double n) noexcept;

enum class judgement { pass, fail, inconclusive };

// `value` against [low, high], its interval `ci`.
[[nodiscard]] judgement judge_range(double value, interval ci, double low, double high) noexcept;

}  // namespace tpcc::report
