// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/analytic_streams.cpp: --analytic-streams' checks (see analytic_streams.hpp).
#include "cli/analytic_streams.hpp"

#include "cli/values.hpp"

namespace tpcc::cli {

std::optional<std::string> check_analytic_streams(const config& cfg) {
  if (cfg.cmd != command::run && cfg.cmd != command::all) return std::nullopt;
  if (cfg.terminals == 0 && cfg.analytic_streams == 0) {
    return std::string(
        "--terminals 0 runs no terminals: it needs --analytic-streams N (the analytic side "
        "alone)");
  }
  if (cfg.analytic_streams == 0) return std::nullopt;
  if (cfg.is_sim()) {
    return join({"--analytic-streams needs a database; --db ", cfg.db.text,
                 " is the simulated database, which has no tables to query"});
  }
  if (cfg.cmd == command::all && !cfg.ch) {
    return std::string(
        "--analytic-streams in the default job needs --ch (the job loads CH-benCHmark's tables "
        "only with it)");
  }
  return std::nullopt;
}

}  // namespace tpcc::cli
