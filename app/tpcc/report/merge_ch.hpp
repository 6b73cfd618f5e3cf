// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/merge_ch.hpp: CH-benCHmark's analytic side of several shards' results as one
// (see merge.hpp).
//
// What: each shard ran streams of its own beside its terminals, so the merged run ran their sum;
// per query the completed, failed and cancelled counts add and the latency histograms' buckets
// add (percentiles come from the sum, never averaged). The queries per hour are not added:
// they are recomputed from the summed completed queries over the merged measurement interval
// (merge.hpp: the earliest shard's start of measurement to the latest one's end), as tpmC is.
// A query's last row count is the first shard's that has one. The analytic series is merged
// on the transactions' time axis by merge_ch_series.hpp (counts exact, p90 an upper bound).
// A result with streams and one
// without do not merge (different_analytic_side): the merged result would be labelled
// CH-benCHmark while part of its terminals ran TPC-C alone.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "run_result/ch_result.hpp"

namespace tpcc::report {

/// Why `b` (the analytic side of an input) cannot merge with `a` (the first input's, read
/// from `file_a`): "ran analytic streams (CH-benCHmark), a.json did not (...)"; nullopt when
/// both or neither ran streams.
[[nodiscard]] std::optional<std::string> different_analytic_side(const run::ch_totals& a,
                                                                 const run::ch_totals& b,
                                                                 const std::string& file_a);

/// Adds `b`'s streams, counts and histograms to `a`'s (see above).
void add_ch(run::ch_totals& a, const run::ch_totals& b);

}  // namespace tpcc::report
