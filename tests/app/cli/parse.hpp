// SPDX-License-Identifier: Apache-2.0
// parse.hpp: the command line parsed as main parses it, for the option tests.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "cli/options.hpp"

namespace tpcc::cli::testing {

inline parse_result parse(std::vector<std::string_view> args) { return cli::parse(args); }

// The parse error for `args`, or "" when they parse.
inline std::string error_of(std::vector<std::string_view> args) {
  auto r = parse(std::move(args));
  return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : "";
}

}  // namespace tpcc::cli::testing
