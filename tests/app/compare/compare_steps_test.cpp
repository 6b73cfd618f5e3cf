// SPDX-License-Identifier: Apache-2.0
// tests/app/compare/compare_steps_test.cpp: compare on --schedule results built by hand: each
// step's tpmTotal and worst p90 of A and B side by side when both ran the same schedule, in
// text, JSON and HTML, with each step's backlog and the step where one run kept up and the
// other did not named; a line saying why not when only one ran a schedule or they differ.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "compare/comparison.hpp"
#include "compare/render.hpp"
#include "scheduled_run.hpp"

namespace {

namespace cmp = tpcc::compare;

// Steps offering 12,000 and 24,000 tpm; achieved: 100 and 200 New-Orders a second times
// `per_second_scale` (1: half the offered rate, 2: all of it), each answered in `p90_us`.
tpcc::report::loaded_result stepped(std::uint64_t per_second_scale, std::uint64_t p90_us) {
  tpcc::report::loaded_result l;
  l.result =
      tpcc::testing::scheduled({100 * per_second_scale, 200 * per_second_scale}, {p90_us, p90_us});
  for (std::size_t i = 0; i < 2; ++i) {
    l.result.config.schedule[i].rate_tpm = 12000.0 * static_cast<double>(i + 1);
    l.result.steps[i].rate_tpm = l.result.config.schedule[i].rate_tpm;
  }
  l.context.target = "sim:latency=1ms";
  return l;
}

TEST(compare_steps, TheSameScheduleShowsEachStepOfAAndBSideBySide) {
  const cmp::comparison c = cmp::compare(stepped(1, 1000), "a.json", stepped(2, 9000), "b.json");
  ASSERT_EQ(c.steps.lines.size(), 2U);
  EXPECT_TRUE(c.steps.why_not.empty());
  const cmp::step_line& second = c.steps.lines[1];
  EXPECT_EQ(second.step, 2U);
  EXPECT_DOUBLE_EQ(second.offered_tpm, 24000);
  EXPECT_NEAR(second.a.tpm_total, 12000, 1);
  EXPECT_NEAR(second.b.tpm_total, 24000, 1);
  EXPECT_NEAR(second.percent, 100, 0.1);
  EXPECT_NEAR(second.b.worst_p90_ms, 9, 0.5);  // the bucket holding 9 ms
  const cmp::compare_report report{{c}, std::nullopt};
  const std::string text = cmp::format_text(report);
  EXPECT_NE(text.find("B worst p90"), std::string::npos) << text;
  EXPECT_NE(text.find("+100.0"), std::string::npos) << text;
  const auto doc = nlohmann::json::parse(cmp::to_json_text(report));
  const auto& lines = doc["comparisons"][0]["steps"]["lines"];
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[1]["step"], 2);
  EXPECT_NEAR(lines[1]["b"]["tpm_total"].get<double>(), 24000, 1);
  EXPECT_NE(cmp::format_html(report).find("<h3>Steps"), std::string::npos);
}

// Step 2 kept up in A (its oldest start 0.1 s late at both ends of its window) and not in B (2.9 s
// late at the end from 0.4 s at the start: grown by more than the 1 s noise); step 1 kept up in
// both.
TEST(compare_steps, AStepWhereOnlyOneRunKeptUpIsNamedWithBothBacklogs) {
  tpcc::report::loaded_result a = stepped(2, 1000);
  tpcc::report::loaded_result b = stepped(1, 9000);
  tpcc::testing::pace_step(a.result, 0, 0, 0.05, 2);
  tpcc::testing::pace_step(a.result, 1, 0.1, 0.1, 3);
  tpcc::testing::pace_step(b.result, 0, 0, 0.2, 4);
  tpcc::testing::pace_step(b.result, 1, 0.4, 2.9, 1234);
  const cmp::comparison c = cmp::compare(a, "a.json", b, "b.json");
  ASSERT_EQ(c.steps.lines.size(), 2U);
  EXPECT_EQ(c.steps.lines[0].kept_up_in_one, cmp::kept_up_alone::neither_alone);
  EXPECT_EQ(c.steps.lines[1].kept_up_in_one, cmp::kept_up_alone::a);
  EXPECT_EQ(c.steps.lines[1].a.kept_up(), std::optional<bool>(true));
  EXPECT_EQ(c.steps.lines[1].b.kept_up(), std::optional<bool>(false));
  const auto named = cmp::kept_up_differences(c.steps);
  ASSERT_EQ(named.size(), 1U);
  EXPECT_EQ(named[0],
            "step 2 (24000 tpm offered): A kept up (kept up, 3 behind), B did not (GREW: 1234 "
            "behind, 2.9 s late)");
  const cmp::compare_report report{{c}, std::nullopt};
  const std::string text = cmp::format_text(report);
  EXPECT_NE(text.find("kept up in one run only: " + named[0]), std::string::npos) << text;
  EXPECT_NE(text.find("12000 +-"), std::string::npos) << text;
  EXPECT_NE(text.find("(50.0 %)"), std::string::npos) << "B achieved half the offered: " << text;
  const auto doc = nlohmann::json::parse(cmp::to_json_text(report));
  const auto& steps = doc["comparisons"][0]["steps"];
  EXPECT_EQ(steps["kept_up_in_one_only"][0], named[0]);
  EXPECT_TRUE(steps["lines"][0]["kept_up_alone"].is_null());
  EXPECT_EQ(steps["lines"][1]["kept_up_alone"], "A");
  EXPECT_EQ(steps["lines"][1]["b"]["pacing"]["backlog_at_end"]["behind"], 1234);
  EXPECT_FALSE(steps["lines"][1]["b"]["pacing"]["kept_up"].get<bool>());
  EXPECT_TRUE(steps["lines"][1]["a"]["pacing"]["kept_up"].get<bool>());
  const std::string html = cmp::format_html(report);
  EXPECT_NE(html.find("Kept up in one run only"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"fail\">GREW: 1234 behind, 2.9 s late</td>"), std::string::npos)
      << html;
}

TEST(compare_steps, StepsWithoutABacklogOrBothBehindNameNoStep) {
  tpcc::report::loaded_result a = stepped(1, 1000);
  tpcc::report::loaded_result b = stepped(1, 1000);
  tpcc::testing::pace_step(a.result, 1, 0.4, 2.9, 100);  // B has no backlog recorded
  const cmp::comparison unpaced = cmp::compare(a, "a.json", b, "b.json");
  EXPECT_TRUE(cmp::kept_up_differences(unpaced.steps).empty());
  EXPECT_EQ(cmp::step_backlog_cell(unpaced.steps.lines[1].b), "-");
  const auto doc = nlohmann::json::parse(cmp::to_json_text({{unpaced}, std::nullopt}));
  EXPECT_TRUE(doc["comparisons"][0]["steps"]["lines"][1]["b"]["pacing"].is_null());
  tpcc::testing::pace_step(b.result, 1, 0.2, 3.5, 200);  // both grew
  const cmp::comparison both = cmp::compare(a, "a.json", b, "b.json");
  EXPECT_EQ(both.steps.lines[1].kept_up_in_one, cmp::kept_up_alone::neither_alone);
  EXPECT_EQ(cmp::format_text({{both}, std::nullopt}).find("kept up in one run only"),
            std::string::npos);
}

TEST(compare_steps, OneScheduleOrDifferentOnesAreNamedNotCompared) {
  tpcc::report::loaded_result plain = stepped(1, 1000);
  plain.result.config.schedule.clear();
  plain.result.steps.clear();
  const cmp::comparison one = cmp::compare(stepped(1, 1000), "a.json", plain, "b.json");
  EXPECT_TRUE(one.steps.lines.empty());
  EXPECT_EQ(one.steps.why_not, "only A ran a --schedule");
  tpcc::report::loaded_result other = stepped(1, 1000);
  other.result.config.schedule[0].duration = std::chrono::seconds(8);
  const cmp::comparison differ = cmp::compare(stepped(1, 1000), "a.json", other, "b.json");
  EXPECT_TRUE(differ.steps.lines.empty());
  EXPECT_NE(cmp::format_text({{differ}, std::nullopt}).find("steps: not compared: A and B ran"),
            std::string::npos);
  const cmp::comparison neither = cmp::compare(plain, "a.json", plain, "b.json");
  EXPECT_TRUE(neither.steps.why_not.empty());
  EXPECT_EQ(cmp::format_text({{neither}, std::nullopt}).find("steps"), std::string::npos);
}

}  // namespace
