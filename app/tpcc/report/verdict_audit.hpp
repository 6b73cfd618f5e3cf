// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/verdict_audit.hpp: the verdict's items computed from the measurement
// interval's counts (see verdict.hpp): the input-variability audit and think times, the mix
// minimums, the response-time limits and the deferred Deliveries.
//
// What: each function appends its items to `items`. Shares and means are judged with their
// confidence interval (report/confidence.hpp); a ratio with nothing to divide by is
// "no data" and inconclusive. Thread-safety: pure functions.
#pragma once

#include <vector>

#include "report/verdict.hpp"
#include "run_result/result.hpp"

namespace tpcc::report {

// Rollbacks, order lines, remote lines, remote Payments, by-name Payment and Order-Status,
// the think-time mean applied (clauses 2.4.1.4-5, 2.5.1.2, 2.6.1.2, 5.2.5.4).
void append_input_audit(const run::run_result& r, std::vector<verdict_item>& items);
// Payment >= 43 %, Order-Status, Delivery and Stock-Level >= 4 % of all transactions (5.2.3).
void append_mix(const run::run_result& r, std::vector<verdict_item>& items);
// p90 per type against 5/5/5/5/20 s (5.2.5.3); deferred Deliveries 90 % within 80 s (2.7.2.2).
void append_response_times(const run::run_result& r, std::vector<verdict_item>& items);
// Every type completed at least once; failed and lost transactions within max_failure_share.
void append_failures(const run::run_result& r, std::vector<verdict_item>& items);

// Seconds one terminal takes to go through its 100-card deck at the spec's mean keying and
// think times (scaled by the run's wait scale), response times aside: a measurement interval
// shorter than this sees the types in proportions that are not yet the deck's.
[[nodiscard]] double deck_cycle_seconds(double wait_scale);

// The think-time mean the spec expects for the transactions measured, in seconds, scaled by
// the run's wait scale: the per-type means (12/12/10/5/5 s) weighted by each type's count.
[[nodiscard]] double expected_think_seconds(const run::run_result& r);

}  // namespace tpcc::report
