// SPDX-License-Identifier: Apache-2.0
// How many statements New-Order sends (docs/tpcc/design/mysql-driver.md, "The server's cost per
// transaction"): the items in one read and the lines in one INSERT, whatever the line count,
// recorded by a session that forwards every call to the SQLite dataset (dataset.hpp).
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "dataset.hpp"
#include "txn/new_order.hpp"

namespace txn_test {
namespace {

using tpcc::driver::call;
using tpcc::driver::outcome;
using tpcc::driver::session;
using tpcc::driver::statement;
using tpcc::driver::statement_result;
using tpcc::driver::then;
using tpcc::driver::value;

// Forwards to `inner` and records the name of every statement it is asked to run.
class recording_session final : public session {
 public:
  explicit recording_session(session& inner) : inner_(inner) {}
  shoal::task<outcome> begin() override { return inner_.begin(); }
  shoal::task<statement_result> execute(const statement& stmt, std::vector<value> p) override {
    names.emplace_back(stmt.name);
    return inner_.execute(stmt, std::move(p));
  }
  shoal::task<std::vector<statement_result>> execute_batch(std::span<const call> calls,
                                                           then after) override {
    for (const call& c : calls) names.emplace_back(c.stmt->name);
    return inner_.execute_batch(calls, after);
  }
  shoal::task<outcome> copy(const tpcc::driver::bulk_rows& rows) override {
    return inner_.copy(rows);
  }
  shoal::task<outcome> commit() override { return inner_.commit(); }
  shoal::task<outcome> rollback() override { return inner_.rollback(); }
  [[nodiscard]] std::uint64_t round_trips() const noexcept override { return inner_.round_trips(); }
  [[nodiscard]] bool healthy() const noexcept override { return inner_.healthy(); }

  std::vector<std::string> names;

 private:
  session& inner_;
};

// Six lines of warehouse 1, district 2, customer 3: items 1..6 from warehouse 1.
tpcc::txn::new_order_input six_lines() {
  tpcc::txn::new_order_input in;
  in.w_id = 1;
  in.d_id = 2;
  in.c_id = 3;
  for (std::int64_t i = 1; i <= 6; ++i) {
    in.lines.push_back(tpcc::txn::order_line_input{.i_id = i, .supply_w_id = 1, .quantity = 1});
  }
  return in;
}

shoal::task<void> expect_one_statement_per_table_for_the_lines(session& s) {
  recording_session rec(s);
  tpcc::txn::new_order_output out;
  const outcome result = co_await tpcc::txn::run_new_order(rec, six_lines(), out);
  EXPECT_TRUE(result.ok()) << result.message;
  const std::vector<std::string> expected{
      "tpcc_no_district",      "tpcc_no_warehouse",    "tpcc_no_customer",
      "tpcc_no_items_06",      "tpcc_no_stock_02",     "tpcc_no_stock_02",
      "tpcc_no_stock_02",      "tpcc_no_stock_02",     "tpcc_no_stock_02",
      "tpcc_no_stock_02",      "tpcc_no_insert_order", "tpcc_no_insert_new_order",
      "tpcc_no_insert_line_06"};
  EXPECT_EQ(rec.names, expected);
}

TEST(new_order_statements, ItemsAreOneReadAndLinesOneInsert) {
  sqlite_fixture f;
  f.run(&expect_one_statement_per_table_for_the_lines);
}

}  // namespace
}  // namespace txn_test
