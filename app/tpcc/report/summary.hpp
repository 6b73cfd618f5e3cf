// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/summary.hpp: the final text summary of a run.
//
// What: renders a run's result (a snapshot, never live counters) as the table a user reads at
// the end: tpmC (New-Orders completed per minute of the measurement interval: committed plus
// the spec's intended 1% rolled back, which clauses 2.4.2.3 and 5.4.2 count as completed),
// tpmTotal (every type's completed transactions per minute, by the same rule),
// efficiency (tpmC / (12.86 x warehouses): 12.86 is the most a warehouse can give with the
// spec's keying and think times), per-type counts, retries, failures, p50/p90/p99 response
// times, round trips per transaction, the deferred Deliveries, the NURand constants, the
// client's own cost (CPU, peak RSS, bytes per terminal, client-bound) and the compliance
// verdict (report/verdict.hpp). A run without the spec's waits, or interrupted, says so on its
// first lines; a shard names its warehouses; a simulated database ("sim:") is labelled on the
// very first line.
// Definitions: docs/tpcc/results.md. Thread-safety: pure functions.
#pragma once

#include <string>
#include <string_view>

#include "run_result/result.hpp"

namespace tpcc::report {

inline constexpr double max_tpmc_per_warehouse = 12.86;
inline constexpr const char* capacity_mode_line =
    "CLIENT CAPACITY MODE: simulated database, not a database result\n";

// Round trips to the database per transaction that ended (retries included).
[[nodiscard]] double round_trips_per_transaction(const stats::kind_totals& t);
// "read-committed", "repeatable-read" or "serializable", as --isolation spells it.
[[nodiscard]] const char* isolation_name(driver::isolation level) noexcept;
// The run's isolation level as every output states it: the level, and for SQLite that it runs
// every transaction serializable whatever was asked.
[[nodiscard]] std::string isolation_text(const run::run_result& r, std::string_view target);

// New-Orders completed in the measurement interval: committed + rolled back by the spec's 1%
// (clauses 2.4.2.3, 5.4.2); failed and lost ones are not.
[[nodiscard]] std::uint64_t completed_new_orders(const stats::snapshot& s);
[[nodiscard]] double tpmc(const run::run_result& r);
// Transactions of every type completed in the measurement interval, by tpmC's rule (an outcome
// that counts as completed, ended inside the window): a Delivery counts when queued, its
// terminal part, as its response time does (clause 2.7.2.2); its deferred part is not counted.
[[nodiscard]] std::uint64_t completed_transactions(const stats::snapshot& s);
// tpmTotal: completed_transactions per minute of the measurement interval.
[[nodiscard]] double tpm_total(const run::run_result& r);
// The warehouses this result's terminals ran: its shard's range (all of them unless sharded).
[[nodiscard]] std::int64_t warehouses_run(const run::run_result& r);
// A fraction (1.0 is 100%) against the warehouses run; with scaled waits, against the scaled
// maximum 12.86 / scale per warehouse; 0 without waits.
[[nodiscard]] double efficiency(const run::run_result& r);
// The deferred Deliveries queued in `s`'s window, as the verdict judges them: how many, the
// share completed within clause 2.7.2.2's limit, completed, failed or abandoned, districts
// skipped, completion p90 (the summary's line, and each endpoint's).
[[nodiscard]] std::string deferred_delivery_figures(const stats::snapshot& s);
// `target` is the database as the user should see it (password redacted).
[[nodiscard]] std::string format_summary(const run::run_result& r, const std::string& target);

// The longest gap between completions a run at this window's completion rate shows by chance
// (n completions over the window, as if Poisson: (ln(n + 1) + 3) x window / n, exceeded with
// odds of about 1 in 20); 0 without completions. A longer stall is the database's.
[[nodiscard]] double expected_longest_gap_seconds(const run::run_result& r);

}  // namespace tpcc::report
