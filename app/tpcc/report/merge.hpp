// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/merge.hpp: one result from the results of several client processes (the
// shards of one run, `shoal-tpcc merge a.json b.json ...`).
//
// What: counts and histogram buckets are added (percentiles are recomputed from the added
// buckets, never averaged); the interval series are aligned by wall-clock time (each shard's
// intervals shifted by its start, then binned by the interval length) and added; the client
// figures combine (CPU summed, RSS the largest, bytes per terminal weighted by terminals,
// client-bound if any shard was, naming it); the
// measurement interval is the wall-clock span from the earliest shard's start of measurement
// to the latest one's end; --schedule steps as merge_steps.hpp says (their rates added, their
// figures from the merged series); CH-benCHmark's analytic side as merge_ch.hpp says (counts and
// buckets added, queries per hour over the merged interval, the analytic series aligned as the
// transactions' one: merge_ch_series.hpp). Inputs must be compatible: the same
// warehouse total, NURand constants, wait scale, interval length and schedule, all with
// analytic streams or none, and disjoint warehouse ranges; otherwise the merge is refused naming
// the file.
// Thread-safety: pure functions.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "report/json.hpp"

namespace tpcc::report {

struct merge_input {
  std::string file;  // for messages
  loaded_result loaded;
};

struct merged_result {
  run::run_result result;
  result_context context;
  std::vector<std::string> notes;  // one line each: what was merged, anything to know
};

// Refuses (the string) incompatible inputs, naming the file; needs at least one input.
[[nodiscard]] std::variant<merged_result, std::string> merge_results(
    const std::vector<merge_input>& inputs);

// Adds b's buckets to a's.
void add_sparse(stats::sparse_histogram& a, const stats::sparse_histogram& b);

}  // namespace tpcc::report
