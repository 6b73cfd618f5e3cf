// SPDX-License-Identifier: Apache-2.0
// tests/app/run/measure_binary_test.cpp: the measurement and scale-out flags as users type
// them: bad values exit 2 naming the flag; --start-at in the past warns and starts at once;
// Ctrl-C while waiting for --start-at exits 130 without running.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "binary.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

void expect_usage_error(const std::vector<std::string>& args, const std::string& flag) {
  const binary_result r = run_binary(args);
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, flag + " expects")) << r.err;
}

TEST(measure_flags, BadValuesExitWithUsageStatusNamingTheFlag) {
  expect_usage_error({"run", "--shard", "2/2"}, "--shard");
  expect_usage_error({"run", "--shard", "-1/2"}, "--shard");
  expect_usage_error({"run", "--shard", "1"}, "--shard");
  expect_usage_error({"run", "--shard", "a/b"}, "--shard");
  expect_usage_error({"run", "--start-at", "tomorrow"}, "--start-at");
  expect_usage_error({"run", "--start-at", "2026-02-30T10:00:00Z"}, "--start-at");
  expect_usage_error({"run", "--client-lag-limit", "0"}, "--client-lag-limit");
  expect_usage_error({"run", "--client-lag-limit", "fast"}, "--client-lag-limit");
  expect_usage_error({"run", "--interval", "10ms"}, "--interval");
  const binary_result help = run_binary({"--help"});
  for (const char* flag : {"--shard", "--start-at", "--interval", "--client-lag-limit"}) {
    EXPECT_TRUE(contains(help.out, flag)) << flag;
  }
}

std::string epoch_seconds_from_now(std::chrono::seconds offset) {
  const auto t = std::chrono::system_clock::now() + offset;
  return std::to_string(
      std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count());
}

TEST(measure_flags, StartAtInThePastWarnsAndCtrlCWhileWaitingExitsWithoutRunning) {
  const tpcc::testing::temp_dir dir("shoal-start-at");
  bool loaded = false;
  const std::string db = tpcc::testing::one_warehouse_sqlite(dir.file("tpcc.db"), loaded);
  ASSERT_TRUE(loaded);

  binary_result r =
      run_binary({"run", "--db", db, "--warmup", "1s", "--duration", "1s", "--wait-scale", "0.01",
                  "--no-progress", "--start-at", "2020-01-01T00:00:00Z"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "--start-at is")) << r.err;
  EXPECT_TRUE(contains(r.err, "in the past")) << r.err;

  r = run_binary({"run", "--db", db, "--warmup", "1s", "--duration", "1s", "--wait-scale", "0.01",
                  "--no-progress", "--start-at", epoch_seconds_from_now(1h)},
                 120s, 3000ms);
  EXPECT_EQ(r.exit_code, 130) << describe(r);
  EXPECT_TRUE(contains(r.err, "interrupted while waiting for --start-at")) << r.err;
  EXPECT_TRUE(contains(r.err, "run: starting in 3")) << r.err;  // the countdown, 1 h ahead
  // More than a day ahead is refused before anything starts.
  const binary_result far =
      run_binary({"run", "--db", db, "--start-at", epoch_seconds_from_now(25h)});
  EXPECT_EQ(far.exit_code, 2) << describe(far);
  EXPECT_TRUE(contains(far.err, "--start-at expects a time at most 24 h ahead")) << far.err;
}

}  // namespace
