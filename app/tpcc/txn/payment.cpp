// SPDX-License-Identifier: Apache-2.0
// The Payment transaction, clause 2.5.2 (payment.hpp).
#include "txn/payment.hpp"

#include <array>
#include <cstdio>
#include <span>
#include <vector>

#include "txn/by_last_name.hpp"
#include "txn/common.hpp"

namespace tpcc::txn {
namespace {

using driver::call;
using driver::outcome;
using driver::statement;
using driver::statement_result;

const statement warehouse{"tpcc_pay_warehouse",
                          "UPDATE warehouse SET w_ytd = w_ytd + $2 WHERE w_id = $1 "
                          "RETURNING w_name, w_street_1, w_street_2, w_city, w_state, w_zip",
                          // MySQL: the update, then the row read back (statement.hpp).
                          "UPDATE warehouse SET w_ytd = w_ytd + $2 WHERE w_id = $1; "
                          "SELECT w_name, w_street_1, w_street_2, w_city, w_state, w_zip "
                          "FROM warehouse WHERE w_id = $1"};
const statement district{"tpcc_pay_district",
                         "UPDATE district SET d_ytd = d_ytd + $3 WHERE d_w_id = $1 AND d_id = $2 "
                         "RETURNING d_name, d_street_1, d_street_2, d_city, d_state, d_zip",
                         "UPDATE district SET d_ytd = d_ytd + $3 WHERE d_w_id = $1 AND d_id = $2; "
                         "SELECT d_name, d_street_1, d_street_2, d_city, d_state, d_zip "
                         "FROM district WHERE d_w_id = $1 AND d_id = $2"};
// Clause 2.5.2.2: a BC customer's C_DATA gets $5 in front, cut to 500 characters.
const statement customer_paid{
    "tpcc_pay_customer",
    "UPDATE customer SET c_balance = c_balance - $4, c_ytd_payment = c_ytd_payment + $4, "
    "c_payment_cnt = c_payment_cnt + 1, c_data = CASE WHEN c_credit = 'BC' "
    "THEN substr(CAST($5 AS TEXT) || c_data, 1, 500) ELSE c_data END "
    "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3 "
    "RETURNING c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, "
    "c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, substr(c_data, 1, 200)",
    // MySQL: concat() for || (an OR there), then the row read back.
    "UPDATE customer SET c_balance = c_balance - $4, c_ytd_payment = c_ytd_payment + $4, "
    "c_payment_cnt = c_payment_cnt + 1, c_data = CASE WHEN c_credit = 'BC' "
    "THEN substr(concat($5, c_data), 1, 500) ELSE c_data END "
    "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3; "
    "SELECT c_first, c_middle, c_last, c_street_1, c_street_2, c_city, c_state, c_zip, "
    "c_phone, c_since, c_credit, c_credit_lim, c_discount, c_balance, substr(c_data, 1, 200) "
    "FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3"};
// H_DATA is W_NAME, 4 spaces, D_NAME. INSERT ... SELECT from the paying warehouse's own rows
// (one shard: w_id = d_w_id = $5), never a subquery inside VALUES, which Citus refuses; the
// customer's existence is checked by customer_exists below, before it
// (docs/tpcc/sql-portability.md).
const statement history{
    "tpcc_pay_history",
    "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) "
    "SELECT $1, $2, $3, d_id, d_w_id, $6, $7, w_name || '    ' || d_name "
    "FROM warehouse, district WHERE w_id = $5 AND d_w_id = $5 AND d_id = $4",
    "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data) "
    "SELECT $1, $2, $3, d_id, d_w_id, $6, $7, concat(w_name, '    ', d_name) "
    "FROM warehouse, district WHERE w_id = $5 AND d_w_id = $5 AND d_id = $4"};

// Fails unless the customer exists (abs of the smallest 64-bit integer is out of range on
// PostgreSQL, its distributed forms and SQLite alike), so that a payment to a missing customer
// aborts on the server before the COMMIT sent in the same round trip. A plain read on the
// customer's own warehouse: routable where the customer lives, even for a remote payment.
const statement customer_exists{"tpcc_pay_customer_exists",
                                "SELECT abs(count(*) - 9223372036854775807 - 1) FROM customer "
                                "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3"};

// The customer update, its existence guard and the history insert for customer `c_id`.
void append_customer_writes(const payment_input& in, std::int64_t c_id, const std::string& now,
                            std::vector<call>& out) {
  const double amount = round_cents(in.h_amount);
  out.push_back(
      make_call(customer_paid, params(in.c_w_id, in.c_d_id, c_id, amount, bc_prefix(in, c_id))));
  out.push_back(make_call(customer_exists, params(in.c_w_id, in.c_d_id, c_id)));
  out.push_back(
      make_call(history, params(c_id, in.c_d_id, in.c_w_id, in.d_id, in.w_id, now, amount)));
}

// Warehouse and district updates, then the customer by number or the customers by name.
std::vector<call> first_calls(const payment_input& in, const std::string& now) {
  std::vector<call> out;
  out.reserve(5);
  out.push_back(make_call(warehouse, params(in.w_id, round_cents(in.h_amount))));
  out.push_back(make_call(district, params(in.w_id, in.d_id, round_cents(in.h_amount))));
  if (in.customer.by_last_name) {
    out.push_back(customers_by_name_call(in.c_w_id, in.c_d_id, in.customer.c_last));
  } else {
    append_customer_writes(in, in.customer.c_id, now, out);
  }
  return out;
}

std::vector<call> second_calls(const payment_input& in, std::int64_t c_id, const std::string& now) {
  std::vector<call> out;
  out.reserve(3);
  append_customer_writes(in, c_id, now, out);
  return out;
}

// Warehouse and district rows (results 0 and 1).
outcome take_places(std::span<const statement_result> r, payment_output& out) {
  outcome w = one_row(r[0], "warehouse");
  if (!w.ok()) return w;
  outcome d = one_row(r[1], "district");
  if (!d.ok()) return d;
  out.warehouse = address_at(r[0].rows[0], 1);
  out.district = address_at(r[1].rows[0], 1);
  return outcome::success();
}

outcome take_customer(const statement_result& r, payment_output& out) {
  outcome c = one_row(r, "customer");
  if (!c.ok()) return c;
  customer_at(r.rows[0], 0, out);
  return outcome::success();
}

// The first round trip's results: for a by-name payment, also the chosen customer in out.c_id.
outcome take_first(const payment_input& in, std::span<const statement_result> r,
                   payment_output& out) {
  outcome failure = first_failure(r);
  if (!failure.ok()) return failure;
  outcome places = take_places(r, out);
  if (!places.ok()) return places;
  if (!in.customer.by_last_name) return take_customer(r[2], out);
  return choose_by_name(r[2], in.customer.c_last, out.c_id);
}

// The second round trip of a by-name payment: the chosen customer's update, the history
// insert, the commit.
shoal::task<outcome> pay_chosen_customer(driver::session& s, const payment_input& in,
                                         payment_output& out) {
  const std::vector<call> second = second_calls(in, out.c_id, out.h_date);
  const std::vector<statement_result> got = co_await s.execute_batch(second, driver::then::commit);
  outcome failure = first_failure(got);
  if (failure.ok()) failure = take_customer(got[0], out);
  co_return failure;
}

}  // namespace

void payment_keys(const payment_input& in, const std::string& now, payment_output& out) {
  out.w_id = in.w_id;
  out.d_id = in.d_id;
  out.c_d_id = in.c_d_id;
  out.c_w_id = in.c_w_id;
  out.c_id = in.customer.c_id;
  out.h_amount = round_cents(in.h_amount);
  out.h_date = now;
}

void customer_at(const driver::row& r, std::size_t first, payment_output& out) {
  out.c_first = r.text_at(first);
  out.c_middle = r.text_at(first + 1);
  out.c_last = r.text_at(first + 2);
  out.customer = address_at(r, first + 3);
  out.c_phone = r.text_at(first + 8);
  out.c_since = r.text_at(first + 9);
  out.c_credit = r.text_at(first + 10);
  out.c_credit_lim = r.number_at(first + 11);
  out.c_discount = r.number_at(first + 12);
  out.c_balance = r.number_at(first + 13);
  if (out.c_credit == "BC") out.c_data = r.text_at(first + 14);
}

std::string bc_prefix(const payment_input& in, std::int64_t c_id) {
  std::array<char, 128> text{};
  const int n = std::snprintf(text.data(), text.size(), "%lld %lld %lld %lld %lld %.2f |",
                              static_cast<long long>(c_id), static_cast<long long>(in.c_d_id),
                              static_cast<long long>(in.c_w_id), static_cast<long long>(in.d_id),
                              static_cast<long long>(in.w_id), in.h_amount);
  return {text.data(), static_cast<std::size_t>(n)};
}

address address_at(const driver::row& r, std::size_t first) {
  return address{.street_1 = r.text_at(first),
                 .street_2 = r.text_at(first + 1),
                 .city = r.text_at(first + 2),
                 .state = r.text_at(first + 3),
                 .zip = r.text_at(first + 4)};
}

shoal::task<driver::outcome> run_payment(driver::session& s, const payment_input& in,
                                         payment_output& out) {
  payment_keys(in, now_text(), out);
  const outcome began = co_await s.begin();
  if (!began.ok()) {
    outcome why = co_await abandon(s, began);
    co_return why;
  }
  const std::vector<call> first = first_calls(in, out.h_date);
  const driver::then after_first = commit_unless_by_name(in.customer);
  const std::vector<statement_result> got = co_await s.execute_batch(first, after_first);
  outcome status = take_first(in, got, out);
  if (status.ok() && in.customer.by_last_name) status = co_await pay_chosen_customer(s, in, out);
  if (!status.ok()) {
    outcome why = co_await abandon(s, status);
    co_return why;
  }
  co_return outcome::success();
}

}  // namespace tpcc::txn
