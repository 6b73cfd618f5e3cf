// SPDX-License-Identifier: Apache-2.0
// tests/app/run/schedule_binary_test.cpp: `run --sweep` / `--schedule` as users run it, on the
// simulated database with a capacity (sim's capacity=N): a 4-step sweep across the capacity
// gives one result per step in the JSON, the steps below it achieving their offered rate, the
// steps above it not, the knee named at the first step past capacity; steps offering more than
// the terminals take show a growing backlog, the others not; Ctrl-C mid-schedule keeps
// the steps done and marks the current one partial; bad schedules refused before any work.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "binary.hpp"
#include "support/build_kind.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

nlohmann::json read_document(const std::string& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in, nullptr, false);
}

// `run` with `args`, 250 ms intervals, a 2 s drain, seed 38, errors tolerated, no display.
binary_result run_steps(std::vector<std::string> args) {
  args.insert(args.begin(), "run");
  for (const char* more : {"--drain", "2s", "--interval", "250ms", "--seed", "38", "--no-tui",
                           "--no-progress", "--tolerate-errors"}) {
    args.emplace_back(more);
  }
  return run_binary(args, 180s);
}

// Release: a server of 2,500 transactions a second (150,000 a minute), swept from 60,000 to
// 240,000 a minute in 2 s steps (1.5 s windows of six 250 ms intervals: at 60,000 a minute 1,500
// starts, a Poisson standard deviation of 2.6 %, so +-10 % is 3.9 of them). A debug or sanitizer
// build runs the client several times slower, so there the server is 500 a second, the sweep 12,000
// to 48,000 in 4 s steps (3 s windows: 600 starts at the lowest, 4.1 %) within +-15 % (3.7 of
// them). 100 terminals (10 warehouses) keep enough transactions outstanding that the client never
// caps the rate below the server.
constexpr bool slow_build = shoal::testing::slow_build;
constexpr double capacity_tpm = slow_build ? 30000 : 150000;
constexpr double below_tolerance = slow_build ? 0.15 : 0.10;
constexpr const char* sim_target =
    slow_build ? "sim:latency=1ms,capacity=500" : "sim:latency=1ms,capacity=2500";
constexpr const char* sweep = slow_build ? "12000:48000:4:4s" : "60000:240000:4:2s";

TEST(schedule_run, ASweepAcrossTheCapacityNamesTheKneeAtTheFirstStepPastIt) {
  const tpcc::testing::temp_dir dir("shoal-sweep");
  const std::string json = dir.file("sweep.json");
  const std::string html = dir.file("sweep.html");
  const binary_result r = run_steps({"--db", sim_target, "--warehouses", "10", "--sweep", sweep,
                                     "--warmup", "1s", "--json", json, "--html", html});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "NOT TPC-C: --schedule of 4 rate steps")) << r.out;
  EXPECT_TRUE(contains(r.out, "schedule    4 of 4 rate steps run")) << r.out;
  EXPECT_TRUE(contains(r.out, "knee        step 3 (")) << r.out;
  const nlohmann::json doc = read_document(json);
  ASSERT_TRUE(doc.contains("steps")) << r.out;
  const nlohmann::json& steps = doc["steps"];
  ASSERT_EQ(steps.size(), 4U) << steps.dump(1);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const double offered = steps[i]["offered_tpm"].get<double>();
    const double achieved = steps[i]["tpm_total"].get<double>();
    EXPECT_FALSE(steps[i]["partial"].get<bool>());
    EXPECT_GE(steps[i]["intervals"].get<int>(), 5) << steps[i].dump();
    if (offered < capacity_tpm) {
      EXPECT_NEAR(achieved, offered, offered * below_tolerance) << "step " << i + 1;
    } else {  // the server's rate, well short of the offered one
      EXPECT_LT(achieved, offered * 0.9) << "step " << i + 1;
      EXPECT_NEAR(achieved, capacity_tpm, capacity_tpm * below_tolerance) << "step " << i + 1;
    }
  }
  EXPECT_EQ(doc["knee"]["step"], 3) << doc["knee"].dump();
  EXPECT_EQ(doc["config"]["schedule"].size(), 4U);
  std::ifstream page(html);
  const std::string text((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(contains(text, "<section id=\"steps\">")) << "the HTML report has the steps";
  EXPECT_TRUE(contains(text, "aria-label=\"achieved transactions per minute against the offered"))
      << "and their curve";
  // The steps' sum is the measurement interval.
  EXPECT_NEAR(doc["config"]["measure_seconds"].get<double>(), slow_build ? 16 : 8, 1e-9);
}

// One warehouse's 10 terminals on a database answering each round trip after 10 ms take a few
// hundred transactions a second at most (each terminal runs one at a time: 1-2 round trips
// each), whatever the build. The first step offers 100 a second; the next two 2,000 and 3,000,
// several times what they can take, so the intended starts pile up: over a step's 2.25 s window
// the oldest falls behind by more than 1.5 s (the noise grew() allows is 1 s).
TEST(schedule_run, StepsBeyondWhatTheTerminalsTakeShowAGrowingBacklogAndOnlyThey) {
  const tpcc::testing::temp_dir dir("shoal-backlog-steps");
  const std::string json = dir.file("backlog.json");
  const binary_result r =
      run_steps({"--db", "sim:latency=10ms", "--warehouses", "1", "--schedule",
                 "rate=6000:3s,rate=120000:3s,rate=180000:3s", "--warmup", "0s", "--json", json});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const nlohmann::json doc = read_document(json);
  ASSERT_TRUE(doc.contains("steps")) << r.out;
  const nlohmann::json& steps = doc["steps"];
  ASSERT_EQ(steps.size(), 3U) << steps.dump(1);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    ASSERT_TRUE(steps[i].contains("pacing")) << steps[i].dump();
    const nlohmann::json& p = steps[i]["pacing"];
    const double growth = p["backlog_at_end"]["oldest_seconds"].get<double>() -
                          p["backlog_at_start"]["oldest_seconds"].get<double>();
    EXPECT_EQ(p["kept_up"].get<bool>(), i == 0) << "step " << i + 1 << ": " << p.dump();
    if (i == 0) {
      EXPECT_LT(growth, 1.0) << p.dump();
      EXPECT_NEAR(steps[i]["tpm_total"].get<double>(), 6000, 6000 * 0.25) << steps[i].dump();
    } else {  // behind by more, and more of them, at the end than at the start
      EXPECT_GT(growth, 1.0) << p.dump();
      EXPECT_GT(p["backlog_at_end"]["behind"].get<std::uint64_t>(),
                p["backlog_at_start"]["behind"].get<std::uint64_t>())
          << p.dump();
      EXPECT_LT(steps[i]["tpm_total"].get<double>(), steps[i]["offered_tpm"].get<double>() * 0.5);
    }
  }
  EXPECT_EQ(doc["knee"]["step"], 2) << doc["knee"].dump();
  EXPECT_TRUE(contains(doc["knee"]["why"].get<std::string>(), "the database did not keep up"));
  EXPECT_TRUE(contains(r.out, "kept up (")) << r.out;
  EXPECT_TRUE(contains(r.out, "BACKLOG grew to ")) << r.out;
}

TEST(schedule_run, CtrlCMidScheduleKeepsTheStepsDoneAndMarksTheCurrentOnePartial) {
  const tpcc::testing::temp_dir dir("shoal-schedule-interrupt");
  const std::string json = dir.file("interrupted.json");
  const binary_result r =
      run_binary({"run", "--db", "sim:latency=1ms", "--warehouses", "1", "--schedule",
                  "rate=1200:1s,rate=2400:60s,rate=3600:60s", "--warmup", "0s", "--drain", "1s",
                  "--interval", "250ms", "--no-tui", "--no-progress", "--json", json},
                 120s, 3000ms);
  EXPECT_EQ(r.exit_code, 130) << describe(r);
  const nlohmann::json doc = read_document(json);
  ASSERT_TRUE(doc.contains("steps")) << r.out;
  const nlohmann::json& steps = doc["steps"];
  ASSERT_GE(steps.size(), 1U);
  ASSERT_LE(steps.size(), 2U);  // the third never began
  EXPECT_TRUE(steps.back()["partial"].get<bool>()) << steps.dump(1);
  if (steps.size() == 2) {
    EXPECT_FALSE(steps[0]["partial"].get<bool>());
  }
  EXPECT_TRUE(contains(r.out, "PARTIAL (interrupted)")) << r.out;
}

void expect_schedule_refused(const std::vector<std::string>& more, const std::string& says) {
  std::vector<std::string> args = {"run", "--db", "sim:latency=1ms", "--warehouses", "1"};
  args.insert(args.end(), more.begin(), more.end());
  tpcc::testing::expect_refused(args, says);
}

TEST(schedule_run, BadSchedulesAreRefusedBeforeAnyWork) {
  expect_schedule_refused({"--schedule", ""}, "--schedule expects at least one step");
  expect_schedule_refused({"--schedule", "1000:10s,-5:10s"}, "step 2 ('-5:10s') expects a rate");
  expect_schedule_refused({"--schedule", "1000:0s"}, "expects a positive duration");
  expect_schedule_refused({"--schedule", "1000:10s", "--no-wait"}, "cannot be combined");
  expect_schedule_refused({"--sweep", "1000:2000:3", "--rate", "1000"}, "give it or --rate");
  expect_schedule_refused({"--sweep", "3000:2000:3"}, "0 < FROM < TO");
  expect_schedule_refused({"--knee-p90", "1s"}, "--knee-p90 needs --schedule or --sweep");
}

}  // namespace
