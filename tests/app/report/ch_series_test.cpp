// SPDX-License-Identifier: Apache-2.0
// tests/app/report/ch_series_test.cpp: CH-benCHmark's analytic side over time and against the
// same run without streams: the series read back from the JSON exactly (and an older result
// without it still read), the HTML plot beside tpmC, and a schedule's step at 0 streams then one
// at 1 stating tpmC with streams against without in the summary, the JSON and the HTML; the
// series as CSV (written only with streams), and merged on the transactions' time axis (counts
// added, p90 the shards' largest and labelled so, a shard without a series named).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <variant>
#include <vector>

#include "report/ch_report.hpp"
#include "report/ch_series_csv.hpp"
#include "report/ch_steps.hpp"
#include "report/csv.hpp"
#include "report/html_ch.hpp"
#include "report/json.hpp"
#include "report/merge.hpp"
#include "sample_result.hpp"
#include "scheduled_run.hpp"
#include "support/temp_dir.hpp"

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

// 100 New-Orders a second without streams, then 80 with one (scheduled_run.hpp).
run::run_result ch_with_and_without() { return tpcc::testing::ch_scheduled(100, 80); }

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

TEST(ch_series, TheSeriesCsvHasOneRowPerIntervalAndIsWrittenOnlyWithStreams) {
  const run::run_result r = ch_series_sample();
  EXPECT_EQ(tpcc::report::format_ch_series_csv(r),
            "start_s,end_s,completed,failed,cancelled,p90_ms,queries_per_hour\r\n"
            "0.000,1.000,2,0,0,3.071,7200.00\r\n"
            "1.000,2.500,3,1,0,4.095,7200.00\r\n"
            "2.500,3.000,0,0,1,,0.00\r\n");
  EXPECT_EQ(tpcc::report::ch_series_csv_path("out/run.csv"), "out/run.ch_series.csv");
  EXPECT_EQ(tpcc::report::ch_series_csv_path("run"), "run.ch_series.csv");
  const tpcc::testing::temp_dir dir("shoal-tpcc-ch-series-csv");
  ASSERT_EQ(tpcc::report::write_csv(r, dir.file("with.csv")), std::nullopt);
  EXPECT_TRUE(std::filesystem::exists(dir.file("with.ch_series.csv")));
  ASSERT_EQ(tpcc::report::write_csv(tpcc::testing::compliant(), dir.file("without.csv")),
            std::nullopt);
  EXPECT_FALSE(std::filesystem::exists(dir.file("without.ch_series.csv")));
  run::run_result older = r;  // streams, but written before the series was recorded
  older.ch.series.clear();
  ASSERT_EQ(tpcc::report::write_csv(older, dir.file("older.csv")), std::nullopt);
  EXPECT_FALSE(std::filesystem::exists(dir.file("older.ch_series.csv")));
}

// Shard `index` of 2 of `r` (ch_series_sample() by default), its terminals started `delay_s`
// seconds late.
tpcc::report::merge_input ch_series_shard(int index, int delay_s,
                                          run::run_result r = ch_series_sample()) {
  r.config.shard = {index, 2};
  r.first_warehouse = index == 0 ? 1 : 6;
  r.last_warehouse = index == 0 ? 5 : 10;
  r.terminals = 50;
  r.started += std::chrono::seconds(delay_s);
  const std::string text = tpcc::report::to_json_text(r, {"sqlite:x.db", "1.0"});
  auto parsed = tpcc::report::parse_json(text, "shard.json");
  if (auto* error = std::get_if<std::string>(&parsed)) ADD_FAILURE() << *error;
  return {std::string("shard-").append(std::to_string(index)).append(".json"),
          std::get<tpcc::report::loaded_result>(std::move(parsed))};
}

tpcc::report::merged_result ch_series_merged(const std::vector<tpcc::report::merge_input>& in) {
  auto out = tpcc::report::merge_results(in);
  if (auto* why = std::get_if<std::string>(&out)) ADD_FAILURE() << *why;
  return std::get<tpcc::report::merged_result>(std::move(out));
}

TEST(ch_series, MergeAddsTheShardsCountsPerIntervalAndLabelsTheP90AnUpperBound) {
  const tpcc::report::merged_result m =
      ch_series_merged({ch_series_shard(0, 0), ch_series_shard(1, 0)});
  const run::ch_totals& c = m.result.ch;
  ASSERT_EQ(c.series.size(), 3U);
  EXPECT_EQ(c.series[0].completed, 4U);
  EXPECT_EQ(c.series[1].completed, 6U);
  EXPECT_EQ(c.series[1].failed, 2U);
  EXPECT_EQ(c.series[2].cancelled, 2U);
  EXPECT_EQ(c.series[1].p90_us, 4095U);
  EXPECT_DOUBLE_EQ(c.series[1].start_seconds, 1);
  EXPECT_DOUBLE_EQ(c.series[1].end_seconds, 2.5);
  EXPECT_TRUE(c.series_p90_max_of_shards);
  EXPECT_NE(std::find(m.notes.begin(), m.notes.end(),
                      "the analytic series' p90 per interval is the largest of the shards' (an "
                      "upper bound)"),
            m.notes.end());
  EXPECT_NE(tpcc::report::format_ch_series_csv(m.result).find(",p90_ms_max_of_shards,"),
            std::string::npos);
  // The label survives the JSON; a single run's p90 is exact.
  const std::string text = tpcc::report::to_json_text(m.result, {"sqlite:x.db", "1.0"});
  EXPECT_EQ(nlohmann::json::parse(text)["ch"]["series_p90"],
            "max of the merged shards' (an upper bound)");
  EXPECT_TRUE(ch_series_read_back(text).ch.series_p90_max_of_shards);
  const std::string single = tpcc::report::to_json_text(ch_series_sample(), {"sqlite:x", "1"});
  EXPECT_EQ(nlohmann::json::parse(single)["ch"]["series_p90"], "exact");
  EXPECT_FALSE(ch_series_read_back(single).ch.series_p90_max_of_shards);
}

TEST(ch_series, MergeAlignsTheShardsSeriesByTheirStartsAsTheTransactionsOnes) {
  // The second shard started a second later: its intervals land one bin on.
  const tpcc::report::merged_result m =
      ch_series_merged({ch_series_shard(0, 0), ch_series_shard(1, 1)});
  const std::vector<run::ch_interval>& s = m.result.ch.series;
  ASSERT_EQ(s.size(), 5U);
  std::uint64_t completed = 0;
  for (const run::ch_interval& i : s) completed += i.completed;
  EXPECT_EQ(completed, 10U);      // 5 in each shard's series
  EXPECT_EQ(s[0].completed, 2U);  // the first shard's first second alone
  EXPECT_EQ(s[1].completed, 5U);  // its second interval with the other's first
  EXPECT_DOUBLE_EQ(s[4].start_seconds, 4);
}

TEST(ch_series, AShardWithStreamsButNoSeriesLeavesTheMergedSeriesOutNamingIt) {
  tpcc::report::merge_input older = ch_series_shard(1, 0);
  older.loaded.result.ch.series.clear();
  const tpcc::report::merged_result m = ch_series_merged({ch_series_shard(0, 0), older});
  EXPECT_TRUE(m.result.ch.series.empty());
  EXPECT_NE(std::find(m.notes.begin(), m.notes.end(),
                      "the analytic series is left out: shard-1.json has no analytic series"),
            m.notes.end());
}

TEST(ch_series, AMergedScheduleStatesTpmCWithAgainstWithoutAndTheQueriesPerHourOfBothShards) {
  const tpcc::report::merged_result m = ch_series_merged(
      {ch_series_shard(0, 0, ch_with_and_without()), ch_series_shard(1, 0, ch_with_and_without())});
  const auto e = tpcc::report::ch_step_effect_of(m.result);
  ASSERT_TRUE(e.has_value());
  EXPECT_DOUBLE_EQ(e->tpmc_without, 12000);  // each shard's 6000 added
  EXPECT_DOUBLE_EQ(e->tpmc_with, 9600);
  EXPECT_DOUBLE_EQ(e->ratio(), 0.8);
  // 3 queries in each shard's 3 s window: 6 in the merged one, 7200 an hour.
  EXPECT_DOUBLE_EQ(e->queries_per_hour_with, 7200);
}

}  // namespace
