// SPDX-License-Identifier: Apache-2.0
// tests/app/report/steps_read_test.cpp: a --schedule result read back from its JSON (the
// steps' windows and backlogs, the schedule, --knee-p90; the step figures recomputed from the
// series equal the written ones), every scalar of the steps given another type refused naming its
// field or ignored as a recomputed figure, and the merge of shards of one schedule (step counts
// added, rates and backlogs summed) or of different schedules (refused).
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "json_variants.hpp"
#include "report/json.hpp"
#include "report/merge.hpp"
#include "report/steps.hpp"
#include "scheduled_run.hpp"

namespace {

using tpcc::report::loaded_result;
using tpcc::report::merge_input;

tpcc::run::run_result written_schedule() {
  tpcc::run::run_result r = tpcc::testing::scheduled({100, 200, 201}, {1000, 2000, 3000}, true);
  r.config.rate_tpm = tpcc::run::mean_rate(r.config.schedule);
  r.config.knee_p90 = std::chrono::milliseconds(1500);
  tpcc::testing::pace_step(r, 0, 0, 0.01, 2);
  tpcc::testing::pace_step(r, 1, 0.5, 2.5, 700);
  tpcc::testing::pace_step(r, 2, 2.5, 3.0, 800);
  return r;
}

std::string schedule_text(const tpcc::run::run_result& r) {
  return tpcc::report::to_json_text(r, {.target = "sim:latency=1ms", .version = "t"});
}

loaded_result read_back(const std::string& text) {
  auto read = tpcc::report::parse_json(text, "s.json");
  if (auto* why = std::get_if<std::string>(&read)) ADD_FAILURE() << *why;
  if (auto* ok = std::get_if<loaded_result>(&read)) return *ok;
  return {};
}

TEST(schedule_read, TheStepsTheScheduleAndTheKneeLimitComeBack) {
  const tpcc::run::run_result r = written_schedule();
  const tpcc::run::run_result back = read_back(schedule_text(r)).result;
  ASSERT_EQ(back.steps.size(), 3U);
  ASSERT_EQ(back.config.schedule.size(), 3U);
  EXPECT_EQ(back.config.knee_p90, std::chrono::milliseconds(1500));
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_DOUBLE_EQ(back.steps[i].rate_tpm, r.steps[i].rate_tpm);
    EXPECT_DOUBLE_EQ(back.steps[i].window_start, r.steps[i].window_start);
    EXPECT_DOUBLE_EQ(back.steps[i].end_seconds, r.steps[i].end_seconds);
    EXPECT_EQ(back.steps[i].partial, r.steps[i].partial);
    EXPECT_EQ(back.config.schedule[i].duration, r.config.schedule[i].duration);
    ASSERT_TRUE(back.steps[i].pacing.has_value()) << "step " << i + 1;
    EXPECT_EQ(back.steps[i].pacing->at_end.behind, r.steps[i].pacing->at_end.behind);
    EXPECT_EQ(back.steps[i].pacing->grew(), r.steps[i].pacing->grew());
  }
  EXPECT_TRUE(back.steps[1].pacing->grew()) << "step 2's backlog grew, read back";
  // Written again, the read result gives the same document: nothing of the steps lost.
  EXPECT_EQ(nlohmann::json::parse(schedule_text(back))["steps"],
            nlohmann::json::parse(schedule_text(r))["steps"]);
}

TEST(schedule_read, EveryScalarOfTheStepsOfAnotherTypeIsRefusedOrRecomputed) {
  const nlohmann::json doc = nlohmann::json::parse(schedule_text(written_schedule()));
  std::size_t checked = 0;
  for (const auto& s : tpcc::testing::scalars(doc)) {
    if (!s.path.starts_with("steps") && !s.path.starts_with("knee") &&
        !s.path.starts_with("config.schedule") && !s.path.starts_with("config.knee")) {
      continue;  // the rest: json_hostile_test
    }
    ++checked;
    nlohmann::json bad = doc;
    bad[s.pointer] = tpcc::testing::wrong_type(doc[s.pointer]);
    const auto read = tpcc::report::parse_json(bad.dump(), "s.json");
    if (const auto* why = std::get_if<std::string>(&read)) {
      EXPECT_NE(why->find(s.path), std::string::npos) << s.path << ": " << *why;
    } else {
      EXPECT_TRUE(tpcc::testing::derived(s.path)) << s.path << " accepted with another type";
    }
  }
  EXPECT_GT(checked, 20U);
}

TEST(schedule_read, StepsOutOfOrderOrBeyondTheScheduleAreRefused) {
  nlohmann::json doc = nlohmann::json::parse(schedule_text(written_schedule()));
  nlohmann::json swapped = doc;
  swapped["steps"][1]["index"] = 3;
  const auto a = tpcc::report::parse_json(swapped.dump(), "s.json");
  ASSERT_TRUE(std::holds_alternative<std::string>(a));
  EXPECT_NE(std::get<std::string>(a).find("steps[1].index"), std::string::npos);
  doc["config"]["schedule"].erase(2);
  const auto b = tpcc::report::parse_json(doc.dump(), "s.json");
  ASSERT_TRUE(std::holds_alternative<std::string>(b));
  EXPECT_NE(std::get<std::string>(b).find("more steps than config.schedule"), std::string::npos);
}

// Two shards of the same schedule, started together, warehouses 1-10 and 11-20.
std::vector<merge_input> scheduled_shards() {
  tpcc::run::run_result a = tpcc::testing::scheduled({100, 200}, {1000, 1000});
  tpcc::run::run_result b = tpcc::testing::scheduled({100, 200}, {1000, 1000});
  tpcc::testing::pace_step(a, 0, 0, 0.01, 2);  // b's step 1 has none
  tpcc::testing::pace_step(a, 1, 0.5, 2.5, 700);
  tpcc::testing::pace_step(b, 1, 0.1, 0.2, 5);
  a.warehouses = b.warehouses = 20;
  a.first_warehouse = 1;
  a.last_warehouse = 10;
  b.first_warehouse = 11;
  b.last_warehouse = 20;
  a.config.shard = {0, 2};
  b.config.shard = {1, 2};
  return {{"a.json", {a, {"sim:", "t"}}}, {"b.json", {b, {"sim:", "t"}}}};
}

TEST(schedule_merge, ShardsOfOneScheduleAddTheirStepsCountsAndRates) {
  const auto in = scheduled_shards();
  auto merged = tpcc::report::merge_results(in);
  ASSERT_TRUE(std::holds_alternative<tpcc::report::merged_result>(merged))
      << std::get<std::string>(merged);
  const tpcc::run::run_result& m = std::get<tpcc::report::merged_result>(merged).result;
  ASSERT_EQ(m.steps.size(), 2U);
  EXPECT_DOUBLE_EQ(m.steps[1].rate_tpm, 2 * 200 * 60.0);
  EXPECT_DOUBLE_EQ(m.config.schedule[1].rate_tpm, 2 * 200 * 60.0);
  const auto one = tpcc::report::step_figures_of(in[0].loaded.result);
  const auto both = tpcc::report::step_figures_of(m);
  ASSERT_EQ(both.size(), 2U);
  const auto no = tpcc::txn::index(tpcc::txn::kind::new_order);
  EXPECT_EQ(both[1].kinds[no].completed, 2 * one[1].kinds[no].completed);
  EXPECT_DOUBLE_EQ(both[1].tpm_total, 2 * one[1].tpm_total);
  ASSERT_TRUE(m.steps[1].pacing.has_value());
  EXPECT_EQ(m.steps[1].pacing->at_end.behind, 700U + 5U);           // the backlogs add
  EXPECT_DOUBLE_EQ(m.steps[1].pacing->at_end.oldest_seconds, 2.5);  // the worse shard's
  EXPECT_DOUBLE_EQ(m.steps[1].pacing->offered_tpm, 2 * 200 * 60.0);
  EXPECT_TRUE(m.steps[1].pacing->grew());
  EXPECT_FALSE(m.steps[0].pacing.has_value()) << "one shard has none: none rather than a part";
}

TEST(schedule_merge, ShardsOfDifferentSchedulesAreRefusedNamingTheFile) {
  auto in = scheduled_shards();
  in[1].loaded.result.config.schedule[1].rate_tpm = 30000;
  auto merged = tpcc::report::merge_results(in);
  ASSERT_TRUE(std::holds_alternative<std::string>(merged));
  EXPECT_NE(std::get<std::string>(merged).find(
                "b.json: different --schedule rates, durations or --knee-p90 than a.json"),
            std::string::npos)
      << std::get<std::string>(merged);
  in = scheduled_shards();
  in[1].loaded.result.config.schedule.pop_back();
  in[1].loaded.result.steps.pop_back();
  merged = tpcc::report::merge_results(in);
  ASSERT_TRUE(std::holds_alternative<std::string>(merged));
  EXPECT_NE(std::get<std::string>(merged).find("a --schedule of a different length"),
            std::string::npos)
      << std::get<std::string>(merged);
}

}  // namespace
