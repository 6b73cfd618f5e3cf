// SPDX-License-Identifier: Apache-2.0
// Payment checks (payment_cases.hpp).
#include "payment_cases.hpp"

#include <gtest/gtest.h>

#include <string>

#include "dataset.hpp"
#include "txn/payment.hpp"

namespace txn_test {
namespace {

using tpcc::driver::outcome;
using tpcc::driver::outcome_kind;
using tpcc::driver::row;
using tpcc::txn::payment_input;
using tpcc::txn::payment_output;

payment_input by_number(std::int64_t c_id, double amount) {
  payment_input in;
  in.w_id = 1;
  in.d_id = 1;
  in.c_w_id = 1;
  in.c_d_id = 1;
  in.customer.c_id = c_id;
  in.h_amount = amount;
  return in;
}

payment_input by_name(std::int64_t c_w_id, std::int64_t c_d_id, std::string last, double amount) {
  payment_input in;
  in.w_id = 1;
  in.d_id = 1;
  in.c_w_id = c_w_id;
  in.c_d_id = c_d_id;
  in.customer.by_last_name = true;
  in.customer.c_last = std::move(last);
  in.h_amount = amount;
  return in;
}

std::string bc_data_after() {
  return ("5 1 1 1 1 100.50 |" + std::string(500, 'd')).substr(0, 500);
}

void expect_by_number_output(const payment_output& out) {
  EXPECT_EQ(out.c_id, 5);
  EXPECT_EQ(out.c_first, "FIRST5");
  EXPECT_EQ(out.c_middle, "OE");
  EXPECT_EQ(out.c_last, "LAST5");
  EXPECT_EQ(out.c_credit, "BC");
  EXPECT_NEAR(out.c_balance, -110.5, 1e-6);
  EXPECT_NEAR(out.c_credit_lim, 50000, 1e-6);
  EXPECT_NEAR(out.c_discount, 0.05, 1e-9);
  EXPECT_EQ(out.c_data, bc_data_after().substr(0, 200)) << "the first 200 characters";
  EXPECT_EQ(out.warehouse.street_1, "w-street-1");
  EXPECT_EQ(out.warehouse.zip, "123411111");
  EXPECT_EQ(out.district.city, "d-city");
  EXPECT_EQ(out.customer.state, "CS");
  EXPECT_EQ(out.c_phone, "0123456789012345");
  EXPECT_NEAR(out.h_amount, 100.5, 1e-9);
  EXPECT_EQ(out.h_date.size(), 19u) << out.h_date;
}

void expect_history(const std::vector<row>& rows, std::int64_t c_id, std::int64_t c_d_id,
                    std::int64_t c_w_id, double amount) {
  EXPECT_EQ(rows.size(), 1u);
  if (rows.size() != 1) return;
  const row& h = rows[0];
  EXPECT_EQ(h.int_at(0), c_id);
  EXPECT_EQ(h.int_at(1), c_d_id);
  EXPECT_EQ(h.int_at(2), c_w_id);
  EXPECT_EQ(h.int_at(3), 1);
  EXPECT_EQ(h.int_at(4), 1);
  EXPECT_NEAR(h.number_at(5), amount, 1e-9);
  EXPECT_EQ(h.text_at(6), "WH-1    DIST-1") << "W_NAME, 4 spaces, D_NAME";
}

void expect_customer(const row& c, double balance, double ytd, const std::string& data) {
  EXPECT_NEAR(c.number_at(0), balance, 1e-6);
  EXPECT_NEAR(c.number_at(1), ytd, 1e-6);
  EXPECT_EQ(c.int_at(2), 2);
  EXPECT_EQ(c.text_at(4), data);
}

shoal::task<void> expect_ytd(tpcc::driver::session& s, double paid) {
  const row w = co_await one(s, warehouse_row, ints(1));
  EXPECT_NEAR(w.number_at(0), 300000 + paid, 1e-6);
  const row d = co_await one(s, district_row, ints(1, 1));
  EXPECT_NEAR(d.number_at(1), 30000 + paid, 1e-6);
}

}  // namespace

shoal::task<void> expect_payment_by_number(tpcc::driver::session& s) {
  const payment_input in = by_number(5, 100.5);
  payment_output out;
  const outcome result = co_await tpcc::txn::run_payment(s, in, out);
  EXPECT_TRUE(result.ok()) << result.message;
  expect_by_number_output(out);
  co_await expect_ytd(s, 100.5);
  expect_customer(co_await one(s, customer_row, ints(1, 1, 5)), -110.5, 110.5, bc_data_after());
  expect_history(co_await query(s, history_rows, values()), 5, 1, 1, 100.5);
}

shoal::task<void> expect_payment_by_name_remote(tpcc::driver::session& s) {
  const payment_input in = by_name(2, 2, "SHARED", 250);
  payment_output out;
  const outcome result = co_await tpcc::txn::run_payment(s, in, out);
  EXPECT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(out.c_id, 12) << "BOB, second of ALICE, BOB, CHARLIE";
  EXPECT_EQ(out.c_first, "BOB");
  EXPECT_EQ(out.c_w_id, 2);
  EXPECT_TRUE(out.c_data.empty()) << "C_DATA is shown for BC customers only";
  co_await expect_ytd(s, 250);
  expect_customer(co_await one(s, customer_row, ints(2, 2, 12)), -260, 260, "data-12");
  expect_history(co_await query(s, history_rows, values()), 12, 2, 2, 250);
}

shoal::task<void> expect_payment_by_name_even(tpcc::driver::session& s) {
  const payment_input in = by_name(1, 1, "PAIR", 1);
  payment_output out;
  const outcome result = co_await tpcc::txn::run_payment(s, in, out);
  EXPECT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(out.c_id, 21) << "ANNA, first of ANNA, ZED";
  expect_customer(co_await one(s, customer_row, ints(1, 1, 21)), -11, 11, "data-21");
}

shoal::task<void> expect_payment_to_nobody_rolls_back(tpcc::driver::session& s) {
  const payment_input in = by_number(99, 10);
  payment_output out;
  const outcome result = co_await tpcc::txn::run_payment(s, in, out);
  EXPECT_EQ(result.kind, outcome_kind::failed) << result.message;
  co_await expect_ytd(s, 0);
  const std::vector<row> history = co_await query(s, history_rows, values());
  EXPECT_TRUE(history.empty());
}

}  // namespace txn_test
