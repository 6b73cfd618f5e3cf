// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/merge_ch_series.hpp: CH-benCHmark's analytic series of several shards on one
// time axis (see merge.hpp).
//
// What: aligned as the transactions' series are (merge_series.hpp): shard i's interval
// [s, e) becomes [s + offset_i, e + offset_i), offset_i its start after the earliest shard's,
// and intervals landing in the same bin of `interval_seconds` add their completed, failed and
// cancelled counts (exact). The series keeps no histograms, so a bin's p90 is the largest of
// its shards' p90 among those that completed a query: an upper bound of the merged p90, not
// it, and the result says so (ch_totals::series_p90_max_of_shards). When any shard ran streams
// but has no series (written before it was recorded), the merged series is left empty and
// `why_not` names that file: part of the streams' queries would be missing from it.
// Thread-safety: pure function.
#pragma once

#include <string>
#include <vector>

#include "run_result/ch_result.hpp"

namespace tpcc::report {

struct shard_ch_series {
  const std::string* file;  // for the note
  const run::ch_totals* ch;
  double offset_seconds;  // this shard's start after the earliest one's
};

struct merged_ch_series {
  std::vector<run::ch_interval> series;
  std::string why_not;  // empty unless a shard with streams had no series
};

[[nodiscard]] merged_ch_series merge_ch_series(const std::vector<shard_ch_series>& shards,
                                               double interval_seconds);

}  // namespace tpcc::report
