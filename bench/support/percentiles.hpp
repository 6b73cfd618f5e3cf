// SPDX-License-Identifier: Apache-2.0
// bench/support/percentiles.hpp: latency samples reported as p50 / p99 / max user counters.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace shoal::bench {

// The sample at quantile q (0..1) of sorted `samples` (nearest rank); 0 when empty.
[[nodiscard]] inline std::int64_t quantile(const std::vector<std::int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const auto rank =
      static_cast<std::size_t>(std::llround(q * static_cast<double>(sorted.size() - 1)));
  return sorted[std::min(rank, sorted.size() - 1)];
}

// Sorts `samples` (in nanoseconds) and adds "p50_<unit>", "p99_<unit>" and "max_<unit>" to the
// state's counters, each divided by `ns_per_unit` (1 for ns, 1000 for us).
inline void report_percentiles(benchmark::State& state, std::vector<std::int64_t>& samples,
                               const std::string& unit, double ns_per_unit) {
  std::sort(samples.begin(), samples.end());
  auto in_unit = [&](std::int64_t ns) { return static_cast<double>(ns) / ns_per_unit; };
  state.counters["p50_" + unit] = in_unit(quantile(samples, 0.50));
  state.counters["p99_" + unit] = in_unit(quantile(samples, 0.99));
  state.counters["max_" + unit] = in_unit(samples.empty() ? 0 : samples.back());
}

}  // namespace shoal::bench
