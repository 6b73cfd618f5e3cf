// SPDX-License-Identifier: Apache-2.0
// app/tpcc/server_stats/kinds.hpp: the sources of each database kind, and the one way they run a
// query (inside the module; the rest sees source_for() in source.hpp).
//
// What: make_postgres_source() reads pg_stat_database, the WAL position, pg_stat_bgwriter,
// pg_stat_activity's lock waits and pg_stat_statements; make_mysql_source() SHOW GLOBAL STATUS.
// query_alone() runs one statement as a transaction of its own (PostgreSQL's statistics views
// are a snapshot per transaction): its result, or its failure after a rollback.
// Awaiting query_alone: Result: the statement's result. Errors: std::bad_alloc. Cancellation:
// the session's. Resumes on: the executor it was awaited on. Thread-safety: one coroutine.
#pragma once

#include <memory>

#include "driver/session.hpp"
#include "server_stats/source.hpp"
#include "shoal/task.hpp"

namespace tpcc::server_stats {

[[nodiscard]] std::unique_ptr<source> make_postgres_source();
[[nodiscard]] std::unique_ptr<source> make_mysql_source();

[[nodiscard]] shoal::task<driver::statement_result> query_alone(driver::session& s,
                                                                const driver::statement& stmt);

}  // namespace tpcc::server_stats
