// SPDX-License-Identifier: Apache-2.0
// tests/app/loader/load_split_test.cpp: `load --shard` and `load --csv` on SQLite, run as users
// run them: three shard processes started together on one file, then the finishing plain load
// and check; an export imported with sqlite3's .import, checked, and compared row by row with a
// direct load of the same seed; bad values refused before any work.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "binary.hpp"
#include "load_split_support.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::expect_check_passes;
using tpcc::testing::run_binary;

constexpr const char* sqlite3_missing =
    "the sqlite3 shell is missing (scripts/install-deps.sh installs it)";

bool have_sqlite3_shell() { return std::system("command -v sqlite3 >/dev/null 2>&1") == 0; }

// sqlite3 FILE < script; the output, or a failure naming the script.
std::string sqlite3_run(const tpcc::testing::temp_dir& dir, const std::string& db,
                        const std::string& script) {
  const std::string input = dir.file("input.sql");
  std::ofstream(input) << script;
  std::string log;
  const int status =
      tpcc::testing::run_shell("sqlite3 -batch " + db + " <" + input, dir.file("sqlite3.log"), log);
  EXPECT_EQ(status, 0) << script << "\n" << log;
  return log;
}

// Rows of one file's table that the other lacks, both ways, and both counts: "a b c d".
std::string table_difference(const std::string& table) {
  return "SELECT '" + table + "', (SELECT count(*) FROM " + table +
         "), (SELECT count(*) FROM other." + table + "), (SELECT count(*) FROM (SELECT * FROM " +
         table + " EXCEPT SELECT * FROM other." + table +
         ")), (SELECT count(*) FROM (SELECT * FROM other." + table + " EXCEPT SELECT * FROM " +
         table + "));\n";
}

// The load time, the same in every row of a load, set to 'T' (loads a second apart differ).
constexpr const char* same_load_time =
    "UPDATE customer SET c_since = 'T'; UPDATE history SET h_date = 'T';\n"
    "UPDATE orders SET o_entry_d = 'T';\n"
    "UPDATE order_line SET ol_delivery_d = 'T' WHERE ol_delivery_d IS NOT NULL;\n";

constexpr const char* distinct_load_times =
    "SELECT count(*) FROM (SELECT c_since FROM customer UNION SELECT h_date FROM history "
    "UNION SELECT o_entry_d FROM orders UNION SELECT ol_delivery_d FROM order_line "
    "WHERE ol_delivery_d IS NOT NULL);\n";

TEST(load_split, ThreeShardProcessesStartedTogetherLoadOneSqliteFile) {
  ASSERT_TRUE(have_sqlite3_shell()) << sqlite3_missing;
  const tpcc::testing::temp_dir dir("shoal-load-shards");
  const std::string file = dir.file("tpcc.db");
  const std::string db = "sqlite:" + file;
  binary_result r = run_binary({"init", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<binary_result> shards = tpcc::testing::load_shards_together(db, 3, "2");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(shards[i].exit_code, 0) << describe(shards[i]);
    // 2 warehouses over 3 shards: shard 0 takes none (only the items), 1 and 2 one each.
    EXPECT_TRUE(
        contains(shards[i].out, i == 0 ? "load: 0 warehouses loaded" : "load: 1 warehouse loaded"))
        << shards[i].out;
    EXPECT_TRUE(contains(shards[i].out, "shard " + std::to_string(i) + "/3 done")) << shards[i].out;
  }
  EXPECT_EQ(sqlite3_run(dir, file,
                        "SELECT count(*) FROM item; SELECT group_concat(w_id) FROM "
                        "(SELECT w_id FROM tpcc_loaded ORDER BY w_id);\n"
                        "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND "
                        "sql IS NOT NULL;\n"),
            "100000\n0,1,2\n0\n");  // every part once; no secondary index yet
  // A shard run again resumes: its part is there, so it loads nothing.
  r = run_binary({"load", "--db", db, "--shard", "1/3", "--warehouses", "2", "--no-progress"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, " 0 rows in ")) << r.out;
  // The finishing plain load loads nothing and builds the indexes.
  r = run_binary({"load", "--db", db, "--no-progress"}, 300s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "load: 2 warehouses loaded, 0 rows in ")) << r.out;
  EXPECT_NE(sqlite3_run(dir, file,
                        "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND "
                        "sql IS NOT NULL;\n"),
            "0\n");
  expect_check_passes(db);
}

TEST(load_split, ACsvExportImportedBySqliteIsWhatADirectLoadWrites) {
  ASSERT_TRUE(have_sqlite3_shell()) << sqlite3_missing;
  const tpcc::testing::temp_dir dir("shoal-load-csv");
  const std::string direct = dir.file("direct.db");
  const std::string imported = dir.file("imported.db");
  const std::string csv = dir.file("csv");
  binary_result r = run_binary({"init", "--db", "sqlite:" + direct});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = run_binary(
      {"load", "--db", "sqlite:" + direct, "--warehouses", "1", "--seed", "9", "--no-progress"},
      300s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = run_binary({"load", "--csv", csv, "--warehouses", "1", "--seed", "9", "--no-progress"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "written to " + csv + " (seed 9): ")) << r.out;
  r = run_binary({"init", "--db", "sqlite:" + imported});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  sqlite3_run(dir, imported, tpcc::testing::sqlite_import_script(csv));
  r = run_binary({"load", "--db", "sqlite:" + imported, "--no-progress"}, 300s);  // the indexes
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  expect_check_passes("sqlite:" + imported);

  EXPECT_EQ(sqlite3_run(dir, direct, distinct_load_times), "1\n");
  EXPECT_EQ(sqlite3_run(dir, imported, distinct_load_times), "1\n");
  sqlite3_run(dir, direct, same_load_time);
  sqlite3_run(dir, imported, same_load_time);
  std::string compare = "ATTACH '" + direct + "' AS other;\n";
  for (const char* t : {"item", "warehouse", "district", "customer", "history", "orders",
                        "new_order", "order_line", "stock", "tpcc_meta", "tpcc_loaded"}) {
    compare += table_difference(t);
  }
  const std::string differences = sqlite3_run(dir, imported, compare);
  for (const char* line : {"item|100000|100000|0|0", "warehouse|1|1|0|0", "district|10|10|0|0",
                           "customer|30000|30000|0|0", "history|30000|30000|0|0",
                           "orders|30000|30000|0|0", "new_order|9000|9000|0|0",
                           "stock|100000|100000|0|0", "tpcc_meta|4|4|0|0", "tpcc_loaded|2|2|0|0"}) {
    EXPECT_TRUE(contains(differences, line)) << line << " in\n" << differences;
  }
  const auto at = differences.find("order_line|");
  ASSERT_NE(at, std::string::npos) << differences;
  const std::string order_lines = differences.substr(at, differences.find('\n', at) - at);
  EXPECT_TRUE(order_lines.ends_with("|0|0")) << order_lines;
}

TEST(load_split, BadShardsAndCsvDirectoriesAreRefusedBeforeAnyWork) {
  const tpcc::testing::temp_dir dir("shoal-load-bad");
  const std::string db = "sqlite:" + dir.file("never.db");
  for (const char* shard : {"3/3", "0/0", "a/b", "-1/2"}) {
    const binary_result r = run_binary({"load", "--db", db, "--shard", shard, "--warehouses", "3"});
    EXPECT_EQ(r.exit_code, 2) << describe(r);
    EXPECT_TRUE(contains(r.err, "--shard expects I/N with 0 <= I < N")) << r.err;
  }
  binary_result r = run_binary({"load", "--db", db, "--shard", "1/2"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "load --shard needs --warehouses N")) << r.err;
  r = run_binary({"load", "--csv", dir.file("out"), "--shard", "1/2", "--warehouses", "2"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "load --csv with --shard needs --seed N")) << r.err;

  std::ofstream(dir.file("a-file")) << "x";
  r = run_binary({"load", "--csv", dir.file("a-file") + "/out"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "a-file is not a directory (checked before starting)")) << r.err;
  r = run_binary({"load", "--csv", dir.file("a-file")});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "a-file: is not a directory")) << r.err;
  r = run_binary({"load", "--csv", dir.file("missing") + "/out"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "missing does not exist")) << r.err;
  std::filesystem::create_directory(dir.file("full"));
  std::ofstream(dir.file("full/item.csv")) << "i_id\n";
  r = run_binary({"load", "--csv", dir.file("full")});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "full: is not empty")) << r.err;
  EXPECT_EQ(std::filesystem::file_size(dir.file("full/item.csv")), 5U);  // left as it was
  EXPECT_FALSE(std::filesystem::exists(dir.file("never.db")));
  EXPECT_FALSE(std::filesystem::exists(dir.file("out")));
}

}  // namespace
