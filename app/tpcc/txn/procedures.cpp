// SPDX-License-Identifier: Apache-2.0
// The five transactions as one stored-procedure call each (procedures.hpp).
#include "txn/procedures.hpp"

#include <span>
#include <string>
#include <utility>
#include <vector>

#include "txn/common.hpp"
#include "txn/packed.hpp"
#include "txn/procedure_rows.hpp"

namespace tpcc::txn {
namespace {

using driver::call;
using driver::outcome;
using driver::statement;
using driver::statement_result;

// PostgreSQL selects the function's OUT parameters (one row); MySQL CALLs the procedure, whose
// last SELECT is that row.
const statement new_order_proc{"tpcc_call_new_order",
                               "SELECT * FROM tpcc_new_order($1, $2, $3, $4, $5, $6, $7, $8)",
                               "CALL tpcc_new_order($1, $2, $3, $4, $5, $6, $7, $8)"};
const statement payment_proc{"tpcc_call_payment",
                             "SELECT * FROM tpcc_payment($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                             "CALL tpcc_payment($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"};
const statement order_status_proc{"tpcc_call_order_status",
                                  "SELECT * FROM tpcc_order_status($1, $2, $3, $4, $5)",
                                  "CALL tpcc_order_status($1, $2, $3, $4, $5)"};
const statement delivery_proc{"tpcc_call_delivery", "SELECT * FROM tpcc_delivery($1, $2, $3)",
                              "CALL tpcc_delivery($1, $2, $3)"};
const statement stock_level_proc{"tpcc_call_stock_level",
                                 "SELECT * FROM tpcc_stock_level($1, $2, $3)",
                                 "CALL tpcc_stock_level($1, $2, $3)"};

// The unused-item rollback the New-Order routine raises.
constexpr std::string_view rollback_sqlstate = "TPCRB";

// New-Order's lines as the routine takes them: lists in stock-update order.
call new_order_call(const new_order_input& in, const std::string& entry_d) {
  std::vector<std::int64_t> numbers, items, supply, quantities;
  for (const std::size_t i : stock_order(in)) {
    numbers.push_back(static_cast<std::int64_t>(i + 1));
    items.push_back(in.lines[i].i_id);
    supply.push_back(in.lines[i].supply_w_id);
    quantities.push_back(in.lines[i].quantity);
  }
  return make_call(new_order_proc, params(in.w_id, in.d_id, in.c_id, joined(numbers), joined(items),
                                          joined(supply), joined(quantities), entry_d));
}

// What a BC customer's C_DATA gains after its C_ID, which the routine knows (by name) and puts
// in front: " C_D_ID C_W_ID D_ID W_ID H_AMOUNT |".
std::string bc_tail(const payment_input& in) {
  const std::string whole = bc_prefix(in, 0);
  return whole.substr(whole.find(' '));
}

call payment_call(const payment_input& in, const std::string& h_date) {
  const customer_choice& c = in.customer;
  const std::int64_t by_name = c.by_last_name ? 1 : 0;
  return make_call(payment_proc, params(in.w_id, in.d_id, in.c_w_id, in.c_d_id, c.c_id, c.c_last,
                                        by_name, round_cents(in.h_amount), bc_tail(in), h_date));
}

call order_status_call(const order_status_input& in) {
  const customer_choice& c = in.customer;
  const std::int64_t by_name = c.by_last_name ? 1 : 0;
  return make_call(order_status_proc, params(in.w_id, in.d_id, c.c_id, c.c_last, by_name));
}

// BEGIN, the call and COMMIT as one batch; the routine's one row into `got`, or why not (after
// a rollback).
shoal::task<outcome> call_once(driver::session& s, const call& c, statement_result& got) {
  const outcome began = co_await s.begin();
  if (!began.ok()) {
    outcome why = co_await abandon(s, began);
    co_return why;
  }
  std::vector<statement_result> r =
      co_await s.execute_batch(std::span<const call>(&c, 1), driver::then::commit);
  const outcome failure = first_failure(r);
  if (!failure.ok()) {
    outcome why = co_await abandon(s, failure);
    co_return why;
  }
  got = std::move(r[0]);
  co_return one_row(got, "the procedure's result");
}

// The call as a whole transaction, its row read into `out` by `take` when it committed.
template <class Output>
shoal::task<outcome> call_into(driver::session& s, const call& c,
                               void (*take)(const driver::row&, Output&), Output& out) {
  statement_result got;
  const outcome status = co_await call_once(s, c, got);
  if (status.ok()) take(got.rows[0], out);
  co_return status;
}

}  // namespace

shoal::task<outcome> call_new_order(driver::session& s, const new_order_input& in,
                                    new_order_output& out) {
  out.o_entry_d = now_text();
  const call c = new_order_call(in, out.o_entry_d);
  statement_result got;
  const outcome status = co_await call_once(s, c, got);
  if (status.sqlstate == rollback_sqlstate) co_return rolled_back_order(in, status, out);
  if (status.ok()) take_new_order_row(in, got.rows[0], out);
  co_return status;
}

shoal::task<outcome> call_payment(driver::session& s, const payment_input& in,
                                  payment_output& out) {
  payment_keys(in, now_text(), out);
  const call c = payment_call(in, out.h_date);
  co_return co_await call_into(s, c, &take_payment_row, out);
}

shoal::task<outcome> call_order_status(driver::session& s, const order_status_input& in,
                                       order_status_output& out) {
  out.w_id = in.w_id;
  out.d_id = in.d_id;
  const call c = order_status_call(in);
  co_return co_await call_into(s, c, &take_order_status_row, out);
}

shoal::task<outcome> call_delivery(driver::session& s, const delivery_input& in,
                                   delivery_output& out) {
  out.w_id = in.w_id;
  out.o_carrier_id = in.o_carrier_id;
  out.delivery_d = now_text();
  const call c = make_call(delivery_proc, params(in.w_id, in.o_carrier_id, out.delivery_d));
  co_return co_await call_into(s, c, &take_delivery_row, out);
}

shoal::task<outcome> call_stock_level(driver::session& s, const stock_level_input& in,
                                      stock_level_output& out) {
  out.w_id = in.w_id;
  out.d_id = in.d_id;
  out.threshold = in.threshold;
  const call c = make_call(stock_level_proc, params(in.w_id, in.d_id, in.threshold));
  co_return co_await call_into(s, c, &take_stock_level_row, out);
}

}  // namespace tpcc::txn
