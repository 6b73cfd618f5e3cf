// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/option_table.hpp: the one table of commands and options behind parsing (see
// options.hpp) and the help (help.hpp).
//
// What: each option has its name, its value's placeholder (empty for a flag), its help text
// (which states the default), the function that applies a value to the config, and the
// commands it applies to: an option given to a command it does not apply to is an error
// naming the command, never silently ignored. Each command has its name, a one-line
// description and an example command line.
// Lifetime: static tables. Thread-safety: read-only.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "cli/config.hpp"

namespace tpcc::cli {

// A set of commands, one bit per command.
using command_set = std::uint16_t;

[[nodiscard]] constexpr command_set bit(command c) {
  return static_cast<command_set>(1U << static_cast<unsigned>(c));
}

// Applies a value to the config; returns what was wrong with it, or nullopt.
using option_setter = std::optional<std::string> (*)(config&, std::string_view);

struct option {
  std::string_view name;   // without the leading --
  std::string_view value;  // the value's placeholder; empty for a flag
  std::string_view help;
  option_setter set;
  command_set applies;  // the commands it means something to
};

struct command_info {
  std::string_view name;  // empty for the default job
  command cmd;
  std::string_view help;
  std::string_view example;  // a complete command line
};

[[nodiscard]] std::span<const option> option_table();
// The default job first, then init, load, run, check, clean and merge.
[[nodiscard]] std::span<const command_info> command_table();
[[nodiscard]] const option* find_option(std::string_view name);
// Commands a user can name (help and version are options: --help, --version).
[[nodiscard]] std::optional<command> find_command(std::string_view name);
[[nodiscard]] const command_info& describe(command c);
// "`shoal-tpcc run`", or "the default job (no command)".
[[nodiscard]] std::string command_phrase(command c);
// "run and the default job": the commands an option applies to, for an error message.
[[nodiscard]] std::string commands_phrase(command_set set);

}  // namespace tpcc::cli
