// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run_result/ch_result.hpp: what CH-benCHmark's analytic streams measured in a run.
//
// What: per query (1..22) how many completed inside the measurement interval, how many failed
// (in any phase: run/analytic.hpp), how many the run's end cancelled (whenever), their latencies
// (completed ones only, the app's histogram), and the row count of the last completed execution;
// then the totals and the queries-per-hour figure (completed queries x 3600 / measured seconds: the
// paper's QphH-like rate, docs/tpcc/ch-benchmark.md). Empty (streams == 0) in a TPC-C run.
// `series`: the analytic side over time, cut at the run's interval cuts (run/ch_series.hpp).
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

// One interval of the run's series (the same cuts as the transactions'): the queries that ended
// in it, in every phase (not only the measurement interval, unlike the totals), and the p90 of
// the completed ones' latency (us, a bucket's upper edge; 0 when none completed).
struct ch_interval {
  double start_seconds = 0, end_seconds = 0;  // since the terminals started
  std::uint64_t completed = 0, failed = 0, cancelled = 0;
  std::uint64_t p90_us = 0;
};

struct ch_totals {
  std::int64_t streams = 0;  // --analytic-streams; 0: none ran
  // Live figures only (the metrics endpoint; never written): the streams running now, fewer
  // than `streams` in a --schedule step with streams=N; -1: not known (a result read back).
  std::int64_t active_streams = -1;
  // index = query number - 1; on the heap: 22 histograms would make every run_result, a
  // value tests and merge keep several of on the stack, hundreds of KiB larger.
  std::vector<ch_query_totals> queries = std::vector<ch_query_totals>(ch_query_count);
  // Every interval of the run, in order; empty while the run goes on and in results written
  // before it was recorded. In a merged result, the shards' on one axis (report/merge_ch.hpp).
  std::vector<ch_interval> series;
  // Merged: each interval's p90_us is the largest of the shards' (an upper bound of the
  // merged p90, not it: the series keeps no histograms).
  bool series_p90_max_of_shards = false;

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
