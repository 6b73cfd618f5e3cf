// SPDX-License-Identifier: Apache-2.0
// tests/app/loader/load_split_postgres_test.cpp: `load --shard` and `load --csv` against a
// throwaway PostgreSQL, run as users run them: three shard processes started together, then the
// finishing plain load and check; an export imported with psql's \copy (COPY FROM, CSV), then
// check. One server for the program (ONE_PROCESS), one database per test.
#include <gtest/gtest.h>

#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "binary.hpp"
#include "load_split_support.hpp"
#include "support/temp_dir.hpp"
#include "testing/postgres_server.hpp"
#include "testing/required_in_ci.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::expect_check_passes;
using tpcc::testing::postgres_server;
using tpcc::testing::run_binary;

class load_split_postgres : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!postgres_server::available()) return;
    try {
      server = std::make_unique<postgres_server>();
      server->sql("CREATE DATABASE shards; CREATE DATABASE imported");
    } catch (const std::exception& e) {
      setup_failure = e.what();
    }
  }
  static void TearDownTestSuite() { server.reset(); }

  void SetUp() override {
    if (!postgres_server::available()) {
      tpcc::testing::require_in_ci("PostgreSQL (the server binaries)");
      GTEST_SKIP() << "PostgreSQL server binaries not installed";
    }
    ASSERT_TRUE(setup_failure.empty()) << setup_failure;
  }

  // The key=value target of database `name`.
  static std::string target(const std::string& name) {
    std::string conninfo = server->conninfo();
    conninfo.replace(conninfo.find("dbname=postgres"), 15, "dbname=" + name);
    return conninfo;
  }

  static inline std::unique_ptr<postgres_server> server;
  static inline std::string setup_failure;
};

TEST_F(load_split_postgres, ThreeShardProcessesStartedTogetherLoadOneDatabase) {
  const std::string db = target("shards");
  binary_result r = run_binary({"init", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<binary_result> shards =
      tpcc::testing::load_shards_together(db, 3, "2", {"--connections", "2"});
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(shards[i].exit_code, 0) << describe(shards[i]);
    EXPECT_TRUE(contains(shards[i].out, "shard " + std::to_string(i) + "/3 done")) << shards[i].out;
  }
  EXPECT_EQ(server->sql("\\c shards\nSELECT string_agg(w_id::text, ',' ORDER BY w_id) FROM "
                        "tpcc_loaded; SELECT count(*) FROM item"),
            "0,1,2\n100000\n");
  r = run_binary({"load", "--db", db, "--no-progress"}, 300s);  // the indexes, the statistics
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "load: 2 warehouses loaded, 0 rows in ")) << r.out;
  expect_check_passes(db);
}

TEST_F(load_split_postgres, ACsvExportImportedWithCopyPassesCheck) {
  const tpcc::testing::temp_dir dir("shoal-load-csv-pg");
  const std::string csv = dir.file("csv");
  binary_result r =
      run_binary({"load", "--csv", csv, "--warehouses", "1", "--seed", "5", "--no-progress"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string db = target("imported");
  r = run_binary({"init", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  server->sql("\\c imported\n" + tpcc::testing::copy_script(csv));
  // NULL read back as NULL: the 900 undelivered orders of each district and their lines.
  EXPECT_EQ(server->sql("\\c imported\nSELECT count(*) FROM orders WHERE o_carrier_id IS NULL; "
                        "SELECT count(*) = count(*) FILTER (WHERE ol_delivery_d IS NULL) "
                        "FROM order_line WHERE ol_o_id >= 2101; SELECT count(*) FROM order_line "
                        "WHERE ol_delivery_d IS NULL AND ol_o_id < 2101; SELECT w_ytd FROM "
                        "warehouse"),
            "9000\nt\n0\n300000.00\n");
  r = run_binary({"load", "--db", db, "--no-progress"}, 300s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  expect_check_passes(db);
}

}  // namespace
