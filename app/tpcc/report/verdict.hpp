// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/verdict.hpp: the compliance verdict of a run: is it a reportable TPC-C result?
//
// What: evaluate() checks a run's result (a snapshot, never live counters) item by item over
// the measurement interval: the input-variability audit (rollbacks 0.9-1.1 %, mean order lines
// 9.5-10.5, remote order lines 0.95-1.05 %, remote Payments 14-16 %, Payment and Order-Status
// by last name 57-63 %), the mix minimums of clause 5.2.3, the think-time mean applied, the p90
// response time per type (5/5/5/5/20 s), deferred Deliveries within 80 s (90 %), the
// measurement interval's length (120 min, clause 5.5), that the run completed, was not
// client-bound, kept the spec's waits and ran against a real database (not "sim:"), that every
// transaction type completed, that failed and lost transactions stay within
// `max_failure_share` of each type, and that the consistency conditions of clause 3.3.2 hold
// when a check ran with the result (the default job's; informational "not checked" otherwise).
// Efficiency is shown as an informational item: the spec sets no minimum. Every item says what
// was measured and what is required, and is judged three ways (report/confidence.hpp): PASS,
// FAIL (only when its simultaneous 99.999 % confidence interval lies wholly outside the limit, or
// for a fact such as a client-bound run), or INCONCLUSIVE (the value misses the limit but the
// interval reaches it; or the run was too short, scaled, simulated or interrupted to decide). The
// verdict FAILs when any item fails, is INCONCLUSIVE when none fails and some are
// inconclusive, and PASSes when every non-informational item passes.
// Definitions and clause references: docs/tpcc/results.md. Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "run_result/result.hpp"

namespace tpcc::report {

struct verdict_item {
  std::string name;      // e.g. "remote order lines"
  std::string clause;    // the TPC-C clause, e.g. "2.4.1.5"
  std::string measured;  // e.g. "1.02 %", or "no data"
  std::string required;  // e.g. "0.95-1.05 %"
  bool pass = false;
  bool inconclusive = false;   // not passed, yet not failed: too little data to decide
  bool informational = false;  // shown, never fails the verdict
  std::string note;            // why, when the reason is worth a line of its own
};

// An item with its name and clause, not yet measured (fails until set).
[[nodiscard]] inline verdict_item named(std::string name, std::string clause) {
  verdict_item i;
  i.name = std::move(name);
  i.clause = std::move(clause);
  return i;
}

struct verdict {
  std::vector<verdict_item> items;
  bool pass = false;          // every item passed
  bool inconclusive = false;  // no item failed, some could not be decided

  // The names of the items that failed, in order.
  [[nodiscard]] std::vector<std::string> failing() const;
  // The names of the items that could not be decided, in order.
  [[nodiscard]] std::vector<std::string> undecided() const;
  // "PASS", "INCONCLUSIVE" or "FAIL".
  [[nodiscard]] const char* word() const noexcept;
};

// The share of a type's transactions that may fail (failed, retries exhausted), and the share
// that may be lost, before the verdict fails: the spec allows none, a real system under test
// may show a few; more than this is a broken run, not a measurement.
inline constexpr double max_failure_share = 0.01;

// Seconds a reportable measurement interval lasts at least (clause 5.5).
inline constexpr double reportable_interval_seconds = 120.0 * 60.0;

// True for the client-capacity mode's simulated database ("sim:...").
[[nodiscard]] bool is_simulated(std::string_view target) noexcept;

// `target` is the database as given (redacted or not: only its scheme is read).
[[nodiscard]] verdict evaluate(const run::run_result& r, std::string_view target);

// The verdict as the summary prints it: a headline naming the failing items, then one line per
// item.
[[nodiscard]] std::string format_verdict(const verdict& v);

}  // namespace tpcc::report
