// SPDX-License-Identifier: Apache-2.0
// The transaction tests' dataset and tools (dataset.hpp).
#include "dataset.hpp"

#include <stdexcept>
#include <utility>
#include <variant>

#include "driver/open.hpp"
#include "schema/schema.hpp"
#include "shoal/sync_wait.hpp"

namespace txn_test {
namespace {

using tpcc::driver::call;
using tpcc::driver::row;
using tpcc::driver::session;
using tpcc::driver::statement;
using tpcc::driver::statement_result;
using tpcc::driver::value;

const statement insert_warehouse{
    "t_insert_warehouse",
    "INSERT INTO warehouse (w_id, w_name, w_street_1, w_street_2, w_city, w_state, w_zip, "
    "w_tax, w_ytd) VALUES ($1, $2, 'w-street-1', 'w-street-2', 'w-city', 'WS', '123411111', $3, "
    "300000)"};
const statement insert_district{
    "t_insert_district",
    "INSERT INTO district (d_id, d_w_id, d_name, d_street_1, d_street_2, d_city, d_state, d_zip, "
    "d_tax, d_ytd, d_next_o_id) VALUES ($1, $2, $3, 'd-street-1', 'd-street-2', 'd-city', 'DS', "
    "'432111111', $4, 30000, $5)"};
const statement insert_customer{
    "t_insert_customer",
    "INSERT INTO customer (c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, "
    "c_street_2, c_city, c_state, c_zip, c_phone, c_since, c_credit, c_credit_lim, c_discount, "
    "c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data) VALUES ($1, $2, $3, $4, "
    "'OE', $5, 'c-street-1', 'c-street-2', 'c-city', 'CS', '567811111', '0123456789012345', $6, "
    "$7, 50000, $8, -10, 10, 1, 0, $9)"};
const statement insert_item{
    "t_insert_item",
    "INSERT INTO item (i_id, i_im_id, i_name, i_price, i_data) VALUES ($1, $1, $2, $3, $4)"};
const statement insert_stock{
    "t_insert_stock",
    "INSERT INTO stock (s_i_id, s_w_id, s_quantity, s_dist_01, s_dist_02, s_dist_03, s_dist_04, "
    "s_dist_05, s_dist_06, s_dist_07, s_dist_08, s_dist_09, s_dist_10, s_ytd, s_order_cnt, "
    "s_remote_cnt, s_data) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 0, 0, "
    "0, $14)"};
const statement insert_order{
    "t_insert_order",
    "INSERT INTO orders (o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, "
    "o_all_local) VALUES ($1, $2, $3, $4, $5, $6, 5, 1)"};
const statement insert_line{
    "t_insert_line",
    "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, "
    "ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES ($1, $2, $3, $4, $5, 1, $6, 5, "
    "$7, $8)"};
const statement insert_new_order{
    "t_insert_new_order", "INSERT INTO new_order (no_o_id, no_d_id, no_w_id) VALUES ($1, $2, $3)"};

template <class... Values>
call make(const statement& stmt, Values... vs) {
  return call{.stmt = &stmt, .params = values(std::move(vs)...)};
}

std::string customer_first(std::int64_t c) {
  switch (c) {
    case 10:
      return "CHARLIE";
    case 11:
      return "ALICE";
    case 12:
      return "BOB";
    case 20:
      return "ZED";
    case 21:
      return "ANNA";
    default:
      return "FIRST" + std::to_string(c);
  }
}

std::string customer_last(std::int64_t c) {
  if (c >= 10 && c <= 12) return "SHARED";
  if (c == 20 || c == 21) return "PAIR";
  return "LAST" + std::to_string(c);
}

void add_places(std::vector<call>& out) {
  for (std::int64_t w = 1; w <= 2; ++w) {
    out.push_back(
        make(insert_warehouse, w, "WH-" + std::to_string(w), 0.1 * static_cast<double>(w)));
    for (std::int64_t d = 1; d <= 10; ++d) {
      std::int64_t next = 1;
      if (w == 1 && d == 1) next = 4;
      if (w == 1 && d == 2) next = 25;
      out.push_back(make(insert_district, d, w, "DIST-" + std::to_string(d),
                         0.01 * static_cast<double>(d), next));
    }
  }
}

void add_customers(std::vector<call>& out) {
  for (std::int64_t w = 1; w <= 2; ++w) {
    for (std::int64_t d = 1; d <= 10; ++d) {
      for (std::int64_t c = 1; c <= 30; ++c) {
        const bool bad = c == 5;
        out.push_back(make(insert_customer, c, d, w, customer_first(c), customer_last(c),
                           std::string(old_date), std::string(bad ? "BC" : "GC"),
                           0.01 * static_cast<double>(c % 7),
                           bad ? std::string(500, 'd') : "data-" + std::to_string(c)));
      }
    }
  }
}

void add_items_and_stock(std::vector<call>& out) {
  for (std::int64_t i = 1; i <= 50; ++i) {
    out.push_back(make(insert_item, i, "item-" + std::to_string(i), item_price(i),
                       std::string(i % 2 == 0 ? "item-data-ORIGINAL" : "item-data-plain")));
    for (std::int64_t w = 1; w <= 2; ++w) {
      std::vector<value> p = values(i, w, w == 1 ? 10 + i : std::int64_t{100});
      for (std::int64_t d = 1; d <= 10; ++d) p.emplace_back(dist_info(w, d, i));
      p.emplace_back(std::string(i % 4 == 0 ? "stock-ORIGINAL" : "stock-plain"));
      out.push_back(call{.stmt = &insert_stock, .params = std::move(p)});
    }
  }
}

void add_order(std::int64_t d, std::int64_t o, std::int64_t c, std::int64_t carrier,
               const std::vector<std::int64_t>& items, std::vector<call>& out) {
  const value carrier_value = carrier == 0 ? value{} : value{carrier};
  out.push_back(call{.stmt = &insert_order,
                     .params = values(o, d, std::int64_t{1}, c, std::string(old_date))});
  out.back().params.push_back(carrier_value);
  for (std::size_t n = 1; n <= items.size(); ++n) {
    const value delivered = carrier == 0 ? value{} : value{std::string(old_date)};
    std::vector<value> p =
        values(o, d, std::int64_t{1}, static_cast<std::int64_t>(n), items[n - 1]);
    p.push_back(delivered);
    p.emplace_back(10.0 * static_cast<double>(n));
    p.emplace_back(dist_info(1, d, items[n - 1]));
    out.push_back(call{.stmt = &insert_line, .params = std::move(p)});
  }
  if (carrier == 0) out.push_back(make(insert_new_order, o, d, std::int64_t{1}));
}

void add_orders(std::vector<call>& out) {
  add_order(1, 1, 7, 3, {1, 2, 3, 4, 5}, out);
  add_order(1, 2, 8, 0, {3, 4, 5, 6, 7}, out);
  add_order(1, 3, 7, 0, {6, 7, 8, 9, 10}, out);
  add_order(2, 1, 12, 1, {1, 30, 31, 32, 33}, out);
  add_order(2, 24, 12, 0, {2, 30, 34, 35, 36}, out);
}

std::vector<call> dataset_calls() {
  std::vector<call> out;
  add_places(out);
  add_customers(out);
  add_items_and_stock(out);
  add_orders(out);
  return out;
}

std::vector<value> no_params() { return {}; }

void check(const tpcc::driver::outcome& o, const std::string& what) {
  if (!o.ok()) throw std::runtime_error(what + ": " + o.message);
}

}  // namespace

const statement district_row{"t_district",
                             "SELECT d_next_o_id, d_ytd FROM district WHERE d_w_id = $1 AND "
                             "d_id = $2"};
const statement warehouse_row{"t_warehouse", "SELECT w_ytd FROM warehouse WHERE w_id = $1"};
const statement stock_row{"t_stock",
                          "SELECT s_quantity, s_ytd, s_order_cnt, s_remote_cnt FROM stock "
                          "WHERE s_w_id = $1 AND s_i_id = $2"};
const statement order_row{"t_order",
                          "SELECT o_c_id, o_carrier_id, o_ol_cnt, o_all_local FROM orders "
                          "WHERE o_w_id = $1 AND o_d_id = $2 AND o_id = $3"};
const statement new_order_count{
    "t_new_order_count",
    "SELECT count(*) FROM new_order WHERE no_w_id = $1 AND no_d_id = $2 AND no_o_id = $3"};
const statement order_lines{
    "t_order_lines",
    "SELECT ol_number, ol_i_id, ol_supply_w_id, ol_quantity, ol_amount, ol_dist_info, "
    "ol_delivery_d FROM order_line WHERE ol_w_id = $1 AND ol_d_id = $2 AND ol_o_id = $3 "
    "ORDER BY ol_number"};
const statement customer_row{
    "t_customer",
    "SELECT c_balance, c_ytd_payment, c_payment_cnt, c_delivery_cnt, c_data FROM customer "
    "WHERE c_w_id = $1 AND c_d_id = $2 AND c_id = $3"};
const statement history_rows{
    "t_history",
    "SELECT h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_amount, h_data FROM history"};
const statement orders_count{"t_orders_count", "SELECT count(*) FROM orders"};

std::string dist_info(std::int64_t w, std::int64_t d, std::int64_t i) {
  std::string s = "S" + std::to_string(w) + "-D" + std::to_string(d) + "-I" + std::to_string(i);
  s.resize(24, 'x');
  return s;
}

double item_price(std::int64_t i) { return static_cast<double>(i) + 0.25; }

shoal::task<void> load_dataset(session& s) {
  check(co_await s.begin(), "begin the schema");
  for (const statement& create : tpcc::schema::create_statements()) {
    statement_result r = co_await s.execute(create, no_params());
    check(r.status, std::string(create.name));
  }
  check(co_await s.commit(), "commit the schema");
  const std::vector<call> rows = dataset_calls();
  const tpcc::driver::outcome began = co_await s.begin();
  check(began, "begin");
  const std::vector<statement_result> loaded =
      co_await s.execute_batch(rows, tpcc::driver::then::commit);
  for (const statement_result& r : loaded) check(r.status, "loading the dataset");
}

shoal::task<void> drop_tables(session& s) {
  check(co_await s.begin(), "begin the drops");
  for (const statement& drop : tpcc::schema::drop_statements()) {
    statement_result r = co_await s.execute(drop, no_params());
    check(r.status, std::string(drop.name));
  }
  check(co_await s.commit(), "commit the drops");
}

shoal::task<std::vector<row>> query(session& s, const statement& stmt, std::vector<value> params) {
  check(co_await s.begin(), "begin before " + std::string(stmt.name));
  statement_result r = co_await s.execute(stmt, std::move(params));
  check(r.status, std::string(stmt.name));
  check(co_await s.commit(), "commit after " + std::string(stmt.name));
  co_return std::move(r.rows);
}

shoal::task<row> one(session& s, const statement& stmt, std::vector<value> params) {
  std::vector<row> rows = co_await query(s, stmt, std::move(params));
  if (rows.size() != 1) {
    throw std::runtime_error(std::string(stmt.name) + ": " + std::to_string(rows.size()) +
                             " rows, expected 1");
  }
  co_return std::move(rows[0]);
}

namespace {

tpcc::driver::database_options sqlite_options(const std::filesystem::path& dir) {
  return {.target = "sqlite:" + (dir / "tpcc.db").string(), .connections = 1};
}

shoal::task<void> on_pool(shoal::thread_pool& pool, shoal::task<void> body) {
  co_await pool.schedule_on(0);
  co_await std::move(body);
}

shoal::task<std::unique_ptr<tpcc::driver::database>> open_and_load(
    tpcc::driver::database_options options) {
  tpcc::driver::open_result opened = co_await tpcc::driver::open_database(std::move(options));
  if (auto* failure = std::get_if<tpcc::driver::outcome>(&opened)) {
    throw std::runtime_error("open: " + failure->message);
  }
  auto db = std::move(std::get<std::unique_ptr<tpcc::driver::database>>(opened));
  tpcc::driver::lease lease = co_await db->acquire();
  if (!lease) throw std::runtime_error("acquire: " + lease.status().message);
  co_await load_dataset(*lease);
  co_return db;
}

shoal::task<void> with_session(tpcc::driver::database& db,
                               shoal::task<void> (*body)(tpcc::driver::session&)) {
  tpcc::driver::lease lease = co_await db.acquire();
  if (!lease) throw std::runtime_error("acquire: " + lease.status().message);
  co_await body(*lease);
}

shoal::task<void> open_into(std::filesystem::path dir,
                            std::unique_ptr<tpcc::driver::database>& db) {
  db = co_await open_and_load(sqlite_options(dir));
}

}  // namespace

sqlite_fixture::sqlite_fixture() { run_task(open_into(dir_.path(), db_)); }

sqlite_fixture::~sqlite_fixture() {
  if (db_) run_task(db_->close());
  db_.reset();
}

void sqlite_fixture::run_task(shoal::task<void> body) {
  shoal::sync_wait(on_pool(workers_.pool, std::move(body)));
}

void sqlite_fixture::run(shoal::task<void> (*body)(tpcc::driver::session&)) {
  run_task(with_session(*db_, body));
}

}  // namespace txn_test
