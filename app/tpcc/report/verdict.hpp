// app/tpcc/report/verdict.hpp: the compliance verdict of a run: is it a reportable TPC-C result?
//
// What: evaluate() checks a run's result (a snapshot, never live counters) item by item over
// the measurement interval: the input-variability audit (rollbacks 0.9-1.1 %, mean order lines
// 9.5-10.5, remote order lines 0.95-1.05 %, remote Payments 14-16 %, Payment and Order-Status
// by last name 57-63 %), the mix minimums of clause 5.2.3, the think-time mean applied, the p90
// response time per type (5/5/5/5/20 s), deferred Deliveries within 80 s (90 %), the
// measurement interval's length (120 min, clause 5.5), that the run completed, was not
// client-bound, kept the spec's waits and ran against a real database (not "sim:").
// Efficiency is shown as an informational item: the spec sets no minimum. Every item says what
// was measured and what is required; the verdict passes when every non-informational item does.
// Definitions and clause references: docs/tpcc/results.md. Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "run/run.hpp"

namespace tpcc::report {

struct verdict_item {
  std::string name;      // e.g. "remote order lines"
  std::string clause;    // the TPC-C clause, e.g. "2.4.1.5"
  std::string measured;  // e.g. "1.02 %", or "no data"
  std::string required;  // e.g. "0.95-1.05 %"
  bool pass = false;
  bool informational = false;  // shown, never fails the verdict
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
  bool pass = false;

  // The names of the items that failed, in order.
  [[nodiscard]] std::vector<std::string> failing() const;
};

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
