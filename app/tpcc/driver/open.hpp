// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/open.hpp: from a --db target to a database.
//
// Targets: `sqlite:PATH` (an embedded SQLite file, created if missing), `sim:latency=5ms` (the
// simulated database of the capacity mode, driver/sim/sim.hpp: not a database), or a PostgreSQL
// connection string in libpq's URI form (postgresql://user:pass@host:port/db?sslmode=...) or
// key/value form (host=... dbname=... sslmode=...), or a MySQL/MariaDB URI
// (mysql://user:pass@host:port/db, mariadb://..., ?socket=/path for a Unix socket, ?ssl=...:
// driver/mysql/target.hpp). Anything else is refused with a message
// naming what was wrong. Opening connects the pool's first session, so a wrong host, password
// or database is reported here, not at the first transaction.
//
// Awaiting open_database: Result: the database, or a failed outcome with the reason (password
// redacted). Resumes on: the executor it was awaited on (a thread_pool worker: PostgreSQL's
// sessions are driven by that pool's reactors).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "driver/database.hpp"
#include "driver/outcome.hpp"
#include "shoal/task.hpp"

namespace tpcc::driver {

struct database_options {
  std::string target;            // the --db value
  std::size_t connections = 16;  // pool size (SQLite: 1 writer thread regardless)
  isolation level = isolation::read_committed;
  std::chrono::milliseconds connect_timeout{5000};
  std::int64_t warehouses = 0;     // --warehouses: the simulated database's size (sim: only)
  bool create_sqlite_file = true;  // false: a missing SQLite file is an error, never created
};

using open_result = std::variant<std::unique_ptr<database>, outcome>;

shoal::task<open_result> open_database(database_options options);

// The target with any password replaced by "***", for messages and reports.
[[nodiscard]] std::string redact(const std::string& target);
// `message` (a library's or a server's) with every occurrence of the password `target` holds,
// as libpq or the MySQL reader reads it, replaced by "***".
[[nodiscard]] std::string without_password(std::string message, const std::string& target);
// `message` with every occurrence of `secret` (when not empty) replaced by "***".
[[nodiscard]] std::string without_secret(std::string message, std::string_view secret);

}  // namespace tpcc::driver
