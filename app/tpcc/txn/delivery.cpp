// SPDX-License-Identifier: Apache-2.0
// The Delivery transaction, clause 2.7.4 (delivery.hpp).
#include "txn/delivery.hpp"

#include <span>
#include <vector>

#include "txn/common.hpp"
#include "txn/delivery_locked.hpp"

namespace tpcc::txn {
namespace {

using driver::call;
using driver::outcome;
using driver::statement;
using driver::statement_result;

const statement oldest_new_order{
    "tpcc_dl_new_order",
    "DELETE FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = "
    "(SELECT min(no_o_id) FROM new_order WHERE no_w_id = $1 AND no_d_id = $2) "
    "RETURNING no_o_id"};  // never on MySQL (no DELETE ... RETURNING): delivery_locked.hpp
const statement carrier{"tpcc_dl_orders",
                        "UPDATE orders SET o_carrier_id = $4 "
                        "WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3"};
const statement delivered_lines{"tpcc_dl_order_line",
                                "UPDATE order_line SET ol_delivery_d = $4 "
                                "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3"};
const statement customer_delivered{
    "tpcc_dl_customer",
    "UPDATE customer SET c_balance = c_balance + (SELECT sum(ol_amount) FROM order_line "
    "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3), "
    "c_delivery_cnt = c_delivery_cnt + 1 WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = "
    "(SELECT o_c_id FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3)"};

std::vector<call> first_calls(const delivery_input& in) {
  std::vector<call> out;
  out.reserve(districts_per_warehouse);
  for (std::size_t d = 1; d <= districts_per_warehouse; ++d) {
    out.push_back(make_call(oldest_new_order, params(in.w_id, static_cast<std::int64_t>(d))));
  }
  return out;
}

outcome take_oldest(std::span<const statement_result> r, delivery_output& out) {
  outcome failure = first_failure(r);
  if (!failure.ok()) return failure;
  out.skipped = 0;
  for (std::size_t i = 0; i < districts_per_warehouse; ++i) {
    out.delivered_o_id[i] = r[i].rows.empty() ? 0 : r[i].rows[0].int_at(0);
    if (r[i].rows.empty()) ++out.skipped;
  }
  return outcome::success();
}

std::vector<call> second_calls(const delivery_input& in, const delivery_output& out) {
  std::vector<call> calls;
  calls.reserve(3 * districts_per_warehouse);
  for (std::size_t i = 0; i < districts_per_warehouse; ++i) {
    const std::int64_t o_id = out.delivered_o_id[i];
    if (o_id == 0) continue;
    const auto d_id = static_cast<std::int64_t>(i + 1);
    calls.push_back(make_call(carrier, params(in.w_id, d_id, o_id, in.o_carrier_id)));
    calls.push_back(make_call(delivered_lines, params(in.w_id, d_id, o_id, out.delivery_d)));
    calls.push_back(make_call(customer_delivered, params(in.w_id, d_id, o_id)));
  }
  return calls;
}

// Every ORDERS and CUSTOMER update of a delivered order must have found its row.
outcome check_updates(std::span<const statement_result> r) {
  outcome failure = first_failure(r);
  if (!failure.ok()) return failure;
  for (std::size_t i = 0; i + 2 < r.size(); i += 3) {
    if (r[i].affected != 1 || r[i + 2].affected != 1) {
      return outcome::make(driver::outcome_kind::failed, "",
                           "delivery: an undelivered order has no ORDERS or CUSTOMER row");
    }
  }
  return outcome::success();
}

// The second batch with its COMMIT, its answers checked (by check_locked_delivery when
// `locked`, delivery_locked.hpp).
shoal::task<outcome> deliver(driver::session& s, const std::vector<call>& calls, bool locked,
                             const delivery_output& out) {
  if (calls.empty()) {
    outcome committed = co_await s.commit();
    co_return committed;
  }
  const std::vector<statement_result> got = co_await s.execute_batch(calls, driver::then::commit);
  co_return locked ? detail::check_locked_delivery(got, out) : check_updates(got);
}

}  // namespace

shoal::task<driver::outcome> run_delivery(driver::session& s, const delivery_input& in,
                                          delivery_output& out) {
  out.w_id = in.w_id;
  out.o_carrier_id = in.o_carrier_id;
  out.delivery_d = now_text();
  const outcome began = co_await s.begin();
  if (!began.ok()) {
    outcome why = co_await abandon(s, began);
    co_return why;
  }
  // Where statements cannot return the rows they change (MySQL), one statement per table.
  const bool locked = !s.update_returning();
  const std::vector<call> first = locked ? detail::locked_oldest_calls(in) : first_calls(in);
  const std::vector<statement_result> got = co_await s.execute_batch(first, driver::then::nothing);
  outcome status = locked ? detail::take_locked_oldest(got, out) : take_oldest(got, out);
  if (status.ok()) {
    const std::vector<call> second =
        locked ? detail::locked_delivery_calls(in, out) : second_calls(in, out);
    status = co_await deliver(s, second, locked, out);
  }
  if (!status.ok()) {
    outcome why = co_await abandon(s, status);
    co_return why;
  }
  co_return outcome::success();
}

}  // namespace tpcc::txn
