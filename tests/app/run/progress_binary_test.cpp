// SPDX-License-Identifier: Apache-2.0
// tests/app/run/progress_binary_test.cpp: load and check as users watch them without a terminal
// (issue 16): `load --no-tui` names every table in its plain lines; `check` prints a time next
// to every condition's verdict and progress lines naming the condition and the warehouses.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "binary.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

constexpr const char* tables[] = {"warehouse", "district",   "customer", "history", "orders",
                                  "new_order", "order_line", "stock",    "item"};

// init then `load --no-tui` of one warehouse on a fresh SQLite file; the load's result.
binary_result init_and_load(const tpcc::testing::temp_dir& dir) {
  const std::string db = "sqlite:" + dir.file("progress.db");
  const binary_result init = run_binary({"init", "--db", db});
  EXPECT_EQ(init.exit_code, 0) << describe(init);
  return run_binary({"load", "--db", db, "--warehouses", "1", "--no-tui"}, 300s);
}

TEST(progress_binary, LoadPlainLinesNameEveryTable) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-progress");
  const binary_result r = init_and_load(dir);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "load: 1 warehouse loaded")) << r.out;
  // The last plain line: every table done, by name.
  EXPECT_TRUE(contains(r.err, "load: 1/1 warehouse, ")) << r.err;
  EXPECT_TRUE(contains(r.err, " | done ")) << r.err;
  for (const char* table : tables) {
    EXPECT_TRUE(contains(r.err, std::string(" ") + table)) << table << "\n" << r.err;
  }
  EXPECT_FALSE(contains(r.err, "\x1b")) << "an escape sequence with --no-tui";
}

TEST(progress_binary, CheckPrintsATimeForEveryConditionAndWhichConditionRuns) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-progress");
  const binary_result loaded = init_and_load(dir);
  ASSERT_EQ(loaded.exit_code, 0) << describe(loaded);
  const binary_result r = run_binary({"check", "--db", "sqlite:" + dir.file("progress.db")}, 300s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::string out = "\n" + r.out;  // every verdict line after a newline
  const std::regex timed(R"(\n3\.3\.2\.\d+ .* PASS \(\d+ checked, [0-9.]+ (ms|s)\)\n)");
  for (int clause = 1; clause <= 12; ++clause) {
    const std::string name = "3.3.2." + std::to_string(clause) + " ";
    const auto start = out.find("\n" + name);
    ASSERT_NE(start, std::string::npos) << name << "\n" << out;
    const std::string line = out.substr(start, out.find('\n', start + 1) - start + 1);
    EXPECT_TRUE(std::regex_match(line, timed)) << line;
  }
  EXPECT_TRUE(contains(r.out, "check: all conditions passed")) << r.out;
  // The first progress line names the first condition and its warehouses; the last, the total.
  EXPECT_TRUE(contains(r.err, "check: condition 3.3.2.1 (1 of 12) on warehouses 1-1, ")) << r.err;
  EXPECT_TRUE(contains(r.err, "check: 1 of 1 warehouse checked")) << r.err;
}

}  // namespace
