// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/endpoints.hpp: the figures of each endpoint of a run over several (--db given
// more than once: run_result::endpoints), and their text table.
//
// What: an endpoint's tpmC is its completed New-Orders per minute of the run's measurement
// interval (as the total's, report/summary.hpp); its failures and lost transactions are counted
// as the total's (stats/outcomes.hpp); its percentiles are of its completed transactions. The
// totals stay the run's; the verdict judges the whole run, never an endpoint alone.
// endpoints_text() is the summary's section (empty with one endpoint).
// Thread-safety: pure functions.
#pragma once

#include <cstdint>
#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

/// New-Orders completed on `e` per minute of `r`'s measurement interval; 0 when none was.
[[nodiscard]] double endpoint_tpmc(const run::run_result& r, const run::endpoint_result& e);
/// Transactions of every type with outcome `o` in the window (completed: the three completed
/// outcomes; stats::txn_outcome::lost: lost only).
[[nodiscard]] std::uint64_t count_of(const stats::snapshot& s, stats::txn_outcome o);
[[nodiscard]] std::uint64_t completed_all(const stats::snapshot& s);
/// Transactions of every type that failed (every outcome not completed), and the deferred
/// deliveries queued in the window that failed, were lost or were abandoned.
[[nodiscard]] std::uint64_t failures_all(const stats::snapshot& s);
/// Of failures_all: those whose connection or node was lost, deferred deliveries included.
[[nodiscard]] std::uint64_t lost_all(const stats::snapshot& s);

/// "endpoint 2/3" headed lines per endpoint: its target, warehouses, tpmC, completed, failed
/// and lost, then per type completed, failed, lost, p90 and p99 ms. Empty with one endpoint.
[[nodiscard]] std::string endpoints_text(const run::run_result& r);

}  // namespace tpcc::report
