// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/schema.hpp: the TPC-C tables (clause 1.3) as SQL every supported engine runs.
//
// What: the nine tables with the columns, types and primary keys of clause 1.3, the secondary
// indexes the transactions need, and two bookkeeping tables of our own:
//   tpcc_meta(name, value)  what the load chose and the run must agree with: "warehouses" and
//                           the NURand C constants "c_last", "c_id", "ol_i_id" (clause 2.1.6);
//   tpcc_loaded(w_id)       warehouses whose rows are all committed (w_id 0: the ITEM table), so
//                           an interrupted load resumes where it stopped.
// The same text runs unchanged on PostgreSQL, on the PostgreSQL-compatible distributed engines
// and on SQLite (which accepts the declared types and keeps NUMERIC affinity). Money is
// NUMERIC(p,s), dates TIMESTAMP, identifiers INTEGER. HISTORY has no primary key (clause 1.3.1
// gives it none). Primary keys come with the tables (the loader's idempotence relies on them);
// the secondary indexes are built after the data (`index_statements`).
//
// Thread-safety: immutable data.
#pragma once

#include <span>
#include <string_view>

#include "driver/statement.hpp"

namespace tpcc::schema {

// One table: its name and its columns in the order the loader writes them.
struct table {
  std::string_view name;
  std::span<const std::string_view> columns;
};

// The nine TPC-C tables, in load order (ITEM first).
[[nodiscard]] std::span<const table> tables() noexcept;
// Looks a table up by name; nullptr when unknown.
[[nodiscard]] const table* find_table(std::string_view name) noexcept;

// CREATE TABLE IF NOT EXISTS for the nine tables and the two bookkeeping tables.
[[nodiscard]] std::span<const driver::statement> create_statements() noexcept;
// A secondary index: CREATE INDEX IF NOT EXISTS, and a query counting the index where that
// clause is missing. MySQL 8 has no IF NOT EXISTS for indexes: its forms are a plain CREATE
// INDEX and a count from information_schema.statistics; the others' count is always 0.
struct index_statement {
  driver::statement create;
  driver::statement exists;
};

// The secondary indexes.
[[nodiscard]] std::span<const index_statement> index_statements() noexcept;
// DROP TABLE IF EXISTS for every table above and CH-benCHmark's three (ch_tables.hpp).
[[nodiscard]] std::span<const driver::statement> drop_statements() noexcept;

// Bookkeeping statements.
extern const driver::statement meta_get;      // $1 name -> value
extern const driver::statement meta_put;      // $1 name, $2 value (insert; fails if present)
extern const driver::statement meta_delete;   // $1 name
extern const driver::statement loaded_mark;   // $1 w_id
extern const driver::statement loaded_list;   // -> w_id, ascending
extern const driver::statement loaded_count;  // -> count(*) of warehouses (w_id > 0)

}  // namespace tpcc::schema
