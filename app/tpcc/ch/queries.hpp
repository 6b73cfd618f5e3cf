// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ch/queries.hpp: CH-benCHmark's 22 analytic queries, one text per dialect.
//
// What: the queries of Cole et al. ("The mixed workload CH-benCHmark", DBTest 2011), TPC-H's 22
// rewritten over TPC-C's tables and the three added ones (schema/ch_tables.hpp), with the
// paper's constants (dates, names, patterns). Each has the text PostgreSQL (and Citus) run, and
// a SQLite or MySQL/MariaDB form only where that dialect differs: SQLite has unicode() for
// ascii(), strftime() for extract(year ...), GLOB for a case-sensitive LIKE, and integer
// division; MySQL/MariaDB compare text without case unless told (CAST(... AS BINARY) LIKE).
// docs/tpcc/sql-portability.md lists every difference; docs/tpcc/ch-benchmark.md the queries.
// `ch_statement` gives the statement a driver runs: static, so its address (the drivers' key
// for a prepared statement) is stable, and named ch_q01 .. ch_q22. No query takes parameters.
//
// Thread-safety: immutable data.
#pragma once

#include <span>
#include <string_view>

#include "driver/statement.hpp"
#include "driver/target.hpp"

namespace tpcc::ch {

inline constexpr int query_count = 22;

struct query {
  int number = 0;           // 1..22
  std::string_view title;   // what it asks, in a few words
  std::string_view sql;     // PostgreSQL, Citus; every dialect unless overridden
  std::string_view sqlite;  // SQLite's form when it differs, else empty
  std::string_view mysql;   // MySQL/MariaDB's form when it differs, else empty
};

// The 22 queries, by number (index number - 1).
[[nodiscard]] std::span<const query> queries() noexcept;

// Query `number`'s statement for `dialect` (sqlite, mysql; anything else reads the PostgreSQL
// text). Throws std::out_of_range for a number outside 1..22.
[[nodiscard]] const driver::statement& statement_for(int number, driver::engine dialect);

}  // namespace tpcc::ch
