// SPDX-License-Identifier: Apache-2.0
// tests/app/report/ch_series_test.cpp: CH-benCHmark's analytic side over time and against the
// same run without streams: the series read back from the JSON exactly (and an older result
// without it still read), the HTML plot beside tpmC, and a schedule's step at 0 streams then one
// at 1 stating tpmC with streams against without in the summary, the JSON and the HTML.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>

#include "report/ch_report.hpp"
#include "report/ch_steps.hpp"
#include "report/html_ch.hpp"
#include "report/json.hpp"
#include "sample_result.hpp"
#include "scheduled_run.hpp"

namespace {

namespace run = tpcc::run;

// compliant() with one stream and three intervals of the analytic series.
run::run_result ch_series_sample() {
  run::run_result r = tpcc::testing::compliant();
  r.ch.streams = 1;
  r.config.analytic_streams = 1;
  r.ch.queries[0].completed = 5;
  r.ch.queries[0].latency.record(3000, 5);
  r.ch.series = {{0, 1, 2, 0, 0, 3071}, {1, 2.5, 3, 1, 0, 4095}, {2.5, 3, 0, 0, 1, 0}};
  r.series = {tpcc::testing::interval_of(0, 1.5, 20, 1000),
              tpcc::testing::interval_of(1.5, 1.5, 30, 1000)};
  return r;
}

run::run_result ch_series_read_back(const std::string& text) {
  auto parsed = tpcc::report::parse_json(text, "series.json");
  if (auto* error = std::get_if<std::string>(&parsed)) ADD_FAILURE() << *error;
  return std::get<tpcc::report::loaded_result>(std::move(parsed)).result;
}

TEST(ch_series, TheAnalyticSeriesIsReadBackExactlyAndAResultWithoutItStillReads) {
  const run::run_result r = ch_series_sample();
  const std::string text = tpcc::report::to_json_text(r, {"sqlite:x.db", "1.0"});
  const run::run_result back = ch_series_read_back(text);
  ASSERT_EQ(back.ch.series.size(), 3U);
  for (std::size_t i = 0; i < 3; ++i) {
    const run::ch_interval& a = r.ch.series[i];
    const run::ch_interval& b = back.ch.series[i];
    EXPECT_DOUBLE_EQ(b.start_seconds, a.start_seconds) << i;
    EXPECT_DOUBLE_EQ(b.end_seconds, a.end_seconds) << i;
    EXPECT_EQ(b.completed, a.completed) << i;
    EXPECT_EQ(b.failed, a.failed) << i;
    EXPECT_EQ(b.cancelled, a.cancelled) << i;
    EXPECT_EQ(b.p90_us, a.p90_us) << i;
  }
  // A result written before the series was recorded: read, with no series.
  auto doc = nlohmann::json::parse(text);
  doc["ch"].erase("series");
  doc["ch"].erase("with_and_without_streams");
  const run::run_result older = ch_series_read_back(doc.dump());
  EXPECT_TRUE(older.ch.ran());
  EXPECT_TRUE(older.ch.series.empty());
  // An interval ending before it starts is refused, naming the field.
  doc = nlohmann::json::parse(text);
  doc["ch"]["series"][1]["end_seconds"] = 0.5;
  auto parsed = tpcc::report::parse_json(doc.dump(), "bad.json");
  ASSERT_TRUE(std::holds_alternative<std::string>(parsed));
  EXPECT_EQ(std::get<std::string>(parsed),
            "bad.json: field ch.series[1]: expected start_seconds <= end_seconds");
}

TEST(ch_series, TheHtmlSectionPlotsTheQueriesPerIntervalBesideTpmC) {
  const std::string html = tpcc::report::html::ch_section(ch_series_sample());
  const auto plot = html.find("id=\"ch-over-time\"");
  ASSERT_NE(plot, std::string::npos) << html;
  EXPECT_NE(html.find("<svg", plot), std::string::npos);
  EXPECT_NE(html.find("data-series=\"tpmc\"", plot), std::string::npos);
  EXPECT_NE(html.find("data-series=\"ch-completed\"", plot), std::string::npos);
  // Without a series (a merged result): said in words, no empty plot.
  run::run_result merged = ch_series_sample();
  merged.ch.series.clear();
  const std::string words = tpcc::report::html::ch_section(merged);
  EXPECT_NE(words.find("No analytic series over time"), std::string::npos);
  EXPECT_EQ(words.find("data-series=\"ch-completed\""), std::string::npos);
}

// A schedule of two 4 s steps (scheduled_run.hpp): 100 New-Orders a second without streams,
// then 80 with one stream, which completed a query in each of its step's measured intervals.
run::run_result ch_with_and_without() {
  run::run_result r = tpcc::testing::scheduled({100, 80}, {1000, 1000});
  r.ch.streams = 1;
  r.config.analytic_streams = 1;
  r.config.schedule[1].analytic_streams = 1;
  r.steps[1].analytic_streams = 1;
  r.ch.queries[0].completed = 3;
  r.ch.queries[0].latency.record(2000, 3);
  for (int j = 0; j < 4; ++j) {  // the second step: 14 s to 18 s, its settle second first
    const double at = 14.0 + j;
    r.ch.series.push_back({at, at + 1, j == 0 ? 7U : 1U, 0, 0, 2047});
  }
  return r;
}

TEST(ch_series, AStepWithoutStreamsThenOneWithStatesTpmCWithAgainstWithout) {
  const run::run_result r = ch_with_and_without();
  const auto e = tpcc::report::ch_step_effect_of(r);
  ASSERT_TRUE(e.has_value());
  // Per step: (100 + 105 + 95) and (80 + 85 + 75) New-Orders over its 3 s window.
  EXPECT_DOUBLE_EQ(e->tpmc_without, 6000);
  EXPECT_DOUBLE_EQ(e->tpmc_with, 4800);
  EXPECT_DOUBLE_EQ(e->ratio(), 0.8);
  EXPECT_EQ(e->steps_without, 1U);
  EXPECT_EQ(e->steps_with, 1U);
  // 3 queries in the step's 3 s window (not the 7 of its settle second): 3600 an hour.
  EXPECT_DOUBLE_EQ(e->queries_per_hour_with, 3600);
  const std::string summary = tpcc::report::ch_summary_text(r);
  EXPECT_NE(summary.find("tpmC with streams 4800.0 (1 step) against 6000.0 without (1 step): "
                         "0.80x"),
            std::string::npos)
      << summary;
  EXPECT_NE(tpcc::report::html::ch_section(r).find("id=\"ch-effect\""), std::string::npos);
  // In the JSON, and read back with each step's streams.
  const std::string text = tpcc::report::to_json_text(r, {"sqlite:x.db", "1.0"});
  const auto doc = nlohmann::json::parse(text);
  const auto& effect = doc["ch"]["with_and_without_streams"];
  EXPECT_DOUBLE_EQ(effect["ratio"].get<double>(), 0.8) << effect.dump();
  EXPECT_EQ(doc["steps"][0]["analytic_streams"], 0);
  EXPECT_EQ(doc["steps"][1]["analytic_streams"], 1);
  EXPECT_EQ(doc["config"]["schedule"][1]["analytic_streams"], 1);
  const run::run_result back = ch_series_read_back(text);
  ASSERT_EQ(back.steps.size(), 2U);
  EXPECT_EQ(back.steps[0].analytic_streams, 0);
  EXPECT_EQ(back.steps[1].analytic_streams, 1);
  EXPECT_EQ(back.config.schedule[1].analytic_streams, 1);
  const auto again = tpcc::report::ch_step_effect_of(back);
  ASSERT_TRUE(again.has_value());
  EXPECT_DOUBLE_EQ(again->ratio(), 0.8);
}

TEST(ch_series, NoEffectIsStatedWithoutAStepOfEachKind) {
  run::run_result r = ch_with_and_without();
  r.steps[0].analytic_streams = 1;  // both steps with streams
  EXPECT_FALSE(tpcc::report::ch_step_effect_of(r).has_value());
  EXPECT_EQ(tpcc::report::ch_summary_text(r).find("tpmC with streams"), std::string::npos);
  EXPECT_TRUE(nlohmann::json::parse(tpcc::report::to_json_text(
      r, {"sqlite:x.db", "1.0"}))["ch"]["with_and_without_streams"]
                  .is_null());
  // A step of each kind, but the one without streams partial (interrupted): not judged.
  r = ch_with_and_without();
  r.steps[0].partial = true;
  EXPECT_FALSE(tpcc::report::ch_step_effect_of(r).has_value());
}

}  // namespace
