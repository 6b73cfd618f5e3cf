// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_data.hpp: what the HTML report's charts show, computed from a run_result.
//
// What: the run's phase boundaries; the series as a timeline (completed transactions per
// minute and p50/p90/p99 response time per type), downsampled for drawing by merging runs of
// consecutive intervals (bucket counts add: percentiles of a merged group are exact, never
// averaged); and a type's percentile curve from its cumulative histogram. Works the same for
// one process's result and for a merged one. Thread-safety: pure functions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "report/html_chart.hpp"
#include "run_result/result.hpp"
#include "txn/kind.hpp"

namespace tpcc::report::html {

// Seconds since the terminals started: warm-up [0, warmup_end), measurement
// [warmup_end, measure_end), drain [measure_end, run_end).
struct phases {
  double warmup_end = 0, measure_end = 0, run_end = 0;
};
[[nodiscard]] phases phases_of(const run::run_result& r);

inline constexpr std::size_t max_points = 720;  // 12 minutes of 1 s intervals drawn one by one
inline constexpr std::array<double, 3> latency_fractions{0.5, 0.9, 0.99};

struct timeline {
  std::size_t intervals_per_point = 1;
  std::vector<double> seconds;  // the middle of each point's time range
  // Per type: committed + rolled back per minute, rated by the points' real length; the run's
  // final, partial interval, when shorter than half a point, is drawn as part of the point before
  // it (alone, a few transactions over a sliver of time would be a spike that sets the scale).
  std::array<std::vector<double>, txn::kind_count> per_minute;
  // Per type, per latency_fractions: response time in ms; NaN when nothing ended.
  std::array<std::array<std::vector<double>, latency_fractions.size()>, txn::kind_count> ms;
};
[[nodiscard]] timeline timeline_of(const std::vector<stats::interval_sample>& series,
                                   std::size_t points = max_points);

// The upper edge of the bucket holding `fraction` of the counts (stats::histogram's rule) over
// buckets that may repeat and come in any order; 0 when empty.
[[nodiscard]] std::uint64_t percentile(std::vector<std::pair<std::uint32_t, std::uint64_t>> buckets,
                                       double fraction);

// x: log10(1 / (1 - p)) (0 is p0, 2 is p99, 4 is p99.99), y: ms; up to the resolution the count
// allows (p99.999 at most).
[[nodiscard]] std::vector<point> percentile_curve(const stats::histogram& h);

}  // namespace tpcc::report::html
