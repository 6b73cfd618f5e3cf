// SPDX-License-Identifier: Apache-2.0
// The simulated database's answers (answers.hpp).
#include "driver/sim/answers.hpp"

#include <array>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tpcc::driver::sim {
namespace {

using columns = std::vector<value>;
using filler = void (*)(const std::vector<value>&, const world&, draws&, statement_result&);

constexpr std::int64_t items = 100'000;           // clause 4.3.3.1: ITEM has 100,000 rows
constexpr std::int64_t customers = 3'000;         // per district
constexpr std::int64_t first_new_order = 2'101;   // the load's undelivered orders start here
constexpr std::int64_t loaded_next_o_id = 3'001;  // D_NEXT_O_ID after the load

template <class... Values>
columns cols(Values... vs) {
  columns out;
  out.reserve(sizeof...(Values));
  (out.emplace_back(std::move(vs)), ...);
  return out;
}

std::int64_t int_param(const std::vector<value>& p, std::size_t i) {
  const auto* n = i < p.size() ? std::get_if<std::int64_t>(&p[i]) : nullptr;
  return n != nullptr ? *n : 0;
}

void add(statement_result& r, columns c) { r.rows.emplace_back(std::move(c)); }

double money(draws& d, double lo, double hi) {
  return static_cast<double>(
             d.between(static_cast<std::int64_t>(lo * 100), static_cast<std::int64_t>(hi * 100))) /
         100.0;
}

double rate(draws& d) { return static_cast<double>(d.between(0, 2000)) / 10000.0; }

std::string credit(draws& d) { return d.between(1, 10) == 1 ? "BC" : "GC"; }

// I_DATA / S_DATA: "ORIGINAL" in 10% (brand-generic, clause 2.4.2.2). Short enough to need no
// allocation: the client's cost, not the simulation's, is what is measured.
std::string data_text(draws& d) { return d.between(1, 10) == 1 ? "sim ORIGINAL" : "sim data"; }

std::int64_t order_id(draws& d) { return d.between(first_new_order, loaded_next_o_id + 5'000); }

void written(statement_result& r, std::int64_t n) { r.affected = n; }

// New-Order (txn/new_order.cpp).
void no_district(const std::vector<value>&, const world&, draws& d, statement_result& r) {
  add(r, cols(order_id(d), rate(d)));
  written(r, 1);
}
void no_warehouse(const std::vector<value>&, const world&, draws& d, statement_result& r) {
  add(r, cols(rate(d)));
}
void no_customer(const std::vector<value>&, const world&, draws& d, statement_result& r) {
  add(r, cols(static_cast<double>(d.between(0, 5000)) / 10000.0, std::string("BARABLEPRI"),
              credit(d)));
}
// Every item named (one row each, as IN (...) gives: a repeated item once), less the unused one.
void no_items(const std::vector<value>& p, const world&, draws& d, statement_result& r) {
  for (std::size_t k = 0; k < p.size(); ++k) {
    const std::int64_t i_id = int_param(p, k);
    if (i_id < 1 || i_id > items) continue;  // the unused item: no row
    bool seen = false;
    for (std::size_t j = 0; j < k; ++j) seen = seen || int_param(p, j) == i_id;
    if (!seen) add(r, cols(i_id, money(d, 1, 100), std::string("sim item"), data_text(d)));
  }
}
void no_stock(const std::vector<value>&, const world&, draws& d, statement_result& r) {
  add(r, cols(d.between(10, 100), std::string("sim-dist-info"), data_text(d)));
  written(r, 1);
}
void one_written(const std::vector<value>&, const world&, draws&, statement_result& r) {
  written(r, 1);
}
void exists(const std::vector<value>&, const world&, draws&, statement_result& r) {
  add(r, cols(std::int64_t{1}));
}

// Payment (txn/payment.cpp).
void place(const std::vector<value>&, const world&, draws&, statement_result& r) {
  add(r, cols(std::string("sim place"), std::string("1 Sim Street"), std::string("Suite 5"),
              std::string("Simville"), std::string("SV"), std::string("123411111")));
  written(r, 1);
}
void pay_customer(const std::vector<value>&, const world&, draws& d, statement_result& r) {
  add(r,
      cols(std::string("simfirst"), std::string("OE"), std::string("BARABLEPRI"),
           std::string("1 Sim Street"), std::string("Suite 5"), std::string("Simville"),
           std::string("SV"), std::string("123411111"), std::string("0123456789012345"),
           std::string("2026-01-01 00:00:00"), credit(d), 50000.0,
           static_cast<double>(d.between(0, 5000)) / 10000.0, money(d, -5000, 5000), data_text(d)));
  written(r, 1);
}
void by_name(const std::vector<value>&, const world&, draws& d, statement_result& r) {
  const std::int64_t found = d.between(1, 5);
  for (std::int64_t i = 0; i < found; ++i) add(r, cols(d.between(1, customers)));
}

// Order-Status (txn/order_status.cpp).
void os_customer(const std::vector<value>&, const world&, draws& d, statement_result& r) {
  add(r, cols(std::string("simfirst"), std::string("OE"), std::string("BARABLEPRI"),
              money(d, -5000, 5000)));
}
void os_order(const std::vector<value>& p, const world&, draws& d, statement_result& r) {
  const std::int64_t o_id = order_id(d);
  const bool delivered = d.between(1, 10) <= 7;
  const value carrier = delivered ? value(d.between(1, 10)) : value();
  const value delivery_d = delivered ? value(std::string("2026-01-01 00:00:00")) : value();
  const std::int64_t lines = d.between(5, 15);
  for (std::int64_t i = 0; i < lines; ++i) {
    add(r, cols(o_id, std::string("2026-01-01 00:00:00"), carrier, d.between(1, items),
                int_param(p, 0), d.between(1, 10), money(d, 0.01, 9999.99), delivery_d));
  }
}

// Delivery (txn/delivery.cpp): every district has an undelivered order.
void dl_new_order(const std::vector<value>&, const world&, draws& d, statement_result& r) {
  add(r, cols(d.between(first_new_order, loaded_next_o_id)));
  written(r, 1);
}
void dl_lines(const std::vector<value>&, const world&, draws& d, statement_result& r) {
  written(r, d.between(5, 15));
}

// Stock-Level (txn/stock_level.cpp).
void sl_district(const std::vector<value>&, const world&, draws& d, statement_result& r) {
  add(r, cols(order_id(d)));
}
void sl_low_stock(const std::vector<value>&, const world&, draws& d, statement_result& r) {
  add(r, cols(d.between(0, 20)));
}

// The load bookkeeping (schema/meta.cpp): a complete load of w.warehouses warehouses, with
// NURand constants any run may pair with (clause 2.1.6.1).
void meta_get(const std::vector<value>& p, const world& w, draws&, statement_result& r) {
  const auto* name = p.empty() ? nullptr : std::get_if<std::string>(&p[0]);
  if (name == nullptr) return;
  if (*name == "warehouses") add(r, cols(std::to_string(w.warehouses)));
  if (*name == "c_last") add(r, cols(std::string("157")));
  if (*name == "c_id") add(r, cols(std::string("259")));
  if (*name == "ol_i_id") add(r, cols(std::string("7911")));
}
void loaded_list(const std::vector<value>&, const world& w, draws&, statement_result& r) {
  r.rows.reserve(static_cast<std::size_t>(w.warehouses) + 1);
  for (std::int64_t id = 0; id <= w.warehouses; ++id) add(r, cols(id));
}

struct entry {
  std::string_view name;
  filler fill;
};

constexpr std::array<entry, 24> table{{
    {"tpcc_no_district", no_district},
    {"tpcc_no_warehouse", no_warehouse},
    {"tpcc_no_customer", no_customer},
    {"tpcc_no_items", no_items},
    {"tpcc_no_stock", no_stock},
    {"tpcc_no_insert_order", one_written},
    {"tpcc_no_insert_new_order", one_written},
    {"tpcc_no_insert_line", one_written},
    {"tpcc_pay_warehouse", place},
    {"tpcc_pay_district", place},
    {"tpcc_pay_customer", pay_customer},
    {"tpcc_pay_history", one_written},
    {"tpcc_pay_customer_exists", exists},
    {"tpcc_customers_by_name", by_name},
    {"tpcc_os_customer", os_customer},
    {"tpcc_os_latest_order", os_order},
    {"tpcc_dl_new_order", dl_new_order},
    {"tpcc_dl_orders", one_written},
    {"tpcc_dl_order_line", dl_lines},
    {"tpcc_dl_customer", one_written},
    {"tpcc_sl_district", sl_district},
    {"tpcc_sl_low_stock", sl_low_stock},
    {"tpcc_meta_get", meta_get},
    {"tpcc_loaded_list", loaded_list},
}};

filler find(std::string_view name) {
  for (const entry& e : table) {
    if (e.name == name) return e.fill;
  }
  return nullptr;
}

}  // namespace

statement_result answer(const call& c, const world& w, draws& d) {
  statement_result r;
  const filler fill = c.stmt != nullptr ? find(family(c.stmt->name)) : nullptr;
  if (fill == nullptr) {
    std::string why = "simulated database: no answer for statement '";
    if (c.stmt != nullptr) why.append(c.stmt->name);
    r.status = outcome::make(outcome_kind::failed, "", why.append("'"));
    return r;
  }
  fill(c.params, w, d, r);
  return r;
}

}  // namespace tpcc::driver::sim
