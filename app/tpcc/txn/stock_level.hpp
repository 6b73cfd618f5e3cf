// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/stock_level.hpp: the Stock-Level transaction (clause 2.8).
//
// What: `run_stock_level` reads the district's next order number and counts the distinct
// items of the district's last 20 orders (O_ID in [D_NEXT_O_ID - 20, D_NEXT_O_ID)) whose stock
// in the warehouse is below the threshold (clause 2.8.2.2), from begin() to commit()
// (read-only), and fills what the terminal displays (clause 2.8.3.3). The count takes
// D_NEXT_O_ID in a subquery, so it is consistent on its own at READ COMMITTED (clause 2.8.2.3
// lets Stock-Level run with relaxed isolation anyway).
//
// Round trips (PostgreSQL pipelines them, session.hpp): 1: BEGIN + D_NEXT_O_ID + the count +
// COMMIT.
//
// Awaiting run_stock_level(s, in, out):
//   Result: ok; retryable, connection_lost or failed from the first statement that did not
//           succeed, after a rollback (none when the connection is lost). `out` is meaningful
//           only when ok.
//   Errors: std::bad_alloc only; std::logic_error on an unexpected column type (schema bug).
//   Cancellation: the session's calls inherit the chain's stop token (session.hpp).
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session; `in` and `out` must outlive the await.
#pragma once

#include <cstdint>

#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "shoal/task.hpp"
#include "txn/inputs.hpp"

namespace tpcc::txn {

struct stock_level_output {
  std::int64_t w_id = 0;
  std::int64_t d_id = 0;
  std::int64_t threshold = 0;
  std::int64_t low_stock = 0;  // distinct items below the threshold
  std::int64_t next_o_id = 0;  // D_NEXT_O_ID as read
};

shoal::task<driver::outcome> run_stock_level(driver::session& s, const stock_level_input& in,
                                             stock_level_output& out);

}  // namespace tpcc::txn
