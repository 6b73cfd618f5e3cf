// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/new_order.hpp: the New-Order transaction (clause 2.4).
//
// What: `run_new_order` enters one order of 5-15 lines for a customer (clause 2.4.2.2) from
// begin() to commit(), and fills what the terminal displays (clause 2.4.3.3). An unused item
// number (the 1% of clause 2.4.1.4) rolls the whole transaction back (clause 2.4.2.3): the
// result is then rolled_back and only the fields the spec shows for that case are set (w_id,
// d_id, c_id, c_last, c_credit, o_id, item_not_valid).
//
// Round trips (PostgreSQL pipelines them, session.hpp): 2.
//   1. BEGIN + district next-order-id read-and-increment (UPDATE ... RETURNING) + warehouse
//      tax + customer + every item + every stock update with its quantity rule (UPDATE ...
//      RETURNING, in (supply warehouse, item) order so that concurrent orders lock stock rows
//      in the same order and cannot deadlock).
//   2. ORDER + NEW-ORDER + every ORDER-LINE inserts + COMMIT.
//
// Awaiting run_new_order(s, in, out):
//   Result: ok (committed); rolled_back (unused item); retryable, connection_lost or failed
//           from the first statement that did not succeed, after a rollback (none when the
//           connection is lost). `out` is meaningful only when ok or rolled_back.
//   Errors: std::bad_alloc only; std::logic_error when a column has an unexpected type (a
//           schema mismatch, never data).
//   Cancellation: the session's calls inherit the chain's stop token (session.hpp).
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session; `in` and `out` must outlive the await.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "shoal/task.hpp"
#include "txn/inputs.hpp"

namespace tpcc::txn {

// One line as displayed (clause 2.4.3.3).
struct new_order_line_output {
  std::int64_t supply_w_id = 0;
  std::int64_t i_id = 0;
  std::string i_name;
  std::int64_t quantity = 0;
  std::int64_t s_quantity = 0;  // after this order's update
  char brand_generic = 'G';     // 'B' when I_DATA and S_DATA both contain "ORIGINAL"
  double i_price = 0;
  double ol_amount = 0;
};

struct new_order_output {
  std::int64_t w_id = 0;
  std::int64_t d_id = 0;
  std::int64_t c_id = 0;
  std::string c_last;
  std::string c_credit;
  double c_discount = 0;
  double w_tax = 0;
  double d_tax = 0;
  std::int64_t o_ol_cnt = 0;
  std::int64_t o_id = 0;
  std::string o_entry_d;
  double total_amount = 0;  // sum(OL_AMOUNT) * (1 - C_DISCOUNT) * (1 + W_TAX + D_TAX)
  std::vector<new_order_line_output> lines;
  bool item_not_valid = false;  // "Item number is not valid": the transaction rolled back
};

// The line indexes of `in` in (supply warehouse, item) order: the order stock rows are updated
// in, client-side and in the stored procedure alike.
[[nodiscard]] std::vector<std::size_t> stock_order(const new_order_input& in);

shoal::task<driver::outcome> run_new_order(driver::session& s, const new_order_input& in,
                                           new_order_output& out);

}  // namespace tpcc::txn
