// SPDX-License-Identifier: Apache-2.0
// tests/app/loader/load_csv_mysql_test.cpp: a `load --csv` export imported into a throwaway
// MariaDB with LOAD DATA INFILE (the statements docs/tpcc/csv-export.md shows), then the
// finishing plain load and check, run as users run them.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "binary.hpp"
#include "load_split_support.hpp"
#include "support/temp_dir.hpp"
#include "testing/mariadb_server.hpp"
#include "testing/required_in_ci.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::describe;
using tpcc::testing::mariadb_server;
using tpcc::testing::run_binary;

TEST(load_csv_mysql, ACsvExportImportedWithLoadDataPassesCheck) {
  if (!mariadb_server::available()) {
    tpcc::testing::require_in_ci("MariaDB (the server binaries)");
    GTEST_SKIP() << "MariaDB server binaries not installed";
  }
  const std::unique_ptr<mariadb_server> server = mariadb_server::start_one();
  const tpcc::testing::temp_dir dir("shoal-load-csv-my");
  const std::string csv = dir.file("csv");
  binary_result r =
      run_binary({"load", "--csv", csv, "--warehouses", "1", "--seed", "5", "--no-progress"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string db = server->uri();
  r = run_binary({"init", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  server->sql(tpcc::testing::load_data_script(csv));
  EXPECT_EQ(server->sql("SELECT count(*) FROM orders WHERE o_carrier_id IS NULL; "
                        "SELECT count(*) FROM item; SELECT min(w_ytd) FROM warehouse;"),
            "9000\n100000\n300000.00\n");
  r = run_binary({"load", "--db", db, "--no-progress"}, 300s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  tpcc::testing::expect_check_passes(db);
}

}  // namespace
