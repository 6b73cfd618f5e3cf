// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/steps.hpp: the halves of `run` and `check` that the default job
// (all_commands) puts in another order: the run, then the check, then the run's reports, so
// that the reports say what the check found.
// Resumes on: the worker they were awaited on.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "commands/app.hpp"
#include "driver/database.hpp"
#include "run_result/result.hpp"
#include "shoal/task.hpp"

namespace tpcc::commands {

/// Runs, with the live display and --metrics-addr's endpoint beside it. `ran` receives the
/// result when the run took place (even one that failed), for finish_run. `more_endpoints`:
/// the other endpoints of db's database (commands/endpoints.hpp). Result: exit_ok;
/// else the run was refused (exit_failed), failed (exit_failed) or interrupted.
[[nodiscard]] shoal::task<int> run_step(app& a, driver::database& db,
                                        std::optional<run::run_result>& ran,
                                        std::vector<driver::database*> more_endpoints = {});

/// Prints the summary, writes the report files (--html, --csv, --hdr-log, --json) and says how
/// the run is judged. Result: `run_status` when that was not exit_ok, exit_failed when a report
/// could not be written, else exit_ok or exit_judged (the verdict failed or transactions failed
/// for good, without --tolerate-errors).
[[nodiscard]] int finish_run(const app& a, const run::run_result& result, const std::string& target,
                             int run_status);

/// The consistency check; with `ran` (the run just before), records what it found in its
/// result (run::consistency_status). Result: exit_ok when every condition passed, exit_failed
/// otherwise or when the database is not fully loaded.
[[nodiscard]] shoal::task<int> check_step(app& a, driver::database& db, run::run_result* ran);

}  // namespace tpcc::commands
