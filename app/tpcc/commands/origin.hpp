// app/tpcc/commands/origin.hpp: how a run's result was obtained (run::provenance): the command
// line, this build, this machine, the pool (the run itself adds the server's version).
#pragma once

#include "commands/app.hpp"
#include "run_result/result.hpp"

namespace tpcc::commands {

/// Every field of `p` but the server's version.
void record_origin(const app& a, run::provenance& p);

}  // namespace tpcc::commands
