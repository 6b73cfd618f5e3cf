// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/command_line.hpp: the command line as every result records it.
//
// What: command_line(args) is `shoal-tpcc` and the arguments as typed, each quoted for a POSIX
// shell where needed, with the password of any --db target replaced by *** (driver::redact).
// Thread-safety: a pure function.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace tpcc::cli {

[[nodiscard]] std::string command_line(std::span<const std::string_view> args);

}  // namespace tpcc::cli
