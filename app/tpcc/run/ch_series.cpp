// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/ch_series.cpp: the analytic side's interval series (see ch_series.hpp).
#include "run/ch_series.hpp"

#include "stats/series.hpp"

namespace tpcc::run {

void ch_series::cut(double end_seconds) {
  const ch_progress now = read_();
  ch_interval i;
  i.start_seconds = last_end_;
  i.end_seconds = end_seconds;
  i.completed = now.completed - last_.completed;
  i.failed = now.failed - last_.failed;
  i.cancelled = now.cancelled - last_.cancelled;
  if (i.completed > 0) {
    const stats::histogram ended =
        stats::sparse_histogram::difference(now.latency, last_.latency).expand();
    i.p90_us = ended.percentile(0.90);
  }
  series_.push_back(i);
  last_ = now;
  last_end_ = end_seconds;
}

}  // namespace tpcc::run
