// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/delivery.hpp: the Delivery transaction, as the deferred deliverer runs it
// (clause 2.7).
//
// What: `run_delivery` delivers, for each of the warehouse's 10 districts, the oldest
// undelivered order (clause 2.7.4.2): the NEW-ORDER row with the lowest NO_O_ID is deleted,
// the order gets O_CARRIER_ID, its lines OL_DELIVERY_D (the client's current time), and the
// customer C_BALANCE += sum(OL_AMOUNT) and C_DELIVERY_CNT += 1. A district with no undelivered
// order is skipped and counted. All 10 districts are one database transaction (the spec allows
// one to ten). The output is what the result file of clause 2.7.2.3 records: the delivered
// O_ID per district and the count of districts skipped.
//
// Round trips (PostgreSQL pipelines them, session.hpp): 2.
//   1. BEGIN + for each district: DELETE the oldest NEW-ORDER row ... RETURNING its O_ID.
//   2. for each delivered order: ORDERS, ORDER-LINE and CUSTOMER updates (the customer and the
//      amount come from subqueries) + COMMIT.
// Where an UPDATE or DELETE cannot return its rows (MySQL, MariaDB: session::update_returning()
// false), the same rows in 5 statements: one locking read, then one statement per table
// (delivery_locked.hpp).
// Two deliverers of one warehouse at READ COMMITTED: the second DELETE finds the row gone and
// the district counts as skipped for it; an order is never delivered twice.
//
// Awaiting run_delivery(s, in, out):
//   Result: ok (committed); retryable, connection_lost or failed from the first statement that
//           did not succeed, after a rollback (none when the connection is lost). `out` is
//           meaningful only when ok.
//   Errors: std::bad_alloc only; std::logic_error on an unexpected column type (schema bug).
//   Cancellation: the session's calls inherit the chain's stop token (session.hpp).
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session; `in` and `out` must outlive the await.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "shoal/task.hpp"
#include "txn/inputs.hpp"

namespace tpcc::txn {

inline constexpr std::size_t districts_per_warehouse = 10;

struct delivery_output {
  std::int64_t w_id = 0;
  std::int64_t o_carrier_id = 0;
  std::array<std::int64_t, districts_per_warehouse> delivered_o_id{};  // [d_id - 1]; 0: skipped
  int skipped = 0;  // districts with no undelivered order
  std::string delivery_d;
};

shoal::task<driver::outcome> run_delivery(driver::session& s, const delivery_input& in,
                                          delivery_output& out);

}  // namespace tpcc::txn
