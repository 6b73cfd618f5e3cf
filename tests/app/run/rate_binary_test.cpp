// SPDX-License-Identifier: Apache-2.0
// tests/app/run/rate_binary_test.cpp: `run --rate TPM` as users run it, on the simulated
// database: the offered rate held over the window, a database below the offered rate (sim's
// capacity=N) named as not keeping up with its latencies counted from the intended starts, and
// bad rates refused before any work.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "binary.hpp"
#include "report/json.hpp"
#include "report/rate.hpp"
#include "support/build_kind.hpp"
#include "support/temp_dir.hpp"
#include "txn/kind.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::expect_refused;
using tpcc::testing::run_binary;

tpcc::run::run_result read_result(const std::string& file) {
  auto read = tpcc::report::read_json(file);
  if (auto* wrong = std::get_if<std::string>(&read)) ADD_FAILURE() << *wrong;
  if (auto* ok = std::get_if<tpcc::report::loaded_result>(&read)) return ok->result;
  return {};
}

// The rate held, and how closely: in release, 60,000 a minute (1,000 a second) over 30 s, where
// the Poisson count's standard deviation is 0.58 % and +-2 % is 3.4 of them (the issue's
// 2-minute window, 0.29 %, is too long for CI). A debug or sanitizer build runs transactions
// several times slower on a shared machine, so there the same check runs at 12,000 a minute over
// 20 s (4,000 starts: 1.6 %) within +-6.5 %, 4 of them: the code checked, the figure release's.
constexpr bool slow_build = shoal::testing::slow_build;
constexpr double held_rate = slow_build ? 12000 : 60000;
constexpr double held_tolerance = slow_build ? 0.065 : 0.02;
constexpr const char* held_rate_text = slow_build ? "12000" : "60000";
constexpr const char* held_window = slow_build ? "20s" : "30s";

TEST(rate_run, HoldsTheOfferedRateWithinItsToleranceOnSim) {
  const tpcc::testing::temp_dir dir("shoal-rate");
  const std::string json = dir.file("rate.json");
  const binary_result r =
      run_binary({"run", "--db", "sim:latency=1ms", "--warehouses", "2", "--rate", held_rate_text,
                  "--warmup", "2s", "--duration", held_window, "--seed", "38", "--no-tui",
                  "--no-progress", "--json", json},
                 180s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, std::string("NOT TPC-C: --rate ") + held_rate_text + " tpm"))
      << r.out;
  EXPECT_TRUE(contains(r.out, "kept up     yes")) << r.out;
  const tpcc::run::run_result result = read_result(json);
  ASSERT_TRUE(result.pacing.has_value());
  const double window_minutes = result.measured_seconds / 60.0;
  EXPECT_NEAR(tpcc::report::achieved_tpm(result), held_rate, held_rate * held_tolerance) << r.out;
  EXPECT_NEAR(static_cast<double>(result.pacing->intended) / window_minutes, held_rate,
              held_rate * held_tolerance);
  EXPECT_NEAR(result.measured_seconds, slow_build ? 20 : 30, 0.5);
  EXPECT_FALSE(result.pacing->grew()) << r.out;
  // Nearly every intended start began: those left are the few due when the run stopped issuing.
  EXPECT_GT(result.pacing->began, result.pacing->intended * 99 / 100);
  EXPECT_DOUBLE_EQ(result.config.rate_tpm, held_rate);
  EXPECT_FALSE(result.tpc_c_waits());
}

// Offered 200 a second against a simulated server of 100: each terminal falls behind by half a
// second a second, the backlog grows and the waiting is in the response times.
TEST(rate_run, ADatabaseBelowTheRateIsNamedWithItsBacklogAndItsWaiting) {
  const tpcc::testing::temp_dir dir("shoal-rate-backlog");
  const std::string json = dir.file("backlog.json");
  const std::string html = dir.file("backlog.html");
  const binary_result r = run_binary({"run",
                                      "--db",
                                      "sim:latency=1ms,capacity=100",
                                      "--warehouses",
                                      "1",
                                      "--rate",
                                      "12000",
                                      "--warmup",
                                      "1s",
                                      "--duration",
                                      "6s",
                                      "--drain",
                                      "2s",
                                      "--seed",
                                      "38",
                                      "--no-tui",
                                      "--no-progress",
                                      "--json",
                                      json,
                                      "--html",
                                      html,
                                      "--tolerate-errors"},
                                     120s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "BACKLOG     the database did not keep up")) << r.out;
  const tpcc::run::run_result result = read_result(json);
  ASSERT_TRUE(result.pacing.has_value());
  EXPECT_TRUE(result.pacing->grew());
  EXPECT_GT(result.pacing->at_end.behind, 10U);
  EXPECT_GT(result.pacing->at_end.oldest_seconds, result.pacing->at_start.oldest_seconds + 1.0);
  const auto& new_order = result.results.kinds[tpcc::txn::index(tpcc::txn::kind::new_order)];
  ASSERT_GT(new_order.response.count(), 0U);
  // p90 from the intended starts: seconds, where the simulated round trips take milliseconds.
  EXPECT_GT(new_order.response.percentile(0.9), 1'000'000U);  // microseconds
  std::ifstream page(html);
  const std::string text((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(contains(text, "did NOT keep up")) << "the HTML report names the backlog";
}

TEST(rate_run, BadRatesAreRefusedBeforeAnyWork) {
  const std::vector<std::string> sim = {"run", "--db", "sim:latency=1ms", "--warehouses", "1"};
  auto with = [&sim](std::vector<std::string> more) {
    std::vector<std::string> args = sim;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  expect_refused(with({"--rate", "0"}), "--rate expects a rate in transactions per minute");
  expect_refused(with({"--rate", "-60"}), "got '-60'");
  expect_refused(with({"--rate", "fast"}), "got 'fast'");
  expect_refused(with({"--rate", "2e9"}), "at most 1000000000");
  expect_refused(with({"--rate", "1000", "--no-wait"}), "cannot be combined with --no-wait");
  expect_refused(with({"--wait-scale", "0.5", "--rate", "1000"}), "or --wait-scale");
  expect_refused(with({"--rate", "600001"}), "more than 10 terminals can offer");
  expect_refused({"run", "--db", "sim:latency=1ms,capacity=0", "--warehouses", "1"},
                 "capacity expects transactions per second");
  const tpcc::testing::temp_dir dir("shoal-rate-config");
  const std::string config = dir.file("rate.toml");
  std::ofstream(config) << "rate = 1000\nno-wait = true\n";
  expect_refused(with({"--config", config}), "cannot be combined with --no-wait");
}

// Without --warehouses the command line cannot check the rate against the terminals; the run
// does once it knows the loaded count, and refuses it as bad input all the same: exit 2, one
// line, nothing run. A schedule's highest step is checked by the same path.
TEST(rate_run, ARateTooHighForTheLoadedWarehousesIsBadInputFoundAtTheStart) {
  const tpcc::testing::temp_dir dir("shoal-rate-loaded");
  bool loaded = false;
  const std::string db = tpcc::testing::one_warehouse_sqlite(dir.file("one.db"), loaded);
  ASSERT_TRUE(loaded);
  const std::vector<std::string> base = {"run", "--db", db, "--warmup", "1s", "--no-tui"};
  auto with = [&base](std::vector<std::string> more) {
    std::vector<std::string> args = base;
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  expect_refused(with({"--rate", "600001", "--duration", "2s"}),
                 "--rate 600001 is more than 10 terminals can offer");
  expect_refused(with({"--schedule", "1000:4s,700000:4s"}),
                 "--schedule's step of 700000 is more than 10 terminals can offer");
}

}  // namespace
