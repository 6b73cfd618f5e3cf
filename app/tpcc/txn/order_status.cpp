// SPDX-License-Identifier: Apache-2.0
// The Order-Status transaction, clause 2.6.2 (order_status.hpp).
#include "txn/order_status.hpp"

#include <span>

#include "txn/by_last_name.hpp"
#include "txn/common.hpp"

namespace tpcc::txn {
namespace {

using driver::call;
using driver::outcome;
using driver::statement;
using driver::statement_result;

const statement customer_balance{"tpcc_os_customer",
                                 "SELECT c_first, c_middle, c_last, c_balance FROM customer "
                                 "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3"};
const statement latest_order{
    "tpcc_os_latest_order",
    "SELECT o_id, o_entry_d, o_carrier_id, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, "
    "ol_delivery_d FROM orders, order_line WHERE o_w_id = $1 AND o_d_id = $2 AND "
    "o_id = (SELECT max(o_id) FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_c_id = $3) "
    "AND ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id ORDER BY ol_number"};

void append_reads(const order_status_input& in, std::int64_t c_id, std::vector<call>& out) {
  out.push_back(make_call(customer_balance, params(in.w_id, in.d_id, c_id)));
  out.push_back(make_call(latest_order, params(in.w_id, in.d_id, c_id)));
}

std::vector<call> first_calls(const order_status_input& in) {
  std::vector<call> out;
  if (in.customer.by_last_name) {
    out.push_back(customers_by_name_call(in.w_id, in.d_id, in.customer.c_last));
  } else {
    append_reads(in, in.customer.c_id, out);
  }
  return out;
}

std::vector<call> second_calls(const order_status_input& in, std::int64_t c_id) {
  std::vector<call> out;
  append_reads(in, c_id, out);
  return out;
}

order_status_line take_line(const driver::row& r) {
  order_status_line l;
  l.i_id = r.int_at(3);
  l.supply_w_id = r.int_at(4);
  l.quantity = r.int_at(5);
  l.amount = r.number_at(6);
  if (!r.null_at(7)) l.delivery_d = r.text_at(7);
  return l;
}

// Results [customer, latest order with lines] (then the commit).
outcome take_reads(std::span<const statement_result> r, order_status_output& out) {
  outcome failure = first_failure(r);
  if (!failure.ok()) return failure;
  outcome c = one_row(r[0], "customer");
  if (!c.ok()) return c;
  out.c_first = r[0].rows[0].text_at(0);
  out.c_middle = r[0].rows[0].text_at(1);
  out.c_last = r[0].rows[0].text_at(2);
  out.c_balance = r[0].rows[0].number_at(3);
  out.lines.clear();
  for (const driver::row& row : r[1].rows) out.lines.push_back(take_line(row));
  if (r[1].rows.empty()) return outcome::success();
  const driver::row& first = r[1].rows[0];
  out.o_id = first.int_at(0);
  out.o_entry_d = first.text_at(1);
  if (!first.null_at(2)) out.o_carrier_id = first.int_at(2);
  return outcome::success();
}

// The by-name lookup's result: the chosen customer, or why there is none.
outcome take_choice(std::span<const statement_result> r, const order_status_input& in,
                    order_status_output& out) {
  outcome failure = first_failure(r);
  if (!failure.ok()) return failure;
  return choose_by_name(r[0], in.customer.c_last, out.c_id);
}

shoal::task<outcome> read_chosen_customer(driver::session& s, const order_status_input& in,
                                          order_status_output& out) {
  const std::vector<call> second = second_calls(in, out.c_id);
  const std::vector<statement_result> got = co_await s.execute_batch(second, driver::then::commit);
  co_return take_reads(got, out);
}

}  // namespace

shoal::task<driver::outcome> run_order_status(driver::session& s, const order_status_input& in,
                                              order_status_output& out) {
  out.w_id = in.w_id;
  out.d_id = in.d_id;
  out.c_id = in.customer.c_id;
  const outcome began = co_await s.begin();
  if (!began.ok()) {
    outcome why = co_await abandon(s, began);
    co_return why;
  }
  const std::vector<call> first = first_calls(in);
  const std::vector<statement_result> got =
      co_await s.execute_batch(first, commit_unless_by_name(in.customer));
  outcome status = in.customer.by_last_name ? take_choice(got, in, out) : take_reads(got, out);
  if (status.ok() && in.customer.by_last_name) status = co_await read_chosen_customer(s, in, out);
  if (!status.ok()) {
    outcome why = co_await abandon(s, status);
    co_return why;
  }
  co_return outcome::success();
}

}  // namespace tpcc::txn
