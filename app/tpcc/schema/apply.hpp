// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/apply.hpp: creating, indexing and dropping the TPC-C schema on a database.
//
// What: `create_schema` runs schema::create_statements() (clause 1.3's nine tables and the two
// bookkeeping tables) in one transaction. It then probes the engine on a separate transaction
// (`SELECT count(*) FROM pg_extension WHERE extname = 'citus'`; a failure of that probe means
// "not PostgreSQL", e.g. SQLite), and on Citus distributes every warehouse-keyed table by its
// warehouse id, co-located with WAREHOUSE, and makes ITEM and the bookkeeping tables reference
// tables (tables already distributed are left as they are, so init can be re-run).
// `create_ch_schema` does the same for CH-benCHmark's three tables (`init --ch`).
// `create_indexes` builds the secondary indexes (after the load); `drop_schema` drops everything.
// Every statement is idempotent (IF NOT EXISTS / IF EXISTS).
//
// Awaiting any of them:
//   Result: ok, or the first failed outcome (the transaction rolled back); create_schema fills
//           the init_report with what it did.
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token reaches the driver calls (outcome "cancelled" or
//                 connection_lost); a cancelled transaction is rolled back, never half applied.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: any coroutine; the database serialises nothing, so do not run two at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "driver/database.hpp"
#include "driver/outcome.hpp"
#include "schema/citus_nodes.hpp"
#include "shoal/task.hpp"

namespace tpcc::schema {

// What the probe found.
enum class engine {
  other,     // the catalog probe failed: SQLite, or an engine without pg_extension
  postgres,  // PostgreSQL or a compatible engine without Citus
  citus,     // PostgreSQL with the citus extension
};

[[nodiscard]] constexpr const char* to_string(engine e) noexcept {
  switch (e) {
    case engine::other:
      return "other (not PostgreSQL)";
    case engine::postgres:
      return "PostgreSQL";
    case engine::citus:
      return "Citus";
  }
  return "?";
}

struct init_report {
  std::size_t tables = 0;  // CREATE TABLE IF NOT EXISTS statements run
  engine detected = engine::other;
  bool distributed = false;         // Citus distribution applied (or found already applied)
  std::size_t distributed_now = 0;  // tables distributed by this call (0 when all were already)
  std::string probe_message;        // why the probe failed, when it did
  // On Citus: the tables this call distributed by warehouse, and those it made reference tables
  // (both empty when everything was already in place: see `already_placed`).
  std::vector<std::string> distributed_tables;
  std::vector<std::string> reference_tables;
  std::vector<std::string> already_placed;
  // On Citus: its active primary workers, and how many of them have no synced metadata (take no
  // queries on the distributed tables); -1 when the catalog could not say.
  std::int64_t workers = -1, workers_without_metadata = -1;
  // On Citus: the primary nodes pg_dist_node lists (citus_nodes.hpp); empty when it could not.
  std::vector<citus_node> nodes;
};

// What init did on Citus, for its message: " (Citus: N tables distributed by warehouse,
// co-located with warehouse: ...; reference tables made: item, ...)", then whether every node
// takes queries (nodes_summary); empty when not Citus.
[[nodiscard]] std::string distribution_summary(const init_report& report);
// "; every node takes queries (the coordinator and 2 workers with metadata): ..." or how many
// workers do not; empty when unknown.
[[nodiscard]] std::string nodes_summary(const init_report& report);

shoal::task<driver::outcome> create_schema(driver::database& db, init_report& report);
// CH-benCHmark's three tables (ch_tables.hpp), as create_schema does the nine: created in one
// transaction, then on Citus made reference tables (those already placed left as they are).
// The report counts these three tables only.
shoal::task<driver::outcome> create_ch_schema(driver::database& db, init_report& report);
shoal::task<driver::outcome> create_indexes(driver::database& db);
shoal::task<driver::outcome> drop_schema(driver::database& db);
// Gathers the planner's statistics on every table (ANALYZE): after a load, so that the first
// check and run do not plan over empty-table estimates.
shoal::task<driver::outcome> analyze_tables(driver::database& db);

}  // namespace tpcc::schema
