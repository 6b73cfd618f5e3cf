// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/merge_series.hpp: the interval series of several shards on one time axis
// (see merge.hpp).
//
// What: shard i's interval [s, e) (seconds since its own start) becomes
// [s + offset_i, e + offset_i) with offset_i its start minus the earliest start; intervals
// landing in the same bin of `interval_seconds` are added (counts, buckets; the client sample:
// CPU summed, RSS and lateness the largest, pools and workers added up; the phase the most
// advanced one). Thread-safety: pure function.
#pragma once

#include <vector>

#include "run_result/result.hpp"

namespace tpcc::report {

struct shard_series {
  const std::vector<stats::interval_sample>* series;
  double offset_seconds;  // this shard's start after the earliest one's
};

[[nodiscard]] std::vector<stats::interval_sample> merge_series(
    const std::vector<shard_series>& shards, double interval_seconds);

}  // namespace tpcc::report
