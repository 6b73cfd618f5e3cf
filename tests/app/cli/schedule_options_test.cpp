// SPDX-License-Identifier: Apache-2.0
// tests/app/cli/schedule_options_test.cpp: --schedule, --sweep and --knee-p90 read from the
// command line and from a TOML file's [[schedule]] tables; bad schedules refused with a line
// naming what was wrong.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <variant>
#include <vector>

#include "cli/schedule.hpp"
#include "parse.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::cli::config;
using tpcc::cli::schedule_step;
using tpcc::cli::testing::error_of;
using tpcc::cli::testing::parse;

std::vector<schedule_step> steps_of(std::variant<std::vector<schedule_step>, std::string> r) {
  if (auto* wrong = std::get_if<std::string>(&r)) ADD_FAILURE() << *wrong;
  auto* ok = std::get_if<std::vector<schedule_step>>(&r);
  return ok != nullptr ? *ok : std::vector<schedule_step>{};
}

std::string error_in(std::variant<std::vector<schedule_step>, std::string> r) {
  auto* wrong = std::get_if<std::string>(&r);
  return wrong != nullptr ? *wrong : "(parsed)";
}

TEST(schedule_options, StepsAreRatesAndDurationsWithOrWithoutTheirName) {
  const auto s = steps_of(tpcc::cli::parse_schedule("rate=30000:60s,45000.5:1m30s,rate=9:250ms"));
  ASSERT_EQ(s.size(), 3U);
  EXPECT_EQ(s[0].rate_tpm, 30000);
  EXPECT_EQ(s[0].duration, 60s);
  EXPECT_EQ(s[1].rate_tpm, 45000.5);
  EXPECT_EQ(s[1].duration, 90s);
  EXPECT_EQ(s[2].rate_tpm, 9);
  EXPECT_EQ(s[2].duration, 250ms);
}

TEST(schedule_options, ASweepIsEvenlySpacedRatesOfOneDuration) {
  const auto s = steps_of(tpcc::cli::parse_sweep("30000:120000:4:20s"));
  ASSERT_EQ(s.size(), 4U);
  EXPECT_EQ(s[0].rate_tpm, 30000);
  EXPECT_EQ(s[1].rate_tpm, 60000);
  EXPECT_EQ(s[2].rate_tpm, 90000);
  EXPECT_EQ(s[3].rate_tpm, 120000);
  for (const schedule_step& step : s) EXPECT_EQ(step.duration, 20s);
  const auto by_default = steps_of(tpcc::cli::parse_sweep("100:200:2"));
  ASSERT_EQ(by_default.size(), 2U);
  EXPECT_EQ(by_default[1].duration, 60s);
}

TEST(schedule_options, BadStepsNameTheStepAndWhatWasExpected) {
  using tpcc::cli::parse_schedule;
  EXPECT_EQ(error_in(parse_schedule("")), "expects at least one step, such as rate=60000:30s");
  EXPECT_NE(
      error_in(parse_schedule("1000:10s,fast:10s")).find("step 2 ('fast:10s') expects a rate"),
      std::string::npos);
  EXPECT_NE(error_in(parse_schedule("1000:0s")).find("step 1 ('1000:0s') expects a positive"),
            std::string::npos);
  EXPECT_NE(error_in(parse_schedule("-5:10s")).find("expects a rate"), std::string::npos);
  EXPECT_NE(error_in(parse_schedule("0:10s")).find("expects a rate"), std::string::npos);
  EXPECT_NE(error_in(parse_schedule("1000")).find("expects RATE:DURATION"), std::string::npos);
  EXPECT_NE(error_in(parse_schedule("1000:10s,")).find("step 2 ('') expects"), std::string::npos);
  EXPECT_NE(error_in(parse_schedule("tpw=10:60s")).find("terminal set is fixed"),
            std::string::npos);
  std::string many;
  for (int i = 0; i < 101; ++i) many.append(i == 0 ? "" : ",").append("100:1s");
  EXPECT_EQ(error_in(parse_schedule(many)), "has 101 steps: at most 100");
  EXPECT_EQ(error_in(parse_schedule("100:20h,100:5h")), "lasts more than 24 h in all");
  using tpcc::cli::parse_sweep;
  EXPECT_NE(error_in(parse_sweep("100:200")).find("expects FROM:TO:STEPS"), std::string::npos);
  EXPECT_NE(error_in(parse_sweep("200:100:3")).find("0 < FROM < TO"), std::string::npos);
  EXPECT_NE(error_in(parse_sweep("100:200:1")).find("STEPS from 2 to 100"), std::string::npos);
  EXPECT_NE(error_in(parse_sweep("100:200:3:0s")).find("positive DURATION"), std::string::npos);
}

TEST(schedule_options, TheCommandLineRefusesWhatContradictsASchedule) {
  auto r = parse({"run", "--sweep", "1000:3000:3:4s", "--knee-p90", "500ms"});
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  EXPECT_EQ(std::get<config>(r).schedule.size(), 3U);
  EXPECT_EQ(std::get<config>(r).knee_p90, 500ms);
  EXPECT_FALSE(std::get<config>(r).tpc_c_waits());
  EXPECT_NE(error_of({"run", "--schedule", "1000:2s", "--rate", "1000"}).find("give it or --rate"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--schedule", "1000:2s", "--no-wait"}).find("--no-wait"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--sweep", "1:2:2", "--wait-scale", "2"}).find("--wait-scale"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--schedule", "1000:2s", "--duration", "1m"}).find("--duration"),
            std::string::npos);
  EXPECT_EQ(error_of({"run", "--knee-p90", "1s"}), "--knee-p90 needs --schedule or --sweep");
  EXPECT_NE(error_of({"run", "--schedule", "1000:2s", "--knee-p90", "0s"}).find("positive"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--schedule", "1000:4s,700000:4s", "--warehouses", "1"})
                .find("--schedule's step of 700000 is more than 10 terminals can offer"),
            std::string::npos);
  EXPECT_NE(error_of({"run", "--schedule", "1000:x"}).find("--schedule step 1 ('1000:x')"),
            std::string::npos);
  // 2 s of 1 s intervals leave a 1.5 s window: one interval, no spread to judge the knee by.
  EXPECT_NE(error_of({"run", "--schedule", "1000:4s,1000:2s"})
                .find("--schedule's step 2 is too short for --interval"),
            std::string::npos);
  EXPECT_EQ(error_of({"run", "--schedule", "1000:4s,1000:2s", "--interval", "500ms"}), "");
}

TEST(schedule_file, ScheduleTablesAreStepsInOrder) {
  tpcc::cli::testing::scratch_toml toml("schedule");
  const std::string file = toml.write(
      "warehouses = 2\n[[schedule]]\nrate = 30000\nduration = \"1m\"\n"
      "[[schedule]]\nrate = 60000.5\nduration = 90\n");
  auto r = parse({"run", "--config", file});
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  const config& c = std::get<config>(r);
  ASSERT_EQ(c.schedule.size(), 2U);
  EXPECT_EQ(c.schedule[0].rate_tpm, 30000);
  EXPECT_EQ(c.schedule[0].duration, 60s);
  EXPECT_EQ(c.schedule[1].rate_tpm, 60000.5);
  EXPECT_EQ(c.schedule[1].duration, 90s);
}

// CH-benCHmark: a step's analytic streams (streams=N; -1 when not given: every stream), on the
// command line and in a [[schedule]] table; a step asking for more than --analytic-streams
// opens, or a malformed N, refused naming the step.
TEST(schedule_options, AStepMaySayHowManyAnalyticStreamsRunInIt) {
  const auto s =
      steps_of(tpcc::cli::parse_schedule("600:4s:streams=0,rate=600:4s:streams=3,600:4s"));
  ASSERT_EQ(s.size(), 3U);
  EXPECT_EQ(s[0].analytic_streams, 0);
  EXPECT_EQ(s[1].analytic_streams, 3);
  EXPECT_EQ(s[1].duration, 4s);
  EXPECT_EQ(s[2].analytic_streams, -1);
  for (const char* bad : {"600:4s:streams=", "600:4s:streams=-1", "600:4s:streams=1001",
                          "600:4s:tpw=2", "600:4s:streams=1:x"}) {
    EXPECT_NE(error_in(tpcc::cli::parse_schedule(bad)).find("expects RATE:DURATION[:streams=N]"),
              std::string::npos)
        << bad;
  }
  EXPECT_NE(error_of({"run", "--analytic-streams", "2", "--schedule", "600:4s:streams=3"})
                .find("--schedule's step 1 asks for 3 analytic streams"),
            std::string::npos);
  EXPECT_EQ(error_of({"run", "--analytic-streams", "2", "--schedule", "600:4s:streams=2"}), "");
  tpcc::cli::testing::scratch_toml toml("schedule-streams");
  const std::string file = toml.write(
      "analytic-streams = 1\n[[schedule]]\nrate = 600\nduration = \"4s\"\nstreams = 0\n"
      "[[schedule]]\nrate = 600\nduration = \"4s\"\nstreams = 1\n");
  auto r = parse({"run", "--config", file});
  ASSERT_TRUE(std::holds_alternative<config>(r)) << std::get<std::string>(r);
  const config& c = std::get<config>(r);
  ASSERT_EQ(c.schedule.size(), 2U);
  EXPECT_EQ(c.schedule[0].analytic_streams, 0);
  EXPECT_EQ(c.schedule[1].analytic_streams, 1);
}

TEST(schedule_file, BadScheduleTablesNameTheFileAndTheStep) {
  tpcc::cli::testing::scratch_toml toml("schedule-bad");
  std::string file = toml.write("[[schedule]]\nrate = 1000\n");
  EXPECT_NE(error_of({"run", "--config", file}).find(":1: each [[schedule]] table holds rate"),
            std::string::npos);
  file = toml.write("[[schedule]]\nrate = 1000\nduration = \"0s\"\n");
  EXPECT_NE(error_of({"run", "--config", file}).find("schedule step 1 ('rate=1000:0s')"),
            std::string::npos);
}

}  // namespace
