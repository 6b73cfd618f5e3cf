// SPDX-License-Identifier: Apache-2.0
// The Stock-Level transaction, clause 2.8.2 (stock_level.hpp).
#include "txn/stock_level.hpp"

#include <span>
#include <vector>

#include "txn/common.hpp"

namespace tpcc::txn {
namespace {

using driver::call;
using driver::outcome;
using driver::statement;
using driver::statement_result;

const statement next_order{"tpcc_sl_district",
                           "SELECT d_next_o_id FROM district WHERE d_w_id = $1 AND d_id = $2"};
const statement low_stock{"tpcc_sl_low_stock",
                          "SELECT count(DISTINCT s_i_id) FROM order_line, stock, district "
                          "WHERE d_w_id = $1 AND d_id = $2 AND ol_w_id = $1 AND ol_d_id = $2 "
                          "AND ol_o_id < d_next_o_id AND ol_o_id >= d_next_o_id - 20 "
                          "AND s_w_id = $1 AND s_i_id = ol_i_id AND s_quantity < $3"};

std::vector<call> calls(const stock_level_input& in) {
  std::vector<call> out;
  out.reserve(2);
  out.push_back(make_call(next_order, params(in.w_id, in.d_id)));
  out.push_back(make_call(low_stock, params(in.w_id, in.d_id, in.threshold)));
  return out;
}

outcome take(std::span<const statement_result> r, stock_level_output& out) {
  outcome failure = first_failure(r);
  if (!failure.ok()) return failure;
  outcome d = one_row(r[0], "district");
  if (!d.ok()) return d;
  outcome c = one_row(r[1], "low stock count");
  if (!c.ok()) return c;
  out.next_o_id = r[0].rows[0].int_at(0);
  out.low_stock = r[1].rows[0].int_at(0);
  return outcome::success();
}

}  // namespace

shoal::task<driver::outcome> run_stock_level(driver::session& s, const stock_level_input& in,
                                             stock_level_output& out) {
  out.w_id = in.w_id;
  out.d_id = in.d_id;
  out.threshold = in.threshold;
  const outcome began = co_await s.begin();
  if (!began.ok()) {
    outcome why = co_await abandon(s, began);
    co_return why;
  }
  const std::vector<call> batch = calls(in);
  const std::vector<statement_result> got = co_await s.execute_batch(batch, driver::then::commit);
  const outcome status = take(got, out);
  if (!status.ok()) {
    outcome why = co_await abandon(s, status);
    co_return why;
  }
  co_return outcome::success();
}

}  // namespace tpcc::txn
