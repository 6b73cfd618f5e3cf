// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/server_version.hpp: the database server's version, as it reports it, for
// every result's provenance.
//
// What: server_version(db) asks PostgreSQL (and Citus) `SELECT version()`, or SQLite
// `sqlite_version()` when that fails; the simulated database says so. Never an error: a server
// that answers neither gives "unknown (<why>)".
// Thread-safety: a coroutine on the pool; borrows one session for two short transactions.
#pragma once

#include <string>

#include "driver/database.hpp"
#include "shoal/task.hpp"

namespace tpcc::schema {

[[nodiscard]] shoal::task<std::string> server_version(driver::database& db);

}  // namespace tpcc::schema
