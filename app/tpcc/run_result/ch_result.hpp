// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run_result/ch_result.hpp: what CH-benCHmark's analytic streams measured in a run.
//
// What: per query (1..22) how many completed inside the measurement interval, how many failed
// (in any phase: run/analytic.hpp), how many the run's end cancelled (whenever), their latencies
// (completed ones only, the app's histogram), and the row count of the last completed execution;
// then the totals and the queries-per-hour figure (completed queries x 3600 / measured seconds: the
// paper's QphH-like rate, docs/tpcc/ch-benchmark.md). Empty (streams == 0) in a TPC-C run.
// Thread-safety: plain values.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "stats/histogram.hpp"

namespace tpcc::run {

struct ch_query_totals {
  std::uint64_t completed = 0;  // ended ok inside the measurement interval
  std::uint64_t failed = 0;     // ended with an error, any phase (not cancelled)
  std::uint64_t cancelled = 0;  // stopped by the run's end or Ctrl-C, in any phase
  stats::histogram latency;     // of the completed ones
  std::int64_t last_rows = -1;  // rows of the last completed execution; -1: none completed
};

inline constexpr std::size_t ch_query_count = 22;

struct ch_totals {
  std::int64_t streams = 0;  // --analytic-streams; 0: none ran
  // index = query number - 1; on the heap: 22 histograms would make every run_result, a
  // value tests and merge keep several of on the stack, hundreds of KiB larger.
  std::vector<ch_query_totals> queries = std::vector<ch_query_totals>(ch_query_count);

  [[nodiscard]] bool ran() const noexcept { return streams > 0; }
  [[nodiscard]] std::uint64_t completed() const noexcept {
    std::uint64_t n = 0;
    for (const ch_query_totals& q : queries) n += q.completed;
    return n;
  }
  [[nodiscard]] std::uint64_t failed() const noexcept {
    std::uint64_t n = 0;
    for (const ch_query_totals& q : queries) n += q.failed;
    return n;
  }
  [[nodiscard]] std::uint64_t cancelled() const noexcept {
    std::uint64_t n = 0;
    for (const ch_query_totals& q : queries) n += q.cancelled;
    return n;
  }
  // Completed queries per hour of the measured interval; 0 when nothing was measured.
  [[nodiscard]] double queries_per_hour(double measured_seconds) const noexcept {
    if (measured_seconds <= 0) return 0;
    return static_cast<double>(completed()) * 3600.0 / measured_seconds;
  }
};

}  // namespace tpcc::run
