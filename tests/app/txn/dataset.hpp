// SPDX-License-Identifier: Apache-2.0
// tests/app/txn/dataset.hpp: a small hand-built TPC-C dataset and the tools the transaction
// tests use to run against it.
//
// The dataset (every figure below is what the tests' expectations are computed from):
//   2 warehouses: W_NAME "WH-w", W_TAX 0.1 * w, W_YTD 300000.
//   10 districts each: D_NAME "DIST-d", D_TAX 0.01 * d, D_YTD 30000, D_NEXT_O_ID 1, except
//     (1,1): 4 and (1,2): 25.
//   30 customers per district: C_FIRST "FIRSTc", C_LAST "LASTc", C_DISCOUNT 0.01 * (c % 7),
//     C_BALANCE -10, C_YTD_PAYMENT 10, C_PAYMENT_CNT 1, C_DELIVERY_CNT 0, C_CREDIT "GC" and
//     C_DATA "data-c", except: c 5 is "BC" with C_DATA of 500 'd'; c 10, 11, 12 are "SHARED"
//     with C_FIRST CHARLIE, ALICE, BOB; c 20, 21 are "PAIR" with ZED, ANNA.
//   50 items: I_PRICE i + 0.25, I_NAME "item-i", I_DATA contains "ORIGINAL" when i is even.
//   Stock of every item in both warehouses: S_QUANTITY 10 + i in warehouse 1, 100 in 2;
//     S_DATA contains "ORIGINAL" when i % 4 == 0; S_DIST_dd = dist_info(w, d, i).
//   Orders, 5 lines each (OL_QUANTITY 5, OL_AMOUNT 10 * OL_NUMBER, supply warehouse 1):
//     (1,1): o 1 customer 7 carrier 3 items 1-5; o 2 customer 8 items 3-7; o 3 customer 7
//            items 6-10; NEW-ORDER rows for 2 and 3.
//     (1,2): o 1 customer 12 carrier 1 items 1,30,31,32,33; o 24 customer 12 items
//            2,30,34,35,36; NEW-ORDER row for 24.
// Thread-safety: plain functions; the coroutines run on the caller's executor.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "driver/database.hpp"
#include "driver/session.hpp"
#include "driver/statement.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "support/running_pool.hpp"
#include "support/temp_dir.hpp"

namespace txn_test {

inline const char* const old_date = "2024-01-01 00:00:00";

// S_DIST_dd of item i in warehouse w: 24 characters.
std::string dist_info(std::int64_t w, std::int64_t d, std::int64_t i);
double item_price(std::int64_t i);

// Creates the schema and loads the dataset in one transaction. Throws on failure.
shoal::task<void> load_dataset(tpcc::driver::session& s);
// Drops every table (for a reused PostgreSQL database).
shoal::task<void> drop_tables(tpcc::driver::session& s);

// Runs `stmt` in a transaction of its own (begin, the statement, commit); throws
// with the message unless both succeed.
shoal::task<std::vector<tpcc::driver::row>> query(tpcc::driver::session& s,
                                                  const tpcc::driver::statement& stmt,
                                                  std::vector<tpcc::driver::value> params);
// The same, exactly one row expected.
shoal::task<tpcc::driver::row> one(tpcc::driver::session& s, const tpcc::driver::statement& stmt,
                                   std::vector<tpcc::driver::value> params);

template <class... Values>
std::vector<tpcc::driver::value> values(Values... vs) {
  std::vector<tpcc::driver::value> out;
  (out.emplace_back(std::move(vs)), ...);
  return out;
}

// Integer parameters.
template <class... Ints>
std::vector<tpcc::driver::value> ints(Ints... is) {
  return values(static_cast<std::int64_t>(is)...);
}

// Verification statements.
extern const tpcc::driver::statement district_row;   // d_next_o_id, d_ytd (w, d)
extern const tpcc::driver::statement warehouse_row;  // w_ytd (w)
extern const tpcc::driver::statement stock_row;      // s_quantity, s_ytd, s_order_cnt, s_remote_cnt
extern const tpcc::driver::statement order_row;      // o_c_id, o_carrier_id, o_ol_cnt, o_all_local
extern const tpcc::driver::statement new_order_count;  // (w, d, o)
extern const tpcc::driver::statement order_lines;      // ol_number, ol_i_id, ol_supply_w_id,
                                                       // ol_quantity, ol_amount, ol_dist_info,
                                                       // ol_delivery_d (w, d, o)
extern const tpcc::driver::statement customer_row;     // c_balance, c_ytd_payment, c_payment_cnt,
                                                       // c_delivery_cnt, c_data (w, d, c)
extern const tpcc::driver::statement history_rows;     // h_c_id, h_c_d_id, h_c_w_id, h_d_id,
                                                       // h_w_id, h_amount, h_data
extern const tpcc::driver::statement orders_count;     // count(*) of orders

// A temporary directory, a 2-worker pool and a SQLite database loaded with the dataset.
class sqlite_fixture {
 public:
  sqlite_fixture();
  sqlite_fixture(const sqlite_fixture&) = delete;
  sqlite_fixture& operator=(const sqlite_fixture&) = delete;
  ~sqlite_fixture();

  // Runs `body` on the pool with a session of the loaded database; rethrows what it throws.
  void run(shoal::task<void> (*body)(tpcc::driver::session&));
  [[nodiscard]] tpcc::driver::database& database() { return *db_; }
  shoal::thread_pool& pool() { return workers_.pool; }
  // Runs any task on the pool.
  void run_task(shoal::task<void> body);

 private:
  tpcc::testing::temp_dir dir_{"tpcc-txn"};
  shoal::testing::running_pool workers_{2};
  std::unique_ptr<tpcc::driver::database> db_;
};

}  // namespace txn_test
