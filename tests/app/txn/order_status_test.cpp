// SPDX-License-Identifier: Apache-2.0
// Order-Status (clause 2.6) against the hand-built dataset (dataset.hpp) in a SQLite file: the
// latest order of a customer with its lines, by number and by last name, and a customer with no
// order.
#include <gtest/gtest.h>

#include "dataset.hpp"
#include "txn/order_status.hpp"

namespace txn_test {
namespace {

using tpcc::driver::outcome;
using tpcc::txn::order_status_input;
using tpcc::txn::order_status_output;

order_status_input status_by_number(std::int64_t d_id, std::int64_t c_id) {
  order_status_input in;
  in.w_id = 1;
  in.d_id = d_id;
  in.customer.c_id = c_id;
  return in;
}

order_status_input by_name(std::int64_t d_id, std::string last) {
  order_status_input in;
  in.w_id = 1;
  in.d_id = d_id;
  in.customer.by_last_name = true;
  in.customer.c_last = std::move(last);
  return in;
}

// Customer 7 of (1,1) has orders 1 (delivered) and 3 (not): 3 is the latest, items 6-10.
void expect_latest_of_customer_7(const order_status_output& out) {
  EXPECT_EQ(out.c_id, 7);
  EXPECT_EQ(out.c_first, "FIRST7");
  EXPECT_EQ(out.c_middle, "OE");
  EXPECT_EQ(out.c_last, "LAST7");
  EXPECT_NEAR(out.c_balance, -10, 1e-9);
  EXPECT_EQ(out.o_id, 3);
  EXPECT_EQ(out.o_entry_d.substr(0, 19), old_date);
  EXPECT_FALSE(out.o_carrier_id.has_value());
  EXPECT_EQ(out.lines.size(), 5u);
  for (std::size_t n = 0; n < out.lines.size(); ++n) {
    EXPECT_EQ(out.lines[n].i_id, static_cast<std::int64_t>(6 + n));
    EXPECT_EQ(out.lines[n].supply_w_id, 1);
    EXPECT_EQ(out.lines[n].quantity, 5);
    EXPECT_NEAR(out.lines[n].amount, 10.0 * static_cast<double>(n + 1), 1e-9);
    EXPECT_TRUE(out.lines[n].delivery_d.empty());
  }
}

shoal::task<void> latest_order_by_number(tpcc::driver::session& s) {
  const order_status_input in = status_by_number(1, 7);
  order_status_output out;
  const outcome result = co_await tpcc::txn::run_order_status(s, in, out);
  EXPECT_TRUE(result.ok()) << result.message;
  expect_latest_of_customer_7(out);
}

// "SHARED" in (1,2): BOB, customer 12, whose orders are 1 (delivered by carrier 1) and 24.
shoal::task<void> latest_order_by_name(tpcc::driver::session& s) {
  const order_status_input in = by_name(2, "SHARED");
  order_status_output out;
  const outcome result = co_await tpcc::txn::run_order_status(s, in, out);
  EXPECT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(out.c_id, 12);
  EXPECT_EQ(out.c_first, "BOB");
  EXPECT_EQ(out.o_id, 24);
  EXPECT_EQ(out.lines.size(), 5u);
  if (!out.lines.empty()) {
    EXPECT_EQ(out.lines[0].i_id, 2);
  }
}

shoal::task<void> no_order_for_customer(tpcc::driver::session& s) {
  const order_status_input in = status_by_number(1, 12);  // (1,1) customer 12 has no order
  order_status_output out;
  const outcome result = co_await tpcc::txn::run_order_status(s, in, out);
  EXPECT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(out.o_id, 0);
  EXPECT_TRUE(out.lines.empty());
}

TEST(order_status, ByNumberReturnsTheLatestOrderAndItsLines) {
  sqlite_fixture f;
  f.run(&latest_order_by_number);
}

TEST(order_status, ByNameReturnsTheMiddleCustomersLatestOrder) {
  sqlite_fixture f;
  f.run(&latest_order_by_name);
}

TEST(order_status, CustomerWithoutOrdersHasNoOrderShown) {
  sqlite_fixture f;
  f.run(&no_order_for_customer);
}

}  // namespace
}  // namespace txn_test
