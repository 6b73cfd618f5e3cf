// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/origin.hpp: how a run's result was obtained (run::provenance), filled in
// this one place: the command line, this build, this machine, the pool, the database server.
#pragma once

#include "commands/app.hpp"
#include "driver/database.hpp"
#include "run_result/result.hpp"
#include "shoal/task.hpp"

namespace tpcc::commands {

/// Every field of the provenance; the server's version is asked of `db` (schema/server_version:
/// never an error, "unknown (why)" when the server answers no version question).
/// Resumes on: the worker it was awaited on. Borrows one session of `db` briefly.
[[nodiscard]] shoal::task<run::provenance> origin_of(const app& a, driver::database& db);

}  // namespace tpcc::commands
