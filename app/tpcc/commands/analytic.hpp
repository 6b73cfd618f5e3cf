// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/analytic.hpp: the databases of `run --analytic-streams N`, one per stream.
//
// What: before the run, open_analytic checks that the database has CH-benCHmark's tables
// loaded (the tpcc_meta entry `load --ch` commits with them), then opens N databases on the
// first --db, each with one connection of its own (never the terminals' pool), with the same
// isolation and connect timeout; close_analytic closes them after the run.
// Resumes on: the worker they were awaited on. Thread-safety: the command's coroutine only.
#pragma once

#include <memory>
#include <vector>

#include "commands/app.hpp"
#include "driver/database.hpp"
#include "shoal/task.hpp"

namespace tpcc::commands {

struct analytic_databases {
  std::vector<std::unique_ptr<driver::database>> opened;  // one per stream

  [[nodiscard]] std::vector<driver::database*> databases() const;
};

/// Checks the CH tables and opens one database per stream (none without --analytic-streams).
/// Result: exit_ok; exit_usage when the CH tables are not loaded (saying how to load them);
/// exit_failed when the check or an open failed (the message printed, those opened closed).
[[nodiscard]] shoal::task<int> open_analytic(const app& a, driver::database& db,
                                             analytic_databases& out);

/// Closes them (each waits for its leases first).
[[nodiscard]] shoal::task<void> close_analytic(analytic_databases& dbs);

}  // namespace tpcc::commands
