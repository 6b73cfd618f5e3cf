// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/options.hpp: the command line: one table of options drives parsing and --help.
//
// What: `parse(args)` reads `[COMMAND] [--option value | --option=value | --flag]...` into a
// config, or returns one line naming what was wrong (an unknown command or option, an option
// the command does not take, a missing or malformed value, a value out of range). The table
// it reads is cli/option_table.hpp; help.hpp renders the same table. `-h` is `--help`;
// `help COMMAND` and `COMMAND --help` ask for that command's help (config::help_topic).
// Thread-safety: pure functions.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <variant>

#include "cli/config.hpp"

namespace tpcc::cli {

using parse_result = std::variant<config, std::string>;

[[nodiscard]] parse_result parse(std::span<const std::string_view> args);

}  // namespace tpcc::cli
