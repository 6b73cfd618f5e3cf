// SPDX-License-Identifier: Apache-2.0
// app/tpcc/main.cpp: shoal-tpcc's entry point: parses the command line (cli/) and dispatches to
// the command (commands/: init, load, run, check, clean, merge, compare, or with no command all of
// them in turn). The commands and the process around them (the pool, the console, the database) are
// in commands/; main knows only them and cli/. Exit status: 0 done; 1 the database refused or a
// check failed; 2 bad command line; 3 run judged (the verdict failed or transactions failed for
// good); 4 compare found a later result slower than --fail-if-slower allows; 130 interrupted (the
// results measured so far are printed first). `shoal-tpcc --help` lists them.
#include <cstdio>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/help.hpp"
#include "cli/options.hpp"
#include "cli/output_paths.hpp"
#include "commands/app.hpp"
#include "commands/build.hpp"
#include "commands/commands.hpp"

namespace {

using namespace tpcc;  // NOLINT(google-build-using-namespace): main dispatches to every command

// The command run on an opened database; the default job when none is named.
commands::command on_database(cli::command cmd) {
  switch (cmd) {
    case cli::command::init:
      return commands::init_command;
    case cli::command::load:
      return commands::load_command;
    case cli::command::run:
      return commands::run_command;
    case cli::command::check:
      return commands::check_command;
    case cli::command::clean:
      return commands::clean_command;
    default:
      return commands::all_commands;
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  auto parsed = cli::parse(args);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    std::fprintf(stderr, "shoal-tpcc: %s\nTry 'shoal-tpcc --help'.\n", error->c_str());
    return commands::exit_usage;
  }
  cli::config cfg = std::get<cli::config>(parsed);
  if (cfg.cmd == cli::command::help) {
    const std::string text = cfg.help_topic ? cli::usage(*cfg.help_topic) : cli::usage();
    std::printf("%s", text.c_str());
    return commands::exit_ok;
  }
  if (cfg.cmd == cli::command::version) {
    std::printf("shoal-tpcc %s (commit %s)\n", commands::build_version(), commands::build_commit());
    return commands::exit_ok;
  }
  if (auto wrong = cli::check_output_paths(cfg)) {
    std::fprintf(stderr, "shoal-tpcc: %s\n", wrong->c_str());
    return commands::exit_usage;
  }
  if (cfg.cmd == cli::command::merge) return commands::merge_command(cfg);  // no database, no pool
  if (cfg.cmd == cli::command::compare) return commands::compare_command(cfg);
  if (cfg.cmd == cli::command::load && cfg.dry_run) return commands::load_estimate(cfg);
  if (cfg.cmd == cli::command::load && !cfg.csv_path.empty()) return commands::load_csv(cfg);
  cli::resolve_defaults(cfg);
  return commands::run_app(cfg, cli::command_line(args), on_database(cfg.cmd));
}
