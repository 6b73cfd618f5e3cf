// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/ch_series.hpp: CH-benCHmark's analytic side over time, cut at the run's cuts.
//
// What: ch_progress is what the analytic streams have ended so far, in every phase (monotonic
// counts and the completed queries' latency histogram: analytic_streams::progress()). A
// ch_series, told of each of the monitor's cuts (monitor::on_cut), reads the progress and keeps
// the difference from the previous cut as a ch_interval (run_result/ch_result.hpp): the queries
// completed, failed and cancelled in the interval and the p90 of the completed ones (the
// difference of the histograms, bucket by bucket). As the counts are monotonic, the intervals
// add up to the last progress read: nothing is lost or counted twice between cuts.
// Lifetime: one per run; `read` is called at each cut and must stay valid until the last one.
// Thread-safety: one caller at a time (the monitor's cuts are one after another; take() after
// the monitor's finish()).
#pragma once

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "run_result/ch_result.hpp"
#include "stats/histogram.hpp"

namespace tpcc::run {

// What the analytic streams ended so far, every phase.
struct ch_progress {
  std::uint64_t completed = 0, failed = 0, cancelled = 0;
  stats::histogram latency;  // of the completed ones
};

class ch_series {
 public:
  explicit ch_series(std::function<ch_progress()> read) : read_(std::move(read)) {}

  /// The interval from the previous cut (or 0 s) to `end_seconds` (since the terminals
  /// started): reads the progress and keeps its difference.
  void cut(double end_seconds);
  /// The intervals cut so far, in order (moved out).
  [[nodiscard]] std::vector<ch_interval> take() { return std::move(series_); }

 private:
  std::function<ch_progress()> read_;
  ch_progress last_;
  double last_end_ = 0;
  std::vector<ch_interval> series_;
};

}  // namespace tpcc::run
