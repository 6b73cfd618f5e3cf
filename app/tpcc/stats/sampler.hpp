// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/sampler.hpp: cutting the run's cumulative counts into the interval series.
//
// What: a sampler keeps the previous cumulative snapshot (recorder::take_all()) and turns each
// new one into an interval_sample: per transaction type the counts and the three latency
// histograms of the transactions that ended since the previous snapshot, bucket by bucket
// (sparse_histogram::difference). Because every counter is monotonic, the intervals of a run
// add up exactly to the last cumulative snapshot: nothing is lost or counted twice between
// intervals. An interval of the measurement phase holds what ended inside the measurement
// window and was counted since the previous measurement interval, any other what ended
// outside it and was counted since the previous other interval (recorder's `window` and
// `outside` parts). A cut that comes late at a window edge (a loaded machine) therefore
// moves records to the neighbouring interval but never drops one: the measurement intervals
// add up exactly to the window's totals once settle() has given the last of them the
// window's records still in flight at its cut. The client's own measurement (`client`) is
// left empty for the caller to fill.
// Lifetime: one per run. Thread-safety: a plain value (one owner).
#pragma once

#include <array>
#include <vector>

#include "stats/phase.hpp"
#include "stats/recorder.hpp"
#include "stats/series.hpp"

namespace tpcc::stats {

class sampler {
 public:
  // `baseline`: what had been counted when the series starts (usually nothing).
  explicit sampler(const cumulative& baseline = {}, double start_seconds = 0);

  // The interval from the previous call (or the start) to `end_seconds` (since the run
  // started), given the cumulative counts `now` at its end and the phase `in` then.
  [[nodiscard]] interval_sample next(const cumulative& now, double end_seconds, phase in);
  [[nodiscard]] double last_end_seconds() const noexcept { return last_end_; }
  // Once nothing records any more: the last measurement interval of `series` (this sampler's)
  // takes every window record since its start, `final` being the last cumulative counts.
  void settle(std::vector<interval_sample>& series, const cumulative& final) const;

 private:
  cumulative last_;
  std::array<kind_totals, txn::kind_count> measuring_base_;  // window at the last one's start
  double last_end_ = 0;
};

}  // namespace tpcc::stats
