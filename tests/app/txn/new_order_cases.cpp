// SPDX-License-Identifier: Apache-2.0
// New-Order checks (new_order_cases.hpp).
#include "new_order_cases.hpp"

#include <gtest/gtest.h>

#include "dataset.hpp"
#include "txn/new_order.hpp"

namespace txn_test {
namespace {

using tpcc::driver::outcome;
using tpcc::driver::outcome_kind;
using tpcc::driver::row;
using tpcc::txn::new_order_input;
using tpcc::txn::new_order_output;
using tpcc::txn::order_line_input;

// Warehouse 1, district 3 (empty: D_NEXT_O_ID 1), the BC customer 5 (discount 0.05):
// item 3 (stock 13: 13 - 5 < 10, so +91), item 20 (stock 30: 30 - 5 >= 10), item 8 from
// warehouse 2 (remote), item 4 (stock 14, quantity 1: 14 >= 11).
new_order_input four_lines() {
  new_order_input in;
  in.w_id = 1;
  in.d_id = 3;
  in.c_id = 5;
  in.lines.push_back(order_line_input{.i_id = 3, .supply_w_id = 1, .quantity = 5});
  in.lines.push_back(order_line_input{.i_id = 20, .supply_w_id = 1, .quantity = 5});
  in.lines.push_back(order_line_input{.i_id = 8, .supply_w_id = 2, .quantity = 2});
  in.lines.push_back(order_line_input{.i_id = 4, .supply_w_id = 1, .quantity = 1});
  return in;
}

new_order_input with_unused_item() {
  new_order_input in;
  in.w_id = 1;
  in.d_id = 1;
  in.c_id = 7;
  in.rollback = true;
  in.lines.push_back(order_line_input{.i_id = 1, .supply_w_id = 1, .quantity = 1});
  in.lines.push_back(order_line_input{.i_id = 100001, .supply_w_id = 1, .quantity = 1});
  return in;
}

// Item 20 (stock 30) ordered twice from warehouse 1: one item row read, two lines written.
new_order_input repeated_item() {
  new_order_input in;
  in.w_id = 1;
  in.d_id = 3;
  in.c_id = 5;
  in.lines.push_back(order_line_input{.i_id = 20, .supply_w_id = 1, .quantity = 1});
  in.lines.push_back(order_line_input{.i_id = 20, .supply_w_id = 1, .quantity = 2});
  return in;
}

void expect_header(const new_order_output& out) {
  EXPECT_EQ(out.o_id, 1);
  EXPECT_EQ(out.c_last, "LAST5");
  EXPECT_EQ(out.c_credit, "BC");
  EXPECT_NEAR(out.c_discount, 0.05, 1e-9);
  EXPECT_NEAR(out.w_tax, 0.1, 1e-9);
  EXPECT_NEAR(out.d_tax, 0.03, 1e-9);
  EXPECT_EQ(out.o_ol_cnt, 4);
  EXPECT_EQ(out.o_entry_d.size(), 19u) << out.o_entry_d;
  EXPECT_FALSE(out.item_not_valid);
}

void expect_line(const new_order_output& out, std::size_t i, std::int64_t s_quantity, char brand) {
  if (out.lines.size() <= i) return;
  const auto& l = out.lines[i];
  EXPECT_EQ(l.s_quantity, s_quantity) << "line " << i + 1;
  EXPECT_EQ(l.brand_generic, brand) << "line " << i + 1;
  EXPECT_EQ(l.i_name, "item-" + std::to_string(l.i_id));
  EXPECT_NEAR(l.i_price, item_price(l.i_id), 1e-9);
  EXPECT_NEAR(l.ol_amount, item_price(l.i_id) * static_cast<double>(l.quantity), 1e-9);
}

void expect_output(const new_order_output& out) {
  expect_header(out);
  EXPECT_EQ(out.lines.size(), 4u);
  expect_line(out, 0, 13 - 5 + 91, 'G');
  expect_line(out, 1, 30 - 5, 'B');
  expect_line(out, 2, 100 - 2, 'B');
  expect_line(out, 3, 14 - 1, 'B');
  const double sum = 5 * item_price(3) + 5 * item_price(20) + 2 * item_price(8) + item_price(4);
  EXPECT_NEAR(out.total_amount, sum * (1 - 0.05) * (1 + 0.1 + 0.03), 1e-6);
}

void expect_stock(const row& r, std::int64_t quantity, std::int64_t ytd, std::int64_t remote) {
  EXPECT_EQ(r.int_at(0), quantity);
  EXPECT_EQ(r.int_at(1), ytd);
  EXPECT_EQ(r.int_at(2), 1);
  EXPECT_EQ(r.int_at(3), remote);
}

void expect_lines(const std::vector<row>& lines) {
  EXPECT_EQ(lines.size(), 4u);
  if (lines.size() != 4) return;
  EXPECT_EQ(lines[0].int_at(1), 3);
  EXPECT_EQ(lines[2].int_at(2), 2) << "supply warehouse of the remote line";
  EXPECT_EQ(lines[1].int_at(3), 5);
  EXPECT_NEAR(lines[1].number_at(4), 5 * item_price(20), 1e-9);
  EXPECT_EQ(lines[0].text_at(5), dist_info(1, 3, 3)) << "S_DIST_03 of the supplying stock";
  EXPECT_EQ(lines[2].text_at(5), dist_info(2, 3, 8));
  EXPECT_TRUE(lines[0].null_at(6)) << "not delivered yet";
}

shoal::task<void> expect_rows_written(tpcc::driver::session& s) {
  const row district = co_await one(s, district_row, ints(1, 3));
  EXPECT_EQ(district.int_at(0), 2) << "D_NEXT_O_ID incremented";
  const row order = co_await one(s, order_row, ints(1, 3, 1));
  EXPECT_EQ(order.int_at(0), 5);
  EXPECT_TRUE(order.null_at(1));
  EXPECT_EQ(order.int_at(2), 4);
  EXPECT_EQ(order.int_at(3), 0) << "one line is remote";
  const row queued = co_await one(s, new_order_count, ints(1, 3, 1));
  EXPECT_EQ(queued.int_at(0), 1);
  expect_lines(co_await query(s, order_lines, ints(1, 3, 1)));
}

shoal::task<void> expect_stock_updated(tpcc::driver::session& s) {
  expect_stock(co_await one(s, stock_row, ints(1, 3)), 99, 5, 0);
  expect_stock(co_await one(s, stock_row, ints(1, 20)), 25, 5, 0);
  expect_stock(co_await one(s, stock_row, ints(2, 8)), 98, 2, 1);
  expect_stock(co_await one(s, stock_row, ints(1, 4)), 13, 1, 0);
}

}  // namespace

shoal::task<void> expect_new_order_committed(tpcc::driver::session& s) {
  const new_order_input in = four_lines();
  new_order_output out;
  const outcome result = co_await tpcc::txn::run_new_order(s, in, out);
  EXPECT_TRUE(result.ok()) << result.message;
  expect_output(out);
  co_await expect_rows_written(s);
  co_await expect_stock_updated(s);
}

shoal::task<void> expect_new_order_rolled_back(tpcc::driver::session& s) {
  const new_order_input in = with_unused_item();
  new_order_output out;
  const outcome result = co_await tpcc::txn::run_new_order(s, in, out);
  EXPECT_EQ(result.kind, outcome_kind::rolled_back) << result.message;
  EXPECT_TRUE(out.item_not_valid);
  EXPECT_EQ(out.o_id, 4) << "the number the order would have had";
  EXPECT_EQ(out.c_last, "LAST7");
  EXPECT_EQ(out.c_credit, "GC");
  const row district = co_await one(s, district_row, ints(1, 1));
  EXPECT_EQ(district.int_at(0), 4) << "D_NEXT_O_ID unchanged";
  const row orders = co_await one(s, orders_count, values());
  EXPECT_EQ(orders.int_at(0), 5) << "no order row added";
  const row stock = co_await one(s, stock_row, ints(1, 1));
  EXPECT_EQ(stock.int_at(0), 11) << "the valid line's stock update was rolled back";
  EXPECT_EQ(stock.int_at(2), 0);
}

shoal::task<void> expect_new_order_repeated_item(tpcc::driver::session& s) {
  const new_order_input in = repeated_item();
  new_order_output out;
  const outcome result = co_await tpcc::txn::run_new_order(s, in, out);
  EXPECT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(out.lines.size(), 2u);
  expect_line(out, 0, 30 - 1, 'B');
  expect_line(out, 1, 30 - 1 - 2, 'B');
  const std::vector<row> lines = co_await query(s, order_lines, ints(1, 3, 1));
  EXPECT_EQ(lines.size(), 2u);
  for (const row& line : lines) EXPECT_EQ(line.int_at(1), 20);
  const row stock = co_await one(s, stock_row, ints(1, 20));
  EXPECT_EQ(stock.int_at(0), 27);
  EXPECT_EQ(stock.int_at(1), 3) << "S_YTD";
  EXPECT_EQ(stock.int_at(2), 2) << "S_ORDER_CNT: once per line";
}

}  // namespace txn_test
