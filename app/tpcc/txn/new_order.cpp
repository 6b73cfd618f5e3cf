// SPDX-License-Identifier: Apache-2.0
// The New-Order transaction, clause 2.4.2 (new_order.hpp).
#include "txn/new_order.hpp"

#include <algorithm>
#include <array>
#include <iterator>
#include <memory>
#include <numeric>
#include <span>
#include <string>
#include <string_view>

#include "txn/common.hpp"
#include "txn/delivery.hpp"
#include "txn/line_statements.hpp"

namespace tpcc::txn {
namespace {

using driver::call;
using driver::outcome;
using driver::statement;
using driver::statement_result;

const statement next_order_id{
    "tpcc_no_district",
    "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = $1 AND d_id = $2 "
    "RETURNING d_next_o_id - 1, d_tax",
    // MySQL has no UPDATE ... RETURNING: the row is read back after the update, which locked it.
    "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = $1 AND d_id = $2; "
    "SELECT d_next_o_id - 1, d_tax FROM district WHERE d_w_id = $1 AND d_id = $2"};
const statement warehouse_tax{"tpcc_no_warehouse", "SELECT w_tax FROM warehouse WHERE w_id = $1"};
const statement customer_terms{"tpcc_no_customer",
                               "SELECT c_discount, c_last, c_credit FROM customer "
                               "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3"};
// Every line's item in one read (an item named twice comes back once; rows in any order).
std::string items_text(std::size_t lines) {
  return "SELECT i_id, i_price, i_name, i_data FROM item WHERE i_id IN (" +
         placeholder_list(1, lines) + ")";
}
const line_statements items{"tpcc_no_items", items_text, nullptr};
// The stock update of one line, clause 2.4.2.2.
constexpr std::string_view stock_update_text =
    "UPDATE stock SET s_quantity = CASE WHEN s_quantity >= $3 + 10 THEN s_quantity - $3 "
    "ELSE s_quantity - $3 + 91 END, s_ytd = s_ytd + $3, s_order_cnt = s_order_cnt + 1, "
    "s_remote_cnt = s_remote_cnt + $4 WHERE s_w_id = $1 AND s_i_id = $2";
// Clause 2.4.2.2: S_QUANTITY drops by OL_QUANTITY when that leaves at least 10, else is
// replenished by 91; S_DIST_xx is the order's district's. One statement per district names its
// S_DIST_xx column: a CASE on a parameter is what Citus's planner cannot deparse
// (docs/tpcc/sql-portability.md).
class stock_updates {
 public:
  stock_updates() {
    for (std::size_t i = 0; i < districts_per_warehouse; ++i) {
      // Appended, not added: g++ 12 sees a bogus -Wrestrict in a chain of string +.
      std::string dd = std::to_string(i + 1);
      if (dd.size() < 2) dd.insert(dd.begin(), '0');
      names_[i].assign("tpcc_no_stock_").append(dd);
      std::string columns("s_quantity, s_dist_");
      columns.append(dd).append(", s_data");
      texts_[i].assign(stock_update_text).append(" RETURNING ").append(columns);
      // MySQL has no UPDATE ... RETURNING: it takes the locked shape (stock_locks, below).
      statements_[i] = statement{names_[i], texts_[i]};
    }
  }
  stock_updates(const stock_updates&) = delete;
  stock_updates& operator=(const stock_updates&) = delete;
  ~stock_updates() = default;

  // The update returning district `d_id`'s S_DIST_xx (1..10).
  [[nodiscard]] const statement& of(std::int64_t d_id) const {
    return statements_.at(static_cast<std::size_t>(d_id - 1));
  }

 private:
  std::array<std::string, districts_per_warehouse> names_;
  std::array<std::string, districts_per_warehouse> texts_;
  std::array<statement, districts_per_warehouse> statements_;
};

const stock_updates stock;

// Where an UPDATE cannot return its row (MySQL, session::update_returning()), New-Order does not
// read each stock row back after its update: it locks and reads them all first, in one
// SELECT ... FOR UPDATE (in (supply warehouse, item) order, the index's: the same lock order as
// the updates'), then updates each with this plain UPDATE, and the client works out each line's
// S_QUANTITY with the UPDATE's own rule (clause 2.4.2.2). One statement per district (its
// S_DIST_xx) and line count.
const statement stock_update{"tpcc_no_stock_update", stock_update_text};

std::string stock_lock_text(std::size_t district, std::size_t lines) {
  std::string dd = std::to_string(district);
  if (dd.size() < 2) dd.insert(dd.begin(), '0');
  std::string sql = "SELECT s_w_id, s_i_id, s_quantity, s_dist_" + dd +
                    ", s_data FROM stock WHERE (s_w_id, s_i_id) IN (";
  for (std::size_t k = 0; k < lines; ++k) {
    if (k > 0) sql.append(", ");
    sql.append("(").append(placeholder_list(2 * k + 1, 2)).append(")");
  }
  return sql.append(") FOR UPDATE");
}

class stock_locks {
 public:
  stock_locks() {
    for (std::size_t d = 1; d <= districts_per_warehouse; ++d) {
      std::string dd = std::to_string(d);
      names_[d - 1] = "tpcc_no_stock_lock_" + std::string(dd.size() < 2 ? "0" : "") + dd;
      by_district_[d - 1] = std::make_unique<line_statements>(
          names_[d - 1], [d](std::size_t lines) { return stock_lock_text(d, lines); },
          line_statements::text_of());
    }
  }
  [[nodiscard]] const statement& of(std::int64_t d_id, std::size_t lines) const {
    return by_district_.at(static_cast<std::size_t>(d_id - 1))->of(lines);
  }

 private:
  std::array<std::string, districts_per_warehouse> names_;
  std::array<std::unique_ptr<line_statements>, districts_per_warehouse> by_district_;
};

const stock_locks stock_lock;

const statement insert_order{
    "tpcc_no_insert_order",
    "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, "
    "o_all_local) VALUES ($1, $2, $3, $4, $5, NULL, $6, $7)"};
const statement insert_new_order{
    "tpcc_no_insert_new_order",
    "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)"};
// Every line in one multi-row INSERT: $1..$3 the order's key, then 6 parameters per line.
constexpr std::size_t per_line_params = 6;
std::string insert_lines_text(std::size_t lines) {
  std::string sql =
      "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "
      "ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES ";
  for (std::size_t k = 0; k < lines; ++k) {
    const std::size_t b = 4 + per_line_params * k;
    const auto p = [b](std::size_t i) { return "$" + std::to_string(b + i); };
    if (k > 0) sql.append(", ");
    sql.append("($1, $2, $3, ").append(p(0)).append(", ").append(p(1)).append(", ");
    sql.append(p(2)).append(", NULL, ").append(p(3)).append(", ").append(p(4)).append(", ");
    sql.append(p(5)).append(")");
  }
  return sql;
}
const line_statements insert_lines{"tpcc_no_insert_line", insert_lines_text, nullptr};

constexpr std::size_t first_item = 3;  // after district, warehouse, customer

call stock_call(const new_order_input& in, const order_line_input& line) {
  const std::int64_t remote = line.supply_w_id != in.w_id ? 1 : 0;
  return make_call(stock.of(in.d_id), params(line.supply_w_id, line.i_id, line.quantity, remote));
}

std::vector<call> reads(const new_order_input& in, bool update_returning) {
  std::vector<call> out;
  out.reserve(first_item + 1 + in.lines.size());
  out.push_back(make_call(next_order_id, params(in.w_id, in.d_id)));
  out.push_back(make_call(warehouse_tax, params(in.w_id)));
  out.push_back(make_call(customer_terms, params(in.w_id, in.d_id, in.c_id)));
  std::vector<driver::value> ids;
  ids.reserve(in.lines.size());
  for (const order_line_input& line : in.lines) ids.emplace_back(line.i_id);
  out.push_back(make_call(items.of(in.lines.size()), std::move(ids)));
  if (update_returning) {
    for (std::size_t i : stock_order(in)) out.push_back(stock_call(in, in.lines[i]));
    return out;
  }
  std::vector<driver::value> pairs;
  std::vector<call> updates;
  for (std::size_t i : stock_order(in)) {
    const order_line_input& line = in.lines[i];
    pairs.emplace_back(line.supply_w_id);
    pairs.emplace_back(line.i_id);
    const std::int64_t remote = line.supply_w_id != in.w_id ? 1 : 0;
    updates.push_back(
        make_call(stock_update, params(line.supply_w_id, line.i_id, line.quantity, remote)));
  }
  out.push_back(make_call(stock_lock.of(in.d_id, in.lines.size()), std::move(pairs)));
  std::move(updates.begin(), updates.end(), std::back_inserter(out));
  return out;
}

// District, warehouse and customer: what the rollback case displays too.
outcome take_header(const new_order_input& in, std::span<const statement_result> r,
                    new_order_output& out) {
  for (std::size_t i = 0; i < first_item; ++i) {
    outcome o = one_row(r[i], i == 0 ? "district" : i == 1 ? "warehouse" : "customer");
    if (!o.ok()) return o;
  }
  out.w_id = in.w_id;
  out.d_id = in.d_id;
  out.c_id = in.c_id;
  out.o_id = r[0].rows[0].int_at(0);
  out.d_tax = r[0].rows[0].number_at(1);
  out.w_tax = r[1].rows[0].number_at(0);
  out.c_discount = r[2].rows[0].number_at(0);
  out.c_last = r[2].rows[0].text_at(1);
  out.c_credit = r[2].rows[0].text_at(2);
  return outcome::success();
}

bool original(const std::string& data) { return data.find("ORIGINAL") != std::string::npos; }

// What a line displays of its stock row: S_QUANTITY after the line's update, S_DIST_xx, S_DATA.
struct stock_seen {
  std::int64_t quantity = 0;
  std::string dist;
  std::string data;
};

// One line's display fields; its S_DIST_xx goes to `dist_info`.
void take_line(const order_line_input& line, const driver::row& item_row, const stock_seen& seen,
               new_order_line_output& out, std::string& dist_info) {
  out.supply_w_id = line.supply_w_id;
  out.i_id = line.i_id;
  out.quantity = line.quantity;
  out.i_price = item_row.number_at(1);
  out.i_name = item_row.text_at(2);
  out.s_quantity = seen.quantity;
  dist_info = seen.dist;
  out.brand_generic = original(item_row.text_at(3)) && original(seen.data) ? 'B' : 'G';
  out.ol_amount = round_cents(static_cast<double>(line.quantity) * out.i_price);
}

// Clause 2.4.2.2, as the stock UPDATE applies it: S_QUANTITY after an order of `ordered`.
std::int64_t after_order(std::int64_t s_quantity, std::int64_t ordered) {
  return s_quantity >= ordered + 10 ? s_quantity - ordered : s_quantity - ordered + 91;
}

// Each line's stock as its UPDATE ... RETURNING gave it (`r`: one result per line, stock order).
outcome stock_returned(const new_order_input& in, std::span<const statement_result> r,
                       std::vector<stock_seen>& seen) {
  const std::vector<std::size_t> order = stock_order(in);
  for (std::size_t k = 0; k < order.size(); ++k) {
    outcome o = one_row(r[k], "stock");
    if (!o.ok()) return o;
    const driver::row& row = r[k].rows[0];
    seen[order[k]] = stock_seen{row.int_at(0), row.text_at(1), row.text_at(2)};
  }
  return outcome::success();
}

// Each line's stock from the rows locked before the updates, its quantity replayed line by line
// in the updates' order (a row ordered twice shows each update's result).
outcome stock_locked(const new_order_input& in, const statement_result& read,
                     std::vector<stock_seen>& seen) {
  std::vector<std::int64_t> quantity(read.rows.size());
  for (std::size_t j = 0; j < read.rows.size(); ++j) quantity[j] = read.rows[j].int_at(2);
  for (std::size_t i : stock_order(in)) {
    const order_line_input& line = in.lines[i];
    std::size_t j = 0;
    while (j < read.rows.size() &&
           (read.rows[j].int_at(0) != line.supply_w_id || read.rows[j].int_at(1) != line.i_id)) {
      ++j;
    }
    if (j == read.rows.size()) {
      return outcome::make(driver::outcome_kind::failed, "", "stock: expected one row, found 0");
    }
    quantity[j] = after_order(quantity[j], line.quantity);
    seen[i] = stock_seen{quantity[j], read.rows[j].text_at(3), read.rows[j].text_at(4)};
  }
  return outcome::success();
}

// Line i's item among the items read: null when it is not there (an unused item).
const driver::row* item_of(const statement_result& read, std::int64_t i_id) {
  for (const driver::row& row : read.rows) {
    if (row.int_at(0) == i_id) return &row;
  }
  return nullptr;
}

// Items and stock; an unused item rolls back (clause 2.4.2.3).
outcome take_lines(const new_order_input& in, std::span<const statement_result> r,
                   bool update_returning, new_order_output& out,
                   std::vector<std::string>& dist_info) {
  const std::size_t n = in.lines.size();
  const statement_result& read = r[first_item];
  std::vector<const driver::row*> item_rows(n);
  for (std::size_t i = 0; i < n; ++i) {
    item_rows[i] = item_of(read, in.lines[i].i_id);
    if (item_rows[i] == nullptr) {
      out.item_not_valid = true;
      return outcome::make(driver::outcome_kind::rolled_back, "", "Item number is not valid");
    }
  }
  std::vector<stock_seen> seen(n);
  const std::span<const statement_result> stock_part = r.subspan(first_item + 1);
  outcome o = update_returning ? stock_returned(in, stock_part, seen)
                               : stock_locked(in, stock_part[0], seen);
  if (!o.ok()) return o;
  out.lines.assign(n, new_order_line_output{});
  dist_info.assign(n, std::string());
  for (std::size_t i = 0; i < n; ++i) {
    take_line(in.lines[i], *item_rows[i], seen[i], out.lines[i], dist_info[i]);
  }
  return outcome::success();
}

// Everything the first round trip read, checked; fills `out` and the lines' S_DIST_xx.
outcome take_reads(const new_order_input& in, std::span<const statement_result> r,
                   bool update_returning, new_order_output& out,
                   std::vector<std::string>& dist_info) {
  outcome failure = first_failure(r);
  if (!failure.ok()) return failure;
  outcome header = take_header(in, r, out);
  if (!header.ok()) return header;
  outcome lines = take_lines(in, r, update_returning, out, dist_info);
  if (!lines.ok()) return lines;
  double sum = 0;
  for (const new_order_line_output& l : out.lines) sum += l.ol_amount;
  out.o_ol_cnt = static_cast<std::int64_t>(in.lines.size());
  out.total_amount = sum * (1 - out.c_discount) * (1 + out.w_tax + out.d_tax);
  out.o_entry_d = now_text();
  return outcome::success();
}

std::vector<call> writes(const new_order_input& in, const new_order_output& out,
                         const std::vector<std::string>& dist_info) {
  std::vector<call> calls;
  calls.reserve(3);
  const std::int64_t all_local = in.all_local() ? 1 : 0;
  calls.push_back(make_call(insert_order, params(out.o_id, in.d_id, in.w_id, in.c_id, out.o_entry_d,
                                                 out.o_ol_cnt, all_local)));
  calls.push_back(make_call(insert_new_order, params(out.o_id, in.d_id, in.w_id)));
  std::vector<driver::value> p = params(out.o_id, in.d_id, in.w_id);
  p.reserve(3 + per_line_params * out.lines.size());
  for (std::size_t i = 0; i < out.lines.size(); ++i) {
    const new_order_line_output& l = out.lines[i];
    p.emplace_back(static_cast<std::int64_t>(i + 1));
    p.emplace_back(l.i_id);
    p.emplace_back(l.supply_w_id);
    p.emplace_back(l.quantity);
    p.emplace_back(l.ol_amount);
    p.emplace_back(dist_info[i]);
  }
  calls.push_back(make_call(insert_lines.of(out.lines.size()), std::move(p)));
  return calls;
}

}  // namespace

std::vector<std::size_t> stock_order(const new_order_input& in) {
  std::vector<std::size_t> order(in.lines.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const order_line_input& x = in.lines[a];
    const order_line_input& y = in.lines[b];
    if (x.supply_w_id != y.supply_w_id) return x.supply_w_id < y.supply_w_id;
    return x.i_id != y.i_id ? x.i_id < y.i_id : a < b;
  });
  return order;
}

shoal::task<driver::outcome> run_new_order(driver::session& s, const new_order_input& in,
                                           new_order_output& out) {
  const outcome began = co_await s.begin();
  if (!began.ok()) {
    outcome why = co_await abandon(s, began);
    co_return why;
  }
  const bool update_returning = s.update_returning();
  const std::vector<call> read_calls = reads(in, update_returning);
  const std::vector<statement_result> read =
      co_await s.execute_batch(read_calls, driver::then::nothing);
  std::vector<std::string> dist_info;
  const outcome checked = take_reads(in, read, update_returning, out, dist_info);
  if (!checked.ok()) {
    outcome why = co_await abandon(s, checked);
    co_return why;
  }
  const std::vector<call> write_calls = writes(in, out, dist_info);
  const std::vector<statement_result> wrote =
      co_await s.execute_batch(write_calls, driver::then::commit);
  const outcome written = first_failure(wrote);
  if (!written.ok()) {
    outcome why = co_await abandon(s, written);
    co_return why;
  }
  co_return outcome::success();
}

}  // namespace tpcc::txn
