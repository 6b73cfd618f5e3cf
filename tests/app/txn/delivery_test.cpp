// SPDX-License-Identifier: Apache-2.0
// Delivery (clause 2.7.4) against the hand-built dataset (dataset.hpp) in a SQLite file: the
// oldest undelivered order of each district is delivered, districts without one are skipped
// and counted, and the customer, order and lines are updated.
#include <gtest/gtest.h>

#include "dataset.hpp"
#include "txn/delivery.hpp"

namespace txn_test {
namespace {

using tpcc::driver::outcome;
using tpcc::driver::row;
using tpcc::txn::delivery_input;
using tpcc::txn::delivery_output;

delivery_input warehouse(std::int64_t w_id) {
  delivery_input in;
  in.w_id = w_id;
  in.o_carrier_id = 7;
  return in;
}

shoal::task<delivery_output> deliver(tpcc::driver::session& s, std::int64_t w_id) {
  const delivery_input in = warehouse(w_id);
  delivery_output out;
  const outcome result = co_await tpcc::txn::run_delivery(s, in, out);
  EXPECT_TRUE(result.ok()) << result.message;
  co_return out;
}

void expect_lines_delivered(const std::vector<row>& lines, const std::string& when) {
  EXPECT_EQ(lines.size(), 5u);
  for (const row& l : lines) EXPECT_EQ(l.text_at(6).substr(0, 19), when);
}

// (1,1) has new orders 2 (customer 8) and 3; (1,2) has 24 (customer 12); the rest none.
shoal::task<void> delivers_the_oldest_and_counts_skipped(tpcc::driver::session& s) {
  const delivery_output out = co_await deliver(s, 1);
  EXPECT_EQ(out.delivered_o_id[0], 2) << "the oldest of 2 and 3";
  EXPECT_EQ(out.delivered_o_id[1], 24);
  for (std::size_t d = 2; d < 10; ++d) EXPECT_EQ(out.delivered_o_id[d], 0);
  EXPECT_EQ(out.skipped, 8);
  const row gone = co_await one(s, new_order_count, ints(1, 1, 2));
  EXPECT_EQ(gone.int_at(0), 0);
  const row kept = co_await one(s, new_order_count, ints(1, 1, 3));
  EXPECT_EQ(kept.int_at(0), 1);
  const row order = co_await one(s, order_row, ints(1, 1, 2));
  EXPECT_EQ(order.int_at(1), 7) << "O_CARRIER_ID";
  expect_lines_delivered(co_await query(s, order_lines, ints(1, 1, 2)), out.delivery_d);
  const row customer = co_await one(s, customer_row, ints(1, 1, 8));
  EXPECT_NEAR(customer.number_at(0), -10 + 150, 1e-6) << "+ sum(OL_AMOUNT) = 10+20+30+40+50";
  EXPECT_EQ(customer.int_at(3), 1) << "C_DELIVERY_CNT";
  const row other = co_await one(s, customer_row, ints(1, 2, 12));
  EXPECT_NEAR(other.number_at(0), 140, 1e-6);
}

shoal::task<void> second_delivery_takes_the_next(tpcc::driver::session& s) {
  const delivery_output first = co_await deliver(s, 1);
  EXPECT_EQ(first.skipped, 8);
  const delivery_output second = co_await deliver(s, 1);
  EXPECT_EQ(second.delivered_o_id[0], 3);
  EXPECT_EQ(second.delivered_o_id[1], 0);
  EXPECT_EQ(second.skipped, 9);
  const row customer = co_await one(s, customer_row, ints(1, 1, 7));
  EXPECT_NEAR(customer.number_at(0), 140, 1e-6);
  const delivery_output third = co_await deliver(s, 1);
  EXPECT_EQ(third.skipped, 10);
}

shoal::task<void> empty_warehouse_skips_all(tpcc::driver::session& s) {
  const delivery_output out = co_await deliver(s, 2);
  EXPECT_EQ(out.skipped, 10);
  EXPECT_EQ(out.w_id, 2);
  EXPECT_EQ(out.o_carrier_id, 7);
}

TEST(delivery, DeliversTheOldestNewOrderAndCountsSkippedDistricts) {
  sqlite_fixture f;
  f.run(&delivers_the_oldest_and_counts_skipped);
}

TEST(delivery, ASecondDeliveryTakesTheNextOrder) {
  sqlite_fixture f;
  f.run(&second_delivery_takes_the_next);
}

TEST(delivery, WarehouseWithNothingToDeliverSkipsAllTen) {
  sqlite_fixture f;
  f.run(&empty_warehouse_skips_all);
}

}  // namespace
}  // namespace txn_test
