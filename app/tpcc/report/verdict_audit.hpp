// app/tpcc/report/verdict_audit.hpp: the verdict's items computed from the measurement
// interval's counts (see verdict.hpp): the input-variability audit and think times, the mix
// minimums, the response-time limits and the deferred Deliveries.
//
// What: each function appends its items to `items`; a ratio with nothing to divide by is
// "no data" and fails. Thread-safety: pure functions.
#pragma once

#include <vector>

#include "report/verdict.hpp"
#include "run/run.hpp"

namespace tpcc::report {

// Rollbacks, order lines, remote lines, remote Payments, by-name Payment and Order-Status,
// the think-time mean applied (clauses 2.4.1.4-5, 2.5.1.2, 2.6.1.2, 5.2.5.4).
void append_input_audit(const run::run_result& r, std::vector<verdict_item>& items);
// Payment >= 43 %, Order-Status, Delivery and Stock-Level >= 4 % of all transactions (5.2.3).
void append_mix(const run::run_result& r, std::vector<verdict_item>& items);
// p90 per type against 5/5/5/5/20 s (5.2.5.3); deferred Deliveries 90 % within 80 s (2.7.2.2).
void append_response_times(const run::run_result& r, std::vector<verdict_item>& items);

// The think-time mean the spec expects for the transactions measured, in seconds, scaled by
// the run's wait scale: the per-type means (12/12/10/5/5 s) weighted by each type's count.
[[nodiscard]] double expected_think_seconds(const run::run_result& r);

}  // namespace tpcc::report
