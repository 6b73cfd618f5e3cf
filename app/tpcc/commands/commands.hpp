// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/commands.hpp: shoal-tpcc's commands, one a file: what main dispatches to.
//
// What: each command but merge runs on an opened database (commands/app.hpp: run_app), prints
// its result on stdout and its failure on stderr, and returns the exit status (app.hpp):
//   init   creates the schema (schema/);        load   populates it (loader/), resumably;
//   run    one measured run and its reports;    check  the consistency conditions (check/);
//   clean  drops every table;                   all    the default job: clean, init, load,
//          run, check, the run's reports, clean (not with --keep); a step starts only when
//          the one before succeeded and no Ctrl-C came.
// merge reads shards' result files (report/merge.hpp), load_estimate (load --dry-run) only
// computes and load_csv (load --csv DIR) writes files: they need neither pool nor database.
// Resumes on: the worker they were awaited on (app::pool's). Interrupted (Ctrl-C): the status
// is cli::console::interrupt_status(), after what was measured is printed.
#pragma once

#include "cli/config.hpp"
#include "commands/app.hpp"
#include "driver/database.hpp"
#include "shoal/task.hpp"

namespace tpcc::commands {

[[nodiscard]] shoal::task<int> init_command(app& a, driver::database& db);
[[nodiscard]] shoal::task<int> load_command(app& a, driver::database& db);
// `init --ch`'s part: CH-benCHmark's three tables created (Citus: reference tables), its line
// printed; `load --ch` runs it too, so that a schema made without --ch gets them.
[[nodiscard]] shoal::task<int> init_ch_tables(driver::database& db);
[[nodiscard]] shoal::task<int> run_command(app& a, driver::database& db);
[[nodiscard]] shoal::task<int> check_command(app& a, driver::database& db);
[[nodiscard]] shoal::task<int> clean_command(app& a, driver::database& db);
[[nodiscard]] shoal::task<int> all_commands(app& a, driver::database& db);

/// shoal-tpcc load --dry-run: prints what loading --warehouses would take (loader/estimate.hpp)
/// and loads nothing. Result: exit_ok.
[[nodiscard]] int load_estimate(const cli::config& cfg);

/// shoal-tpcc load --csv DIR: writes the population (or --shard I/N's part of it) as CSV files
/// into DIR (loader/csv_export.hpp), connecting to nothing. Result: exit_ok; exit_failed when
/// a file cannot be written. Blocks the calling thread.
[[nodiscard]] int load_csv(const cli::config& cfg);

/// shoal-tpcc merge a.json b.json ...: one result from several shards'. Result: exit_ok;
/// exit_usage when a file cannot be read or merged; exit_failed when a report cannot be written.
[[nodiscard]] int merge_command(const cli::config& cfg);

/// shoal-tpcc compare A.json B.json ...: each later result against the first (compare/).
/// Result: exit_ok; exit_slower when --fail-if-slower's gate fails; exit_usage when a file
/// cannot be read; exit_failed when a report cannot be written.
[[nodiscard]] int compare_command(const cli::config& cfg);

}  // namespace tpcc::commands
