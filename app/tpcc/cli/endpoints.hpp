// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/endpoints.hpp: --db given more than once: the endpoints of one database.
//
// What: a run may send its warehouses' transactions to several endpoints of one database (the
// nodes of a distributed SQL database, each taking queries); config::endpoints lists every
// --db in order, config::db is the first. check_endpoints() says what is wrong with the list:
// more than one for a command other than `run`, an endpoint given twice, endpoints of
// different kinds, or several SQLite files (separate files are separate databases).
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "cli/config.hpp"

namespace tpcc::cli {

/// What is wrong with `c.endpoints`, as one line naming the endpoint (password redacted);
/// nullopt when they can be run (one endpoint always can).
[[nodiscard]] std::optional<std::string> check_endpoints(const config& c);

}  // namespace tpcc::cli
