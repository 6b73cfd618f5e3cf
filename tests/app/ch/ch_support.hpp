// SPDX-License-Identifier: Apache-2.0
// ch_support.hpp: what the CH-benCHmark tests share besides the loader tests' scratch directory,
// pool and opened() (loader_support.hpp): the schema with CH's tables, hand-made rows written with
// session::copy, and a query's rows normalized for comparison.
//
// Normalized rows: one string per row, columns joined by '|'; NULL as "NULL"; a number rounded
// to 2 decimals with trailing zeros dropped ("12.5", "3"), so that an integer, a double and a
// NUMERIC read the same on every engine; text with trailing blanks dropped (CHAR padding).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "ch/run_query.hpp"
#include "driver/bulk.hpp"
#include "driver/database.hpp"
#include "driver/target.hpp"
#include "loader_support.hpp"
#include "schema/apply.hpp"
#include "shoal/task.hpp"

namespace tpcc::testing {

using shoal::task;

// TPC-C's tables and CH's; throws on failure.
inline task<void> create_ch_everything(driver::database& db) {
  schema::init_report report;
  const driver::outcome tpcc = co_await schema::create_schema(db, report);
  if (!tpcc.ok()) throw std::runtime_error("create_schema: " + tpcc.message);
  const driver::outcome ch = co_await schema::create_ch_schema(db, report);
  if (!ch.ok()) throw std::runtime_error("create_ch_schema: " + ch.message);
}

// Rows of one table, some of its columns, values row-major.
struct hand_rows {
  std::string_view table;
  std::vector<std::string_view> columns;
  std::vector<driver::value> values;
};

// Writes `rows` in one transaction; throws on failure.
inline task<void> write_rows(driver::database& db, const hand_rows& rows) {
  driver::lease l = co_await db.acquire();
  if (!l) throw std::runtime_error("acquire: " + l.status().message);
  const driver::bulk_rows bulk{.table = rows.table, .columns = rows.columns, .values = rows.values};
  driver::outcome done = co_await l->begin();
  if (done.ok()) done = co_await l->copy(bulk);
  if (done.ok()) done = co_await l->commit();
  if (!done.ok()) {
    co_await l->rollback();
    throw std::runtime_error("copy into " + std::string(rows.table) + ": " + done.message);
  }
}

// Hand-made rows of every table the queries read, a few columns each (the rest NULL), built
// one row at a time and written with write_all.
class ch_dataset {
 public:
  using value = driver::value;
  static value null() { return value(std::monostate{}); }

  void region(std::int64_t key, std::string name) { add(regions_, {key, std::move(name)}); }
  void nation(std::int64_t key, std::string name, std::int64_t region) {
    add(nations_, {key, std::move(name), region});
  }
  void supplier(std::int64_t key, std::string name, std::int64_t nation, std::string address = "",
                std::string phone = "", std::string comment = "") {
    add(suppliers_,
        {key, std::move(name), nation, std::move(address), std::move(phone), std::move(comment)});
  }
  void customer(std::int64_t w, std::int64_t d, std::int64_t c, std::string state,
                std::string phone, double balance, std::string last = "", std::string city = "") {
    add(customers_,
        {c, d, w, std::move(state), std::move(phone), balance, std::move(last), std::move(city)});
  }
  void order(std::int64_t w, std::int64_t d, std::int64_t o, std::int64_t c, std::string entry,
             value carrier, std::int64_t ol_cnt) {
    add(orders_, {o, d, w, c, std::move(entry), std::move(carrier), ol_cnt});
  }
  void new_order(std::int64_t w, std::int64_t d, std::int64_t o) { add(new_orders_, {o, d, w}); }
  void line(std::int64_t w, std::int64_t d, std::int64_t o, std::int64_t number, std::int64_t i,
            std::int64_t supply_w, value delivery, std::int64_t quantity, double amount) {
    add(lines_, {o, d, w, number, i, supply_w, std::move(delivery), quantity, amount});
  }
  void item(std::int64_t i, std::string name, double price, std::string data) {
    add(items_, {i, std::move(name), price, std::move(data)});
  }
  void stock(std::int64_t w, std::int64_t i, std::int64_t quantity, std::int64_t order_cnt = 0) {
    add(stocks_, {i, w, quantity, order_cnt});
  }

  // Every table with rows, each in a transaction of its own; throws on failure.
  task<void> write_all(driver::database& db) const {
    for (const hand_rows* rows : {&regions_, &nations_, &suppliers_, &customers_, &orders_,
                                  &new_orders_, &lines_, &items_, &stocks_}) {
      if (!rows->values.empty()) co_await write_rows(db, *rows);
    }
  }

 private:
  // Not inlined: g++ 12 at -O3, inlining it into cross_db_dataset() in some programs, warns that
  // a std::string of the copied variants "may be used uninitialized" (a false positive).
  [[gnu::noinline]] static void add(hand_rows& rows, std::initializer_list<value> values) {
    rows.values.insert(rows.values.end(), values.begin(), values.end());
  }

  hand_rows regions_{"region", {"r_regionkey", "r_name"}, {}};
  hand_rows nations_{"nation", {"n_nationkey", "n_name", "n_regionkey"}, {}};
  hand_rows suppliers_{
      "supplier",
      {"su_suppkey", "su_name", "su_nationkey", "su_address", "su_phone", "su_comment"},
      {}};
  hand_rows customers_{
      "customer",
      {"c_id", "c_d_id", "c_w_id", "c_state", "c_phone", "c_balance", "c_last", "c_city"},
      {}};
  hand_rows orders_{"orders",
                    {"o_id", "o_d_id", "o_w_id", "o_c_id", "o_entry_d", "o_carrier_id", "o_ol_cnt"},
                    {}};
  hand_rows new_orders_{"new_order", {"no_o_id", "no_d_id", "no_w_id"}, {}};
  hand_rows lines_{"order_line",
                   {"ol_o_id", "ol_d_id", "ol_w_id", "ol_number", "ol_i_id", "ol_supply_w_id",
                    "ol_delivery_d", "ol_quantity", "ol_amount"},
                   {}};
  hand_rows items_{"item", {"i_id", "i_name", "i_price", "i_data"}, {}};
  hand_rows stocks_{"stock", {"s_i_id", "s_w_id", "s_quantity", "s_order_cnt"}, {}};
};

inline std::string normalized_number(double v) {
  std::array<char, 64> b{};
  std::snprintf(b.data(), b.size(), "%.2f", v);
  std::string s = b.data();
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

inline std::string normalized_value(const driver::value& v) {
  if (driver::is_null(v)) return "NULL";
  if (const auto* n = std::get_if<std::int64_t>(&v)) return std::to_string(*n);
  if (const auto* d = std::get_if<double>(&v)) return normalized_number(*d);
  std::string text = std::get<std::string>(v);
  while (!text.empty() && text.back() == ' ') text.pop_back();
  return text;
}

inline std::vector<std::string> normalized_rows(const std::vector<driver::row>& rows) {
  std::vector<std::string> out;
  out.reserve(rows.size());
  for (const driver::row& r : rows) {
    std::string line;
    for (std::size_t c = 0; c < r.size(); ++c) {
      if (c > 0) line += '|';
      line += normalized_value(r.at(c));
    }
    out.push_back(std::move(line));
  }
  return out;
}

// Query `number`'s rows, normalized; a failed query throws, naming it and the error.
inline task<std::vector<std::string>> ch_rows(driver::database& db, driver::engine dialect,
                                              int number,
                                              const driver::statement* setup = nullptr) {
  driver::lease l = co_await db.acquire();
  if (!l) throw std::runtime_error("acquire: " + l.status().message);
  const ch::query_result r = co_await ch::run_query(*l, dialect, number, setup);
  if (!r.ok()) {
    throw std::runtime_error("Q" + std::to_string(number) + " failed: " + r.status.sqlstate + " " +
                             r.status.message);
  }
  co_return normalized_rows(r.rows);
}

}  // namespace tpcc::testing
