// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/help.hpp: the help, rendered from the option table (cli/option_table.hpp).
//
// What: usage() is the whole help: every command, every option with its default, the exit
// statuses. usage(cmd) is one command's: what it does, an example, and only the options it
// takes. Thread-safety: pure functions.
#pragma once

#include <string>

#include "cli/config.hpp"

namespace tpcc::cli {

[[nodiscard]] std::string usage();
[[nodiscard]] std::string usage(command cmd);

}  // namespace tpcc::cli
