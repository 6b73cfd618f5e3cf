// SPDX-License-Identifier: Apache-2.0
// app/tpcc/loader/loader.hpp: the parallel, resumable population of clause 4.3.
//
// What: `load` fills a schema made by `init` (schema/apply.hpp) with `warehouses` warehouses:
//   1. reads tpcc_meta (schema/meta.hpp): refuses a missing schema ("schema missing: run
//      `shoal-tpcc init` first") and a different warehouse count ("database was loaded with N
//      warehouses, asked for M"); the first time, draws the NURand load constants (clause
//      2.1.6) from `seed` and records them with the count (a resumed load keeps them);
//   2. loads ITEM (marker w_id 0 in tpcc_loaded) and every warehouse not yet in tpcc_loaded,
//      `parallel` at a time, each coroutine with a session borrowed from the database's pool.
//      Each part is ONE transaction that ends by inserting its tpcc_loaded marker, so a broken
//      load leaves all of a warehouse or nothing, and running `load` again resumes;
//   3. builds the secondary indexes when `build_indexes`, then gathers the planner's
//      statistics (ANALYZE), without which the first check took minutes on PostgreSQL.
// A split load (`load --shard I/N`, docs/tpcc/split-load.md) takes the warehouses
// [first_warehouse, last_warehouse] only, ITEM only when `load_items`, and leaves step 3 to a
// plain load once every shard has ended. Loads started together on one database agree: the
// first records the meta, the others find it recorded. A part or meta read that ends
// retryable (SQLite's "database busy" while another process holds its one write lock; a
// serialization failure) is tried again, up to busy_attempts times.
// Rows are written `rows_per_copy` at a time with session::copy (or, as a measured baseline,
// with 100-row INSERTs: load_method::insert). Progress is counted into a load_progress
// (progress.hpp); the loader never prints.
//
// Awaiting load:
//   Result: ok; or failed naming the bad option, the refusal or the database's error; or failed
//           "cancelled" when stopped. On the first failure the other parts are cancelled.
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token: every loading coroutine stops between chunks (or its
//                 driver call is abandoned), rolls its transaction back and the load returns
//                 "cancelled"; parts already committed stay, nothing is half committed.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one load per database at a time (two would both load the same warehouses:
//                  one of them fails on the primary keys).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "driver/database.hpp"
#include "driver/outcome.hpp"
#include "loader/progress.hpp"
#include "shoal/task.hpp"

namespace tpcc::loader {

enum class load_method : std::uint8_t {
  copy,    // session::copy: COPY FROM STDIN on PostgreSQL
  insert,  // INSERT statements of 100 rows (insert_rows.hpp): the baseline copy is measured by
};

struct load_options {
  std::int64_t warehouses = 1;  // 0: as an earlier, broken load recorded (else 1)
  std::size_t parallel = 4;
  std::uint64_t seed = 0;
  std::size_t rows_per_copy = 2000;
  bool build_indexes = true;
  load_method method = load_method::copy;
  // The warehouses this load takes: [first_warehouse, last_warehouse] (a shard's range,
  // run/shard.hpp), the last cut to `warehouses`; by default every one. An empty range
  // (last < first: more shards than warehouses) loads no warehouse.
  std::int64_t first_warehouse = 1;
  std::int64_t last_warehouse = std::numeric_limits<std::int64_t>::max();
  bool load_items = true;  // ITEM: the whole load's, or shard 0's
};

// How many times a part (or the meta read) is tried while it ends retryable.
inline constexpr int busy_attempts = 60;

shoal::task<driver::outcome> load(driver::database& db, load_options options,
                                  load_progress& progress);

}  // namespace tpcc::loader
