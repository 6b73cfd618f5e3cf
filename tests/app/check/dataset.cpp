// SPDX-License-Identifier: Apache-2.0
// The consistency-check test dataset and its corruptions (dataset.hpp).
#include "dataset.hpp"

#include <array>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "driver/open.hpp"
#include "driver/session.hpp"
#include "schema/schema.hpp"

namespace tpcc::check::testing {
namespace {

using driver::call;
using driver::statement;
using driver::statement_result;
using driver::value;

constexpr std::string_view delivered_at = "2024-01-02 03:04:05";

constexpr statement insert_warehouse{"test_insert_warehouse",
                                     "INSERT INTO warehouse (w_id, w_ytd) VALUES ($1, $2)"};
constexpr statement insert_district{
    "test_insert_district",
    "INSERT INTO district (d_id, d_w_id, d_ytd, d_next_o_id) VALUES ($1, $2, $3, $4)"};
constexpr statement insert_customer{"test_insert_customer",
                                    "INSERT INTO customer (c_id, c_d_id, c_w_id, c_balance, "
                                    "c_ytd_payment) VALUES ($1, $2, $3, $4, $5)"};
constexpr statement insert_history{"test_insert_history",
                                   "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, "
                                   "h_w_id, h_amount) VALUES ($1, $2, $3, $4, $5, $6)"};
constexpr statement insert_order{"test_insert_order",
                                 "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_carrier_id, "
                                 "o_ol_cnt) VALUES ($1, $2, $3, $4, $5, $6)"};
constexpr statement insert_new_order{
    "test_insert_new_order",
    "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)"};
constexpr statement insert_order_line{
    "test_insert_order_line",
    "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_delivery_d, ol_amount) "
    "VALUES ($1, $2, $3, $4, $5, $6)"};

// One order of every district: its customer, whether delivered, its lines' amounts in cents.
struct order_spec {
  std::int64_t o_id;
  std::int64_t c_id;
  bool delivered;
  std::vector<std::int64_t> line_cents;
};

const std::array<order_spec, orders_per_district>& order_specs() {
  static const std::array<order_spec, orders_per_district> specs{{
      {1, 1, true, {0, 0}},
      {2, 2, true, {730, 415}},
      {3, 3, false, {110, 220, 330}},
      {4, 1, false, {400}},
      {5, 2, false, {555, 45}},
  }};
  return specs;
}

// What each customer of a district paid, in cents: 1 and 2 at home, 3 through the other
// warehouse.
constexpr std::array<std::int64_t, customers_per_district> paid_cents{2005, 310, 115};
constexpr std::int64_t district_ytd_cents = 2005 + 310 + 115;

std::int64_t other_warehouse(std::int64_t w) { return warehouses + 1 - w; }
double money(std::int64_t cents) { return static_cast<double>(cents) / 100.0; }

template <class... Values>
std::vector<value> values(Values... vs) {
  std::vector<value> out;
  (out.emplace_back(std::move(vs)), ...);
  return out;
}

template <class... Values>
call make(const statement& stmt, Values... vs) {
  return {&stmt, values(std::move(vs)...)};
}

std::int64_t delivered_cents(std::int64_t c_id) {
  std::int64_t sum = 0;
  for (const order_spec& o : order_specs()) {
    if (o.c_id != c_id || !o.delivered) continue;
    for (const std::int64_t cents : o.line_cents) sum += cents;
  }
  return sum;
}

void add_customers(std::vector<call>& out, std::int64_t w, std::int64_t d) {
  for (std::int64_t c = 1; c <= customers_per_district; ++c) {
    const std::int64_t paid = paid_cents.at(static_cast<std::size_t>(c - 1));
    out.push_back(make(insert_customer, c, d, w, money(delivered_cents(c) - paid), money(paid)));
  }
}

// The payments made through district (w, d).
void add_history(std::vector<call>& out, std::int64_t w, std::int64_t d) {
  out.push_back(make(insert_history, std::int64_t{1}, d, w, d, w, money(paid_cents[0])));
  out.push_back(make(insert_history, std::int64_t{2}, d, w, d, w, money(paid_cents[1])));
  out.push_back(
      make(insert_history, std::int64_t{3}, d, other_warehouse(w), d, w, money(paid_cents[2])));
}

void add_order(std::vector<call>& out, const order_spec& o, std::int64_t w, std::int64_t d) {
  const value carrier = o.delivered ? value(o.o_id) : value();
  const auto lines = static_cast<std::int64_t>(o.line_cents.size());
  out.push_back(make(insert_order, o.o_id, d, w, o.c_id, carrier, lines));
  if (!o.delivered) out.push_back(make(insert_new_order, o.o_id, d, w));
  for (std::int64_t n = 1; n <= lines; ++n) {
    const value when = o.delivered ? value(std::string(delivered_at)) : value();
    const std::int64_t cents = o.line_cents.at(static_cast<std::size_t>(n - 1));
    out.push_back(make(insert_order_line, o.o_id, d, w, n, when, money(cents)));
  }
}

std::vector<call> district_rows(std::int64_t w, std::int64_t d) {
  std::vector<call> out;
  out.push_back(make(insert_district, d, w, money(district_ytd_cents), orders_per_district + 1));
  add_customers(out, w, d);
  add_history(out, w, d);
  for (const order_spec& o : order_specs()) add_order(out, o, w, d);
  return out;
}

std::vector<call> warehouse_rows() {
  std::vector<call> out;
  for (std::int64_t w = 1; w <= warehouses; ++w) {
    out.push_back(make(insert_warehouse, w, money(districts * district_ytd_cents)));
  }
  return out;
}

// Corruptions: $1 the warehouse, $2 the district, $3 (where used) the order.
constexpr statement set_carrier{
    "test_set_carrier",
    "UPDATE orders SET o_carrier_id = 7 WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3"};
constexpr statement clear_carrier{
    "test_clear_carrier",
    "UPDATE orders SET o_carrier_id = NULL WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3"};
constexpr statement set_delivery{"test_set_delivery",
                                 "UPDATE order_line SET ol_delivery_d = '2024-02-03 04:05:06' "
                                 "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3"};
constexpr statement clear_delivery{"test_clear_delivery",
                                   "UPDATE order_line SET ol_delivery_d = NULL "
                                   "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3"};
// The customer of order $3 gains ($4 = 1) or loses ($4 = -1) the amount of its lines.
constexpr statement credit_customer{
    "test_credit_customer",
    "UPDATE customer SET c_balance = c_balance + $4 * (SELECT sum(ol_amount) FROM order_line "
    "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3) "
    "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = "
    "(SELECT o_c_id FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3)"};
constexpr statement delete_new_order{
    "test_delete_new_order",
    "DELETE FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3"};
constexpr statement delete_lines{
    "test_delete_lines",
    "DELETE FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3"};
constexpr statement delete_order{
    "test_delete_order", "DELETE FROM orders WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3"};
// Customer 2's home payment of 3.10 moved to district 11, which does not exist.
constexpr statement payment_to_nowhere{
    "test_payment_to_nowhere",
    "UPDATE history SET h_d_id = 11 WHERE h_w_id = $1 AND h_d_id = $2 AND h_c_id = 2"};
constexpr statement shrink_district_ytd{
    "test_shrink_district_ytd",
    "UPDATE district SET d_ytd = d_ytd - 3.10 WHERE d_w_id = $1 AND d_id = $2"};
constexpr statement skip_order_id{
    "test_skip_order_id",
    "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = $1 AND d_id = $2"};
constexpr statement orphan_line{"test_orphan_line",
                                "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, "
                                "ol_amount) VALUES (99, $2, $1, 1, 1.00)"};
constexpr statement move_line{"test_move_line",
                              "UPDATE order_line SET ol_o_id = 4, ol_number = 2 WHERE ol_w_id = $1 "
                              "AND ol_d_id = $2 AND ol_o_id = 3 AND ol_number = 3"};
constexpr statement deliver_one_line{
    "test_deliver_one_line",
    "UPDATE order_line SET ol_delivery_d = '2024-02-03 04:05:06' "
    "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = 3 AND ol_number = 1"};
constexpr statement credit_one_line{
    "test_credit_one_line",
    "UPDATE customer SET c_balance = c_balance + (SELECT ol_amount FROM order_line "
    "WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = 3 AND ol_number = 1) "
    "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = 3"};
constexpr statement payment_from_nowhere{
    "test_payment_from_nowhere",
    "INSERT INTO history (h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_amount) "
    "VALUES (99, $2, $1, 11, $1, 5.00)"};
constexpr statement payment_to_next_district{
    "test_payment_to_next_district",
    "UPDATE history SET h_d_id = h_d_id + 1 WHERE h_w_id = $1 AND h_d_id = $2 AND h_c_id = 2"};
constexpr statement payment_by_other_customer{
    "test_payment_by_other_customer",
    "UPDATE history SET h_c_id = 2 WHERE h_c_w_id = $1 AND h_c_d_id = $2 AND h_c_id = 1"};
constexpr statement bump_ytd_payment{"test_bump_ytd_payment",
                                     "UPDATE customer SET c_ytd_payment = c_ytd_payment + 1 "
                                     "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = 1"};

// Delivery of order o out of its turn, as the Delivery transaction would have done it.
void deliver(std::vector<call>& out, std::int64_t w, std::int64_t d, std::int64_t o, bool dequeue) {
  out.push_back(make(set_carrier, w, d, o));
  out.push_back(make(set_delivery, w, d, o));
  out.push_back(make(credit_customer, w, d, o, std::int64_t{1}));
  if (dequeue) out.push_back(make(delete_new_order, w, d, o));
}

// Order o back to undelivered, without a NEW-ORDER row.
void undeliver(std::vector<call>& out, std::int64_t w, std::int64_t d, std::int64_t o) {
  out.push_back(make(clear_carrier, w, d, o));
  out.push_back(make(clear_delivery, w, d, o));
  out.push_back(make(credit_customer, w, d, o, std::int64_t{-1}));
}

std::vector<call> simple(std::initializer_list<const statement*> statements, std::int64_t w,
                         std::int64_t d) {
  std::vector<call> out;
  for (const statement* s : statements) out.push_back(make(*s, w, d));
  return out;
}

void require_ok(const std::vector<statement_result>& results, std::string_view what) {
  for (const statement_result& r : results) {
    if (!r.ok()) throw std::runtime_error(std::string(what) + " failed: " + r.status.message);
  }
}

// Every statement without parameters (DDL), for one transaction: the PostgreSQL driver always
// opens one, and PostgreSQL's DDL is transactional.
std::vector<call> without_parameters(std::span<const statement> statements) {
  std::vector<call> out;
  for (const statement& stmt : statements) out.push_back(make(stmt));
  return out;
}

shoal::task<void> run_batch(driver::session& s, std::vector<call> calls, std::string_view what) {
  if (calls.empty()) co_return;
  const driver::outcome began = co_await s.begin();
  if (!began.ok()) throw std::runtime_error("begin failed: " + began.message);
  const std::vector<statement_result> r = co_await s.execute_batch(calls, driver::then::commit);
  require_ok(r, what);
}

}  // namespace

shoal::task<void> build(driver::database& db, std::vector<call> corrupt) {
  driver::lease s = co_await db.acquire();
  if (!s) throw std::runtime_error("acquire failed: " + s.status().message);
  co_await run_batch(*s, without_parameters(schema::drop_statements()), "dropping the tables");
  co_await run_batch(*s, without_parameters(schema::create_statements()), "creating the tables");
  co_await run_batch(*s, warehouse_rows(), "loading the warehouses");
  for (std::int64_t w = 1; w <= warehouses; ++w) {
    for (std::int64_t d = 1; d <= districts; ++d) {
      co_await run_batch(*s, district_rows(w, d), "loading a district");
    }
  }
  co_await run_batch(*s, std::move(corrupt), "corrupting");
}

std::vector<call> corruption(int clause, std::int64_t w, std::int64_t d) {
  std::vector<call> out;
  switch (clause) {
    case 1:
      return simple({&payment_to_nowhere, &shrink_district_ytd}, w, d);
    case 2:
      return simple({&skip_order_id}, w, d);
    case 3:
      deliver(out, w, d, 4, true);
      return out;
    case 4:
      return simple({&orphan_line}, w, d);
    case 5:
      undeliver(out, w, d, 2);
      deliver(out, w, d, 5, false);
      return out;
    case 6:
      return simple({&move_line}, w, d);
    case 7:
      return simple({&deliver_one_line, &credit_one_line}, w, d);
    case 8:
      return simple({&payment_from_nowhere}, w, d);
    case 9:
      return simple({&payment_to_next_district}, w, d);
    case 10:
      return simple({&payment_by_other_customer}, w, d);
    case 11:
      out.push_back(make(delete_lines, w, d, std::int64_t{1}));
      out.push_back(make(delete_order, w, d, std::int64_t{1}));
      return out;
    case 12:
      return simple({&bump_ytd_payment}, w, d);
    default:
      throw std::invalid_argument("no corruption for clause 3.3.2." + std::to_string(clause));
  }
}

std::vector<std::string> expected_offenders(int clause) {
  switch (clause) {
    case 1:
      return {"W_ID=1: W_YTD=243.00, sum(D_YTD)=239.90"};
    case 2:
      return {"W_ID=1 D_ID=3: D_NEXT_O_ID - 1=6, max(O_ID)=5, max(NO_O_ID)=5"};
    case 3:
      return {"W_ID=1 D_ID=3: max - min + 1=3, rows=2"};
    case 4:
      return {"W_ID=1 D_ID=3: sum(O_OL_CNT)=10, ORDER-LINE rows=11"};
    case 5:
      return {"W_ID=1 D_ID=3 O_ID=2: O_CARRIER_ID null=yes, NEW-ORDER row=no",
              "W_ID=1 D_ID=3 O_ID=5: O_CARRIER_ID null=no, NEW-ORDER row=yes"};
    case 6:
      return {"W_ID=1 D_ID=3 O_ID=3: O_OL_CNT=3, ORDER-LINE rows=2",
              "W_ID=1 D_ID=3 O_ID=4: O_OL_CNT=1, ORDER-LINE rows=2"};
    case 7:
      return {"W_ID=1 D_ID=3 O_ID=3 OL_NUMBER=1: OL_DELIVERY_D null=no, O_CARRIER_ID null=yes"};
    case 8:
      return {"W_ID=1: W_YTD=243.00, sum(H_AMOUNT)=248.00"};
    case 9:
      return {"W_ID=1 D_ID=3: D_YTD=24.30, sum(H_AMOUNT)=21.20",
              "W_ID=1 D_ID=4: D_YTD=24.30, sum(H_AMOUNT)=27.40"};
    case 10:
      return {"W_ID=1 D_ID=3 C_ID=1: C_BALANCE=-20.05, sum(OL_AMOUNT) - sum(H_AMOUNT)=0.00",
              "W_ID=1 D_ID=3 C_ID=2: C_BALANCE=8.35, sum(OL_AMOUNT) - sum(H_AMOUNT)=-11.70"};
    case 11:
      return {"W_ID=1 D_ID=3: count(ORDER) - count(NEW-ORDER)=1, population + deliveries since=2"};
    case 12:
      return {"W_ID=1 D_ID=3 C_ID=1: C_BALANCE + C_YTD_PAYMENT=1.00, sum(OL_AMOUNT)=0.00"};
    default:
      return {};
  }
}

check_options whole_dataset(std::int64_t chunk) {
  check_options o;
  o.first_warehouse = 1;
  o.last_warehouse = warehouses;
  o.chunk = chunk;
  o.population_delivered = population_delivered;
  return o;
}

shoal::task<std::unique_ptr<driver::database>> opened(driver::database_options where) {
  driver::open_result r = co_await driver::open_database(where);
  if (auto* failure = std::get_if<driver::outcome>(&r)) {
    throw std::runtime_error(failure->message);
  }
  co_return std::move(std::get<std::unique_ptr<driver::database>>(r));
}

std::string failing(const std::vector<condition_result>& results) {
  std::string out;
  for (const condition_result& r : results) {
    if (!r.passed) out += std::string(r.clause) + " ";
  }
  return out;
}

}  // namespace tpcc::check::testing
