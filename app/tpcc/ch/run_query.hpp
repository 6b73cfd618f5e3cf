// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ch/run_query.hpp: one CH-benCHmark query executed on a session, its rows returned.
//
// What: run_query runs query `number` (1..22, queries.hpp) in the form of `dialect` as a
// transaction of its own on a session the caller holds (BEGIN, the query, COMMIT; ROLLBACK
// after a failure; on SQLite the query alone, in autocommit: a read snapshot of its own, where
// the driver's BEGIN IMMEDIATE would hold the write lock and stall the terminals for the whole
// query), and returns its rows as the driver gives them (integers, doubles for
// NUMERIC, text for text and timestamps: driver/value.hpp). The analytic streams call it, each
// on connections of its own, never a terminal's.
//
// Awaiting run_query:
//   Result: the outcome and, when ok, the rows in the query's order.
//   Errors: std::bad_alloc; std::out_of_range for a number outside 1..22 (a caller's bug),
//           thrown before anything is sent.
//   Cancellation: the chain's stop token reaches the driver calls: a query waiting for the
//                 server is abandoned with connection_lost (session.hpp), a call not started
//                 returns failed "cancelled"; the rows are then empty.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session (session.hpp).
#pragma once

#include <vector>

#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "driver/target.hpp"
#include "driver/value.hpp"
#include "shoal/task.hpp"

namespace tpcc::ch {

struct query_result {
  driver::outcome status;
  std::vector<driver::row> rows;

  [[nodiscard]] bool ok() const noexcept { return status.ok(); }
};

// `setup`, when given, runs first in the query's transaction (Citus: citus_joins.hpp); its
// failure is the query's.
shoal::task<query_result> run_query(driver::session& s, driver::engine dialect, int number,
                                    const driver::statement* setup = nullptr);

// The same for any statement without parameters (run_query's body; the streams' tests run a
// deliberately slow one through it). The caller keeps `stmt` and `setup` alive until the call
// completes.
shoal::task<query_result> run_statement(driver::session& s, driver::engine dialect,
                                        const driver::statement& stmt,
                                        const driver::statement* setup = nullptr);

}  // namespace tpcc::ch
