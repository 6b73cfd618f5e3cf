// app/tpcc/cli/options.hpp: the command line: one table of options drives parsing and --help.
//
// What: `parse(args)` reads `[COMMAND] [--option value | --option=value | --flag]...` into a
// config, or returns one line naming what was wrong (an unknown command or option, a missing
// or malformed value, a value out of range). `usage()` renders the same table.
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
[[nodiscard]] std::string usage();

}  // namespace tpcc::cli
