// SPDX-License-Identifier: Apache-2.0
// loader_support.hpp: what the loader tests share: a scratch directory and worker pool, opening
// a database, and counting the rows of every table.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "driver/database.hpp"
#include "driver/open.hpp"
#include "driver/statement.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "support/running_pool.hpp"
#include "support/temp_dir.hpp"

namespace tpcc::testing {

using shoal::task;

// A temporary directory and a 2-worker pool, both gone at the end of the test.
class loader_scratch {
 public:
  loader_scratch() = default;
  loader_scratch(const loader_scratch&) = delete;
  loader_scratch& operator=(const loader_scratch&) = delete;
  ~loader_scratch() = default;

  [[nodiscard]] std::string sqlite_target() const { return "sqlite:" + dir_.file("tpcc.db"); }

  template <class T>
  T run(task<T> body) {
    return shoal::sync_wait(on_pool(workers_.pool, std::move(body)));
  }

 private:
  template <class T>
  static task<T> on_pool(shoal::thread_pool& pool, task<T> body) {
    co_await pool.schedule();
    co_return co_await std::move(body);
  }

  temp_dir dir_{"shoal-load"};
  shoal::testing::running_pool workers_{2};  // stopped before the directory goes
};

inline driver::database_options options_for(std::string target, std::size_t connections) {
  return {.target = std::move(target), .connections = connections};
}

inline task<std::unique_ptr<driver::database>> opened(std::string target, std::size_t connections) {
  const driver::database_options options = options_for(std::move(target), connections);
  driver::open_result r = co_await driver::open_database(options);
  if (auto* failure = std::get_if<driver::outcome>(&r)) {
    throw std::runtime_error("open failed: " + failure->message);
  }
  co_return std::move(std::get<std::unique_ptr<driver::database>>(r));
}

// One count per table, and the order lines the orders declare.
inline constexpr std::array<driver::statement, 10> counts{{
    {"t_count_item", "SELECT count(*) FROM item"},
    {"t_count_warehouse", "SELECT count(*) FROM warehouse"},
    {"t_count_district", "SELECT count(*) FROM district"},
    {"t_count_customer", "SELECT count(*) FROM customer"},
    {"t_count_history", "SELECT count(*) FROM history"},
    {"t_count_orders", "SELECT count(*) FROM orders"},
    {"t_count_new_order", "SELECT count(*) FROM new_order"},
    {"t_count_order_line", "SELECT count(*) FROM order_line"},
    {"t_count_stock", "SELECT count(*) FROM stock"},
    {"t_sum_ol_cnt", "SELECT coalesce(sum(o_ol_cnt), 0) FROM orders"},
}};
inline constexpr std::array<const char*, 10> count_names{
    "item",   "warehouse", "district",   "customer", "history",
    "orders", "new_order", "order_line", "stock",    "sum(o_ol_cnt)"};

inline task<std::map<std::string, std::int64_t>> count_rows(driver::database& db) {
  std::map<std::string, std::int64_t> out;
  driver::lease l = co_await db.acquire();
  if (!l) throw std::runtime_error("acquire failed: " + l.status().message);
  const driver::outcome began = co_await l->begin();
  if (!began.ok()) throw std::runtime_error("begin: " + began.message);
  for (std::size_t i = 0; i < counts.size(); ++i) {
    const driver::statement_result r = co_await l->execute(counts[i], std::vector<driver::value>());
    if (!r.ok() || r.rows.size() != 1) throw std::runtime_error("count: " + r.status.message);
    out[count_names[i]] = r.rows[0].int_at(0);
  }
  const driver::outcome done = co_await l->commit();
  if (!done.ok()) throw std::runtime_error("commit: " + done.message);
  co_return out;
}

// The counts of a complete load of `w` warehouses (sum(o_ol_cnt) checked against order_line).
inline void expect_complete(std::map<std::string, std::int64_t> c, std::int64_t w) {
  EXPECT_EQ(c["item"], 100'000);
  EXPECT_EQ(c["warehouse"], w);
  EXPECT_EQ(c["district"], 10 * w);
  EXPECT_EQ(c["customer"], 30'000 * w);
  EXPECT_EQ(c["history"], 30'000 * w);
  EXPECT_EQ(c["orders"], 30'000 * w);
  EXPECT_EQ(c["new_order"], 9'000 * w);
  EXPECT_EQ(c["stock"], 100'000 * w);
  EXPECT_EQ(c["order_line"], c["sum(o_ol_cnt)"]);
  EXPECT_GT(c["order_line"], 270'000 * w);
  EXPECT_LT(c["order_line"], 330'000 * w);
}

}  // namespace tpcc::testing
