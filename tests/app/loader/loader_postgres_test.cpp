// SPDX-License-Identifier: Apache-2.0
// The loader against a throwaway PostgreSQL (app/tpcc/testing/postgres_server.hpp): init detects
// PostgreSQL without Citus; a missing schema is refused with SQLSTATE 42P01; a 2-warehouse load
// with COPY, two parts at a time, gives every table its rows, the meta and the indexes; the
// INSERT baseline loads one warehouse the same way.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "driver/database.hpp"
#include "loader/loader.hpp"
#include "loader/progress.hpp"
#include "loader_support.hpp"
#include "schema/apply.hpp"
#include "schema/meta.hpp"
#include "shoal/task.hpp"
#include "testing/postgres_server.hpp"

namespace {

using shoal::task;
using tpcc::driver::database;
using tpcc::driver::outcome;
using tpcc::loader::load_method;
using tpcc::loader::load_options;
using tpcc::loader::load_progress;
using tpcc::testing::postgres_server;

load_options warehouses(std::int64_t count, load_method method) {
  return {.warehouses = count, .parallel = 2, .seed = 11, .rows_per_copy = 2000, .method = method};
}

// ITEM (0) and every warehouse.
std::vector<std::int64_t> all_parts(std::int64_t count) {
  std::vector<std::int64_t> parts;
  for (std::int64_t w = 0; w <= count; ++w) parts.push_back(w);
  return parts;
}

task<void> load_warehouses(std::string conninfo, std::int64_t count, load_method method) {
  std::unique_ptr<database> db = co_await tpcc::testing::opened(conninfo, 3);
  tpcc::schema::init_report report;
  const outcome created = co_await tpcc::schema::create_schema(*db, report);
  EXPECT_TRUE(created.ok()) << created.message;
  EXPECT_EQ(report.detected, tpcc::schema::engine::postgres);
  EXPECT_FALSE(report.distributed);
  load_progress progress;
  const load_options options = warehouses(count, method);
  const outcome loaded = co_await tpcc::loader::load(*db, options, progress);
  EXPECT_TRUE(loaded.ok()) << loaded.message;
  std::map<std::string, std::int64_t> counts = co_await tpcc::testing::count_rows(*db);
  tpcc::testing::expect_complete(counts, count);
  const tpcc::schema::meta_result meta = co_await tpcc::schema::read_meta(*db);
  EXPECT_TRUE(std::holds_alternative<tpcc::schema::load_meta>(meta));
  if (const auto* m = std::get_if<tpcc::schema::load_meta>(&meta)) {
    EXPECT_EQ(m->warehouses, count);
    EXPECT_EQ(m->loaded, all_parts(count));
  }
  EXPECT_EQ(progress.snapshot().warehouses_done, count);
  co_await db->close();
}

task<std::string> refused_without_schema(std::string conninfo) {
  std::unique_ptr<database> db = co_await tpcc::testing::opened(conninfo, 1);
  load_progress progress;
  const load_options options = warehouses(1, load_method::copy);
  const outcome refused = co_await tpcc::loader::load(*db, options, progress);
  co_await db->close();
  co_return refused.sqlstate + " " + refused.message;
}

class loader_postgres : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!postgres_server::available()) {
      GTEST_SKIP() << "PostgreSQL server binaries not found: skipping the PostgreSQL load tests";
    }
    server_ = std::make_unique<postgres_server>();
  }

  void expect_indexes() const {
    EXPECT_EQ(server_->sql("SELECT count(*) FROM pg_indexes WHERE indexname IN "
                           "('customer_by_name', 'orders_by_customer')"),
              "2\n");
  }

  std::unique_ptr<postgres_server> server_;
  tpcc::testing::loader_scratch scratch_;
};

TEST_F(loader_postgres, LoadsTwoWarehousesWithCopy) {
  scratch_.run(load_warehouses(server_->conninfo(), 2, load_method::copy));
  expect_indexes();
  // What COPY wrote reads back as clause 4.3.3.1 says (a few spot checks through psql).
  EXPECT_EQ(server_->sql("SELECT count(*) FROM orders WHERE o_carrier_id IS NULL"), "18000\n");
  EXPECT_EQ(server_->sql("SELECT min(w_ytd), max(d_next_o_id) FROM warehouse, district"),
            "300000.00|3001\n");
  EXPECT_EQ(server_->sql("SELECT count(DISTINCT c_last) FROM customer WHERE c_id <= 1000"),
            "1000\n");
}

TEST_F(loader_postgres, RefusesToLoadWithoutASchema) {
  EXPECT_EQ(scratch_.run(refused_without_schema(server_->conninfo())),
            "42P01 schema missing: run `shoal-tpcc init` first");
}

TEST_F(loader_postgres, LoadsOneWarehouseWithTheInsertBaseline) {
  scratch_.run(load_warehouses(server_->conninfo(), 1, load_method::insert));
  expect_indexes();
}

}  // namespace
