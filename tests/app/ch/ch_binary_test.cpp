// SPDX-License-Identifier: Apache-2.0
// `--ch` as users run it, on a SQLite file: init --ch makes CH-benCHmark's tables, load --ch
// fills them once (a second load says so and writes nothing), and the database still runs
// TPC-C and passes its consistency check; a command --ch does not apply to is refused.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "binary.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

TEST(ch_binary, InitAndLoadWithChAddTheThreeTablesOnceAndTpcCStillRunsAndChecks) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-ch");
  const std::string db = "sqlite:" + dir.file("ch.db");
  const binary_result init = run_binary({"init", "--ch", "--db", db});
  ASSERT_EQ(init.exit_code, 0) << describe(init);
  EXPECT_TRUE(contains(init.out, "init: CH-benCHmark's 3 tables ready")) << init.out;
  const binary_result load =
      run_binary({"load", "--ch", "--db", db, "--warehouses", "1", "--no-progress"}, 300s);
  ASSERT_EQ(load.exit_code, 0) << describe(load);
  EXPECT_TRUE(contains(load.out, "load: CH-benCHmark's tables loaded: 10067 rows")) << load.out;
  const binary_result again = run_binary({"load", "--ch", "--db", db, "--no-progress"}, 300s);
  ASSERT_EQ(again.exit_code, 0) << describe(again);
  EXPECT_TRUE(contains(again.out, "were already loaded: nothing written")) << again.out;
  const binary_result ran =
      run_binary({"run", "--db", db, "--warmup", "1s", "--duration", "2s", "--wait-scale", "0.01",
                  "--no-progress", "--terminals", "3"});
  EXPECT_EQ(ran.exit_code, 0) << describe(ran);
  const binary_result checked = run_binary({"check", "--db", db, "--no-progress"}, 300s);
  EXPECT_EQ(checked.exit_code, 0) << describe(checked);
  EXPECT_TRUE(contains(checked.out, "check: all conditions passed")) << checked.out;
}

TEST(ch_binary, ChOnACommandItDoesNotApplyToIsRefusedWithExitTwo) {
  const binary_result r = run_binary({"run", "--ch"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--ch does not apply to `shoal-tpcc run`")) << r.err;
}

}  // namespace
