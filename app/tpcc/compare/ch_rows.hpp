// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/ch_rows.hpp: CH-benCHmark's analytic side in a comparison: the rows for the
// queries per hour and for each query, beside the transaction types' rows.
//
// What: when A or B ran analytic streams, "QphH" (the run's completed queries per hour of its
// measurement interval; shown after tpmTotal and gated by --fail-if-slower, as tpmC), and per
// query "Qn qph" (its completed per hour) and its latency's "Qn p50" and "Qn p90" (ms), shown
// after the transaction types; none when neither ran streams. The intervals are estimate.hpp's: for
// a rate the Poisson interval of the count (z x sqrt(count): the streams have no terminal groups),
// for a percentile the distribution-free one lowered by the run's timer lateness. No p99: a query
// runs tens of times in a run, where p99 is the max. A side that ran no streams has nothing
// measured
// ("not measured"). The rows come back unjudged: comparison.cpp judges them.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <vector>

#include "compare/comparison.hpp"

namespace tpcc::compare {

/// Completed queries of `r`'s streams (query `n` 1..22 only; 0: all of them) per hour of its
/// measurement interval, with the Poisson interval; unknown when no stream ran or nothing was
/// measured.
[[nodiscard]] estimate queries_per_hour(const run::run_result& r, std::size_t n);

/// The "QphH" row of B against A, or nullopt when neither ran streams.
[[nodiscard]] std::optional<row> qphh_row(const run::run_result& a, const run::run_result& b);

/// The per-query rows of B against A (see above); `lateness_a_ms` and `lateness_b_ms` are the
/// runs' timer lateness (estimate.hpp's percentile_ms). Empty when neither ran streams.
[[nodiscard]] std::vector<row> ch_query_rows(const run::run_result& a, double lateness_a_ms,
                                             const run::run_result& b, double lateness_b_ms);

}  // namespace tpcc::compare
