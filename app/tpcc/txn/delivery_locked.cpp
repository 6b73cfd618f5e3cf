// SPDX-License-Identifier: Apache-2.0
// Delivery in one statement per table where statements cannot return rows (delivery_locked.hpp).
#include "txn/delivery_locked.hpp"

#include <cstdint>
#include <string>

#include "txn/common.hpp"
#include "txn/line_statements.hpp"

namespace tpcc::txn::detail {
namespace {

using driver::call;
using driver::outcome;
using driver::statement_result;

std::string oldest_text() {
  std::string sql;
  for (std::size_t d = 1; d <= districts_per_warehouse; ++d) {
    if (d > 1) sql += " UNION ALL ";
    sql += "(SELECT no_d_id, no_o_id FROM new_order WHERE no_w_id = $1 AND no_d_id = " +
           std::to_string(d) + " ORDER BY no_o_id LIMIT 1 FOR UPDATE)";
  }
  return sql;
}

const std::string oldest_sql = oldest_text();
const driver::statement oldest{"tpcc_dl_oldest_locked", oldest_sql};

// "(d_col, o_col) IN (($first, $first+1), ...)" for `orders` delivered orders.
std::string delivered_in(std::string_view d_col, std::string_view o_col, std::size_t first,
                         std::size_t orders) {
  std::string sql = "(";
  sql.append(d_col).append(", ").append(o_col).append(") IN (");
  for (std::size_t k = 0; k < orders; ++k) {
    if (k > 0) sql += ", ";
    sql.append("(").append(placeholder_list(first + 2 * k, 2)).append(")");
  }
  return sql + ")";
}

// $1 the warehouse, then the delivered orders' (district, order) pairs.
std::string delete_text(std::size_t orders) {
  return "DELETE FROM new_order WHERE no_w_id = $1 AND " +
         delivered_in("no_d_id", "no_o_id", 2, orders);
}

// $1 the warehouse, $2 the carrier, then the pairs. Each customer is another district's, so
// each is updated once, by its one order's lines.
std::string orders_customer_text(std::size_t orders) {
  return "UPDATE orders JOIN customer ON c_w_id = o_w_id AND c_d_id = o_d_id AND c_id = o_c_id "
         "SET o_carrier_id = $2, c_balance = c_balance + (SELECT sum(ol_amount) FROM order_line "
         "WHERE ol_w_id = o_w_id AND ol_d_id = o_d_id AND ol_o_id = o_id), "
         "c_delivery_cnt = c_delivery_cnt + 1 WHERE o_w_id = $1 AND " +
         delivered_in("o_d_id", "o_id", 3, orders);
}

// $1 the warehouse, $2 the delivery date, then the pairs.
std::string order_lines_text(std::size_t orders) {
  return "UPDATE order_line SET ol_delivery_d = $2 WHERE ol_w_id = $1 AND " +
         delivered_in("ol_d_id", "ol_o_id", 3, orders);
}

const line_statements delete_new_orders{"tpcc_dl_delete_locked", delete_text, nullptr};
const line_statements deliver_orders{"tpcc_dl_orders_locked", orders_customer_text, nullptr};
const line_statements deliver_lines{"tpcc_dl_lines_locked", order_lines_text, nullptr};

std::size_t delivered_count(const delivery_output& out) {
  return districts_per_warehouse - static_cast<std::size_t>(out.skipped);
}

// `head` then each delivered order's (district, order).
std::vector<driver::value> with_pairs(std::vector<driver::value> head, const delivery_output& out) {
  for (std::size_t i = 0; i < districts_per_warehouse; ++i) {
    if (out.delivered_o_id[i] == 0) continue;
    head.emplace_back(static_cast<std::int64_t>(i + 1));
    head.emplace_back(out.delivered_o_id[i]);
  }
  return head;
}

outcome refused(const char* why) { return outcome::make(driver::outcome_kind::failed, "", why); }

}  // namespace

std::vector<call> locked_oldest_calls(const delivery_input& in) {
  std::vector<call> out;
  out.push_back(make_call(oldest, params(in.w_id)));
  return out;
}

outcome take_locked_oldest(std::span<const statement_result> r, delivery_output& out) {
  outcome failure = first_failure(r);
  if (!failure.ok()) return failure;
  out.delivered_o_id.fill(0);
  for (const driver::row& row : r[0].rows) {
    const std::int64_t d_id = row.int_at(0);
    if (d_id < 1 || d_id > static_cast<std::int64_t>(districts_per_warehouse)) {
      return refused("delivery: the oldest NEW-ORDER read returned a district out of range");
    }
    out.delivered_o_id[static_cast<std::size_t>(d_id - 1)] = row.int_at(1);
  }
  out.skipped = 0;
  for (const std::int64_t o_id : out.delivered_o_id) out.skipped += o_id == 0 ? 1 : 0;
  return outcome::success();
}

std::vector<call> locked_delivery_calls(const delivery_input& in, const delivery_output& out) {
  const std::size_t orders = delivered_count(out);
  std::vector<call> calls;
  if (orders == 0) return calls;
  calls.push_back(make_call(delete_new_orders.of(orders), with_pairs(params(in.w_id), out)));
  calls.push_back(
      make_call(deliver_orders.of(orders), with_pairs(params(in.w_id, in.o_carrier_id), out)));
  calls.push_back(
      make_call(deliver_lines.of(orders), with_pairs(params(in.w_id, out.delivery_d), out)));
  return calls;
}

outcome check_locked_delivery(std::span<const statement_result> r, const delivery_output& out) {
  outcome failure = first_failure(r);
  if (!failure.ok()) return failure;
  const auto orders = static_cast<std::int64_t>(delivered_count(out));
  if (r.size() < 2 || r[0].affected != orders) {
    return refused("delivery: a locked NEW-ORDER row was not deleted");
  }
  if (r[1].affected != 2 * orders) {
    return refused("delivery: an undelivered order has no ORDERS or CUSTOMER row");
  }
  return outcome::success();
}

}  // namespace tpcc::txn::detail
