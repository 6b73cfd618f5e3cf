// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/order_status.hpp: the Order-Status transaction (clause 2.6).
//
// What: `run_order_status` reads a customer (by number or by last name, by_last_name.hpp), the
// customer's latest order (the largest O_ID) and that order's lines (clause 2.6.2.2), from
// begin() to commit() (read-only), and fills what the terminal displays (clause 2.6.3.3).
// The order and its lines come from one statement (a join), so they are read from one
// snapshot even at READ COMMITTED. A customer with no order (impossible in a populated
// database, clause 4.3.3.1) leaves o_id 0 and no lines.
//
// Round trips (PostgreSQL pipelines them, session.hpp):
//   by number: 1. BEGIN + customer + latest order with its lines + COMMIT.
//   by name:   2. BEGIN + customers by name; then customer + latest order + COMMIT.
//
// Awaiting run_order_status(s, in, out):
//   Result: ok; retryable, connection_lost or failed from the first statement that did not
//           succeed, after a rollback (none when the connection is lost); failed when no
//           customer matches. `out` is meaningful only when ok.
//   Errors: std::bad_alloc only; std::logic_error on an unexpected column type (schema bug).
//   Cancellation: the session's calls inherit the chain's stop token (session.hpp).
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session; `in` and `out` must outlive the await.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "shoal/task.hpp"
#include "txn/inputs.hpp"

namespace tpcc::txn {

struct order_status_line {
  std::int64_t supply_w_id = 0;
  std::int64_t i_id = 0;
  std::int64_t quantity = 0;
  double amount = 0;
  std::string delivery_d;  // empty until delivered
};

struct order_status_output {
  std::int64_t w_id = 0;
  std::int64_t d_id = 0;
  std::int64_t c_id = 0;
  std::string c_first;
  std::string c_middle;
  std::string c_last;
  double c_balance = 0;
  std::int64_t o_id = 0;
  std::string o_entry_d;
  std::optional<std::int64_t> o_carrier_id;  // none until delivered
  std::vector<order_status_line> lines;
};

shoal::task<driver::outcome> run_order_status(driver::session& s, const order_status_input& in,
                                              order_status_output& out);

}  // namespace tpcc::txn
