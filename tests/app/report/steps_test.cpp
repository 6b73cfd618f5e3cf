// SPDX-License-Identifier: Apache-2.0
// tests/app/report/steps_test.cpp: a schedule's per-step figures and its knee, from interval
// series built by hand: the settle time left out of each step's window, the counts, rates and
// percentiles of the intervals inside it, the knee where throughput stops growing or where a
// p90 limit is crossed or where the database stopped keeping up (a backlog that grew; never at
// a partial step), and the summary's, the JSON's and the HTML's steps with their backlogs.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/html.hpp"
#include "report/json.hpp"
#include "report/steps.hpp"
#include "report/summary.hpp"
#include "sample_result.hpp"
#include "scheduled_run.hpp"

namespace {

using tpcc::run::run_result;
using tpcc::testing::scheduled;
using tpcc::txn::kind;

TEST(schedule_steps, EachStepCountsTheIntervalsOfItsWindowOnly) {
  const run_result r = scheduled({100, 200, 300}, {1000, 2000, 400000});
  const auto steps = tpcc::report::step_figures_of(r);
  ASSERT_EQ(steps.size(), 3U);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(steps[i].intervals, 3U);
    EXPECT_DOUBLE_EQ(steps[i].window_seconds, 3.0);
  }
  // 100, 105, 95 a second: 300 in 3 s, never the settle interval's 10,000.
  EXPECT_EQ(steps[0].kinds[tpcc::txn::index(kind::new_order)].completed, 300U);
  EXPECT_DOUBLE_EQ(steps[0].tpm_total, 6000.0);
  EXPECT_DOUBLE_EQ(steps[0].tpmc, 6000.0);
  EXPECT_DOUBLE_EQ(steps[1].tpm_total, 12000.0);
  // Rates 6000, 6300, 5700: sd 300, t(2) = 4.303, half-width 4.303 x 300 / sqrt(3).
  EXPECT_NEAR(steps[0].tpm_total_half_width, 4.303 * 300 / std::sqrt(3.0), 0.01);
  EXPECT_NEAR(steps[2].worst_p90_seconds, 0.4, 0.02);  // a bucket's upper edge
  EXPECT_TRUE(steps[2].p90_within_limits);
  EXPECT_EQ(steps[2].failed, 0U);
}

TEST(schedule_steps, TheKneeIsTheStepPastWhichThroughputStopsGrowing) {
  const auto steps = tpcc::report::step_figures_of(scheduled({100, 200, 202, 201}, {1, 1, 1, 1}));
  const auto knee = tpcc::report::find_knee(steps, 0);
  ASSERT_TRUE(knee.step.has_value()) << knee.why;
  EXPECT_EQ(*knee.step, 1U) << knee.why;
  EXPECT_NE(knee.why.find("step 2 (12000 tpm offered): throughput stops growing"),
            std::string::npos)
      << knee.why;
  const auto growing = tpcc::report::step_figures_of(scheduled({100, 200, 300}, {1, 1, 1}));
  EXPECT_FALSE(tpcc::report::find_knee(growing, 0).step.has_value());
}

TEST(schedule_steps, AP90LimitCrossedNamesTheKneeWhenThroughputStillGrows) {
  const auto steps =
      tpcc::report::step_figures_of(scheduled({100, 200, 300}, {1000, 300000, 900000}));
  const auto knee = tpcc::report::find_knee(steps, 0.5);
  ASSERT_TRUE(knee.step.has_value());
  EXPECT_EQ(*knee.step, 2U) << knee.why;
  EXPECT_NE(knee.why.find("over --knee-p90 0.500 s"), std::string::npos) << knee.why;
}

TEST(schedule_steps, AStepWhoseBacklogGrewIsTheKneeWhileThroughputStillGrows) {
  run_result r = scheduled({100, 200, 300, 400}, {1, 1, 1, 1});
  ASSERT_FALSE(tpcc::report::find_knee(tpcc::report::step_figures_of(r), 0).step.has_value())
      << "throughput alone grows at every step";
  tpcc::testing::pace_step(r, 0, 0, 0.001, 0);
  tpcc::testing::pace_step(r, 1, 0.2, 1.1, 3);  // 0.9 s more: within max(1 s, 1 %): kept up
  tpcc::testing::pace_step(r, 2, 0.5, 2.0, 900);
  tpcc::testing::pace_step(r, 3, 2.5, 6.0, 4000);
  const auto steps = tpcc::report::step_figures_of(r);
  const auto knee = tpcc::report::find_knee(steps, 0);
  ASSERT_TRUE(knee.step.has_value()) << knee.why;
  EXPECT_EQ(*knee.step, 2U) << knee.why;
  EXPECT_NE(knee.why.find("step 3 (18000 tpm offered): the database did not keep up, its backlog "
                          "grew over the step (the oldest intended start 2.0 s late at its "
                          "window's end, 0.5 s at its start)"),
            std::string::npos)
      << knee.why;
  EXPECT_EQ(tpcc::report::step_backlog_text(steps[1]), "kept up (3 behind at the end)");
  EXPECT_EQ(tpcc::report::step_backlog_text(steps[2]),
            "BACKLOG grew to 900 behind, the oldest 2.0 s late (0.5 s at the start)");
}

TEST(schedule_steps, APartialStepIsShownButNeverJudged) {
  const auto steps = tpcc::report::step_figures_of(scheduled({100, 200, 200}, {1, 1, 1}, true));
  ASSERT_EQ(steps.size(), 3U);
  EXPECT_TRUE(steps[2].window.partial);
  EXPECT_FALSE(tpcc::report::find_knee(steps, 0).step.has_value());
}

TEST(schedule_steps, TheSummaryTheJsonAndTheHtmlNameEachStepsBacklog) {
  run_result r = scheduled({100, 200}, {1000, 1000});
  r.config.rate_tpm = tpcc::run::mean_rate(r.config.schedule);
  tpcc::testing::pace_step(r, 0, 0, 0.01, 2);
  tpcc::testing::pace_step(r, 1, 0.5, 2.5, 700);
  const std::string text = tpcc::report::format_summary(r, "sim:latency=1ms");
  EXPECT_NE(text.find("p90 ok, kept up (2 behind at the end)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("p90 ok, BACKLOG grew to 700 behind, the oldest 2.5 s late (0.5 s at the "
                      "start)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("knee        step 2 (12000 tpm offered): the database did not keep up"),
            std::string::npos)
      << text;
  const auto doc = nlohmann::json::parse(tpcc::report::to_json_text(r, {"sim:latency=1ms", "t"}));
  const auto& late = doc.at("steps").at(1).at("pacing");
  EXPECT_FALSE(late["kept_up"].get<bool>());
  EXPECT_EQ(late["backlog_at_end"]["behind"], 700);
  EXPECT_DOUBLE_EQ(late["backlog_at_start"]["oldest_seconds"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(late["offered_tpm"].get<double>(), 12000.0);
  EXPECT_TRUE(doc["steps"][0]["pacing"]["kept_up"].get<bool>());
  const std::string page = tpcc::report::format_html(r, "sim:latency=1ms");
  EXPECT_NE(page.find("<th>backlog</th>"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"fail\">BACKLOG grew to 700 behind"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"pass\">kept up (2 behind at the end)</td>"), std::string::npos);
}

TEST(schedule_steps, TheSummaryAndTheJsonCarryTheStepsAndTheKnee) {
  run_result r = scheduled({100, 200, 201}, {1000, 1000, 1000});
  r.config.rate_tpm = tpcc::run::mean_rate(r.config.schedule);
  const std::string text = tpcc::report::format_summary(r, "sim:latency=1ms");
  EXPECT_NE(text.find("schedule    3 of 3 rate steps run"), std::string::npos) << text;
  EXPECT_NE(text.find("knee        step 2 (12000 tpm offered)"), std::string::npos) << text;
  EXPECT_NE(text.find("NOT TPC-C: --schedule of 3 rate steps"), std::string::npos) << text;
  const auto doc = nlohmann::json::parse(tpcc::report::to_json_text(r, {"sim:latency=1ms", "t"}));
  ASSERT_EQ(doc.at("steps").size(), 3U);
  EXPECT_EQ(doc["steps"][1]["index"], 2);
  EXPECT_DOUBLE_EQ(doc["steps"][1]["tpm_total"].get<double>(), 12000.0);
  EXPECT_DOUBLE_EQ(doc["steps"][1]["offered_tpm"].get<double>(), 12000.0);
  EXPECT_EQ(doc["steps"][0]["transactions"].size(), tpcc::txn::kind_count);
  EXPECT_EQ(doc["knee"]["step"], 2);
  EXPECT_EQ(doc["config"]["schedule"].size(), 3U);
  EXPECT_FALSE(doc["steps"][0].contains("pacing")) << "none recorded, none written";
  const auto plain = nlohmann::json::parse(
      tpcc::report::to_json_text(tpcc::testing::compliant(), {"sim:latency=1ms", "t"}));
  EXPECT_FALSE(plain.contains("steps"));  // only with a schedule
}

}  // namespace
