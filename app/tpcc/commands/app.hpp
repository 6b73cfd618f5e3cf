// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/app.hpp: what every command of shoal-tpcc is given, and how the process
// around them is set up and torn down.
//
// What: `app` holds the command line's config, the worker pool, the console (progress lines,
// Ctrl-C) and the stop source a Ctrl-C requests; run_app() starts the pool and the console,
// listens for --metrics-addr, opens the database and awaits one `command` on a worker.
// Exit statuses: exit_ok, exit_failed (the database refused, a check failed, a report could not
// be written), exit_usage (bad command line or input file), exit_judged (run: the verdict failed
// or transactions failed for good); 130 interrupted (cli::console::interrupt_status()).
// Thread-safety: an app belongs to the command being run; the console's handlers read it from
// the console thread only through the stop source.
#pragma once

#include <stop_token>
#include <string>
#include <string_view>

#include "cli/config.hpp"
#include "cli/console.hpp"
#include "driver/database.hpp"
#include "driver/open.hpp"
#include "shoal/socket.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace tpcc::commands {

inline constexpr int exit_ok = 0;
inline constexpr int exit_failed = 1;
inline constexpr int exit_usage = 2;
inline constexpr int exit_judged = 3;
inline constexpr int exit_slower = 4;  // compare: --fail-if-slower's gate failed

struct app {
  cli::config cfg;
  std::string command_line;  // as recorded in every result (cli/command_line.hpp)
  shoal::thread_pool& pool;
  cli::console& console;
  std::stop_source interrupt;
  shoal::stream_listener* metrics = nullptr;  // --metrics-addr, bound before any work
};

/// One command on an opened database. Result: the exit status. Resumes on: a worker of
/// app::pool.
using command = shoal::task<int> (*)(app& a, driver::database& db);

/// How a command opens cfg.db: its connections, isolation, size, whether a SQLite file may be
/// created (init and the default job only).
[[nodiscard]] driver::database_options database_options_of(const cli::config& cfg);

/// Prints "shoal-tpcc: STEP: MESSAGE" on stderr. Result: exit_failed.
int fail(std::string_view step, const std::string& message);

/// Starts the pool and the console, listens for --metrics-addr, opens the database, awaits `run`
/// and closes everything again. Result: the command's exit status; exit_failed when the
/// database cannot be opened or the command threw (the message printed), exit_usage when
/// --metrics-addr cannot be listened on. Blocks the calling thread (main's).
int run_app(const cli::config& cfg, std::string command_line, command run);

}  // namespace tpcc::commands
