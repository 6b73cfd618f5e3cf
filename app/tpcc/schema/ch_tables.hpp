// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/ch_tables.hpp: CH-benCHmark's three added tables (SUPPLIER, NATION, REGION).
//
// What: the tables Cole et al. ("The mixed workload CH-benCHmark", DBTest 2011) add to TPC-C's
// nine for the analytic queries, with TPC-H's columns (su_, n_, r_ prefixes): REGION (5 rows),
// NATION (62 rows, keyed by the character codes of '0'-'9', 'A'-'Z', 'a'-'z', so that a
// customer's nation is ascii(substr(c_state, 1, 1))) and SUPPLIER (10,000 rows, keyed 0..9999, so
// that a stock row's supplier is (s_w_id * s_i_id) % 10000). Texts are VARCHAR, not CHAR, so that
// no engine pads them differently in results. The same text runs on SQLite, PostgreSQL (and
// Citus, which makes them reference tables: schema/apply.hpp) and MySQL/MariaDB.
// `init --ch` creates them, `load --ch` fills them (loader/ch_load.hpp), `clean` drops them with
// the rest (schema::drop_statements()). docs/tpcc/ch-benchmark.md describes them.
//
// Thread-safety: immutable data.
#pragma once

#include <span>
#include <string_view>

#include "driver/statement.hpp"
#include "schema/schema.hpp"

namespace tpcc::schema {

// The three tables, in load order (REGION, NATION, SUPPLIER), with their columns.
[[nodiscard]] std::span<const table> ch_tables() noexcept;
// CREATE TABLE IF NOT EXISTS for the three.
[[nodiscard]] std::span<const driver::statement> ch_create_statements() noexcept;

// The tpcc_meta entry a CH load commits with its rows: present means loaded.
inline constexpr std::string_view ch_loaded_meta = "ch_loaded";

}  // namespace tpcc::schema
