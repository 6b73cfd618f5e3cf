// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/analytic_streams.hpp: what --analytic-streams and --terminals 0 need of the rest
// of the command line, checked once after parsing, before any work.
//
// What: check_analytic_streams(cfg) returns one line naming what is wrong, or nullopt:
//   - --terminals 0 needs --analytic-streams (a run of nothing measures nothing);
//   - --analytic-streams on the simulated database: it has no tables to query;
//   - --analytic-streams in the default job needs --ch (the job loads what it runs on).
// Whether a database given to `run` has the CH tables is checked when it is opened
// (commands/analytic.hpp). Thread-safety: a pure function.
#pragma once

#include <optional>
#include <string>

#include "cli/config.hpp"

namespace tpcc::cli {

[[nodiscard]] std::optional<std::string> check_analytic_streams(const config& cfg);

}  // namespace tpcc::cli
