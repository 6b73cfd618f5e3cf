// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/node_target.hpp: a --db target for another node of the same database.
//
// What: node_target(target, host, port) is a PostgreSQL target (libpq's key/value form) with
// every connection setting of `target` (user, dbname, sslmode, password, application_name, ...)
// but the node's host and port: how `init` on Citus turns the coordinator's --db and the node
// list of pg_dist_node into one ready-to-use --db per node (docs/tpcc/endpoints.md, "Citus").
// `target`'s hostaddr is dropped (it names the coordinator). The result may hold a password:
// show it through redact() (driver/open.hpp).
// Thread-safety: a pure function.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tpcc::driver {

// `target` (libpq's URI or key/value form) pointed at `host` (a name, an address or a Unix
// socket directory) and `port`, as "host=HOST port=PORT KEY=VALUE ..." (values quoted
// 'like this', with \ and ' escaped, where they are empty or hold a space, a quote or a
// backslash). Empty when libpq cannot parse `target`.
[[nodiscard]] std::string node_target(const std::string& target, std::string_view host,
                                      std::int64_t port);

}  // namespace tpcc::driver
