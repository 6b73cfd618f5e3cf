// SPDX-License-Identifier: Apache-2.0
// tests/app/run/audit_test.cpp: the measurement defects of issue 15's audit that show only in a
// real run, in process on SQLite: the think-time audit checks the time the terminals actually
// slept, not the values they drew.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <variant>

#include "in_process_run.hpp"
#include "report/verdict_audit.hpp"
#include "run/run.hpp"
#include "shoal/sleep.hpp"
#include "shoal/sync_wait.hpp"
#include "support/running_pool.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using tpcc::driver::outcome;
using tpcc::run::run_config;
using tpcc::run::run_outcome;
using tpcc::run::run_result;
using tpcc::testing::init_and_load;
using tpcc::testing::measure;

// Blocks the worker it runs on for `busy` out of every `busy + idle` until `stop`: timers on
// that worker fire late, as on a starved client.
task<void> hog(std::atomic<bool>& stop, std::chrono::milliseconds busy,
               std::chrono::milliseconds idle) {
  while (!stop.load()) {
    std::this_thread::sleep_for(busy);
    co_await shoal::sleep_for(idle);
  }
}

TEST(audited_run, TheThinkTimeAuditChecksTheTimeTheTerminalsActuallySlept) {
  const tpcc::testing::temp_dir dir("shoal-audit-run");
  const std::string target = "sqlite:" + dir.file("tpcc.db");
  std::atomic<bool> stop{false};  // outlives the pool: the hogs read it until the pool stops
  shoal::testing::running_pool workers(2);
  ASSERT_TRUE(shoal::sync_wait(init_and_load(workers.pool, target, 1)).ok());

  run_config c;
  c.warmup = 1s;
  c.measure = 4s;
  c.drain = 20s;
  c.wait_scale = 0.01;  // think means of 50-120 ms
  c.seed = 42;
  c.client_lag_limit = 10s;
  for (std::size_t k = 0; k < 2; ++k) workers.pool.spawn_on(k, hog(stop, 90ms, 10ms));
  run_outcome out = shoal::sync_wait(measure(workers.pool, target, c));
  stop.store(true);
  ASSERT_TRUE(std::holds_alternative<run_result>(out));
  const run_result& r = std::get<run_result>(out);
  const auto& in = r.results.inputs;
  ASSERT_GT(in.think_times, 20U);
  // The workers were blocked 90 % of the time: the terminals slept well past what they drew.
  const double slept = in.think_seconds / static_cast<double>(in.think_times) * r.wait_scale;
  const double drawn = tpcc::report::expected_think_seconds(r);
  EXPECT_GT(slept, drawn * 1.15) << "slept " << slept << " s, the spec's mean " << drawn << " s";
}

}  // namespace
