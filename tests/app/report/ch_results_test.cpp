// SPDX-License-Identifier: Apache-2.0
// tests/app/report/ch_results_test.cpp: CH-benCHmark's analytic side after the run: the JSON
// result's "ch" read back (counts, histograms, rows), merged (counts and buckets add, queries
// per hour over the merged window, a TPC-C result refused beside a CH one) and as CSV.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "report/ch_csv.hpp"
#include "report/csv.hpp"
#include "report/json.hpp"
#include "report/merge.hpp"
#include "sample_result.hpp"
#include "support/temp_dir.hpp"

namespace {

using tpcc::report::loaded_result;
using tpcc::report::merge_input;
namespace run = tpcc::run;

// A compliant result whose one stream completed `n` of query 1 in `latency_us` each and
// `2 n` of query 5 in 10 x `latency_us`; one failure of query 3, one cancelled query 22.
run::run_result with_streams(std::uint64_t n, std::uint64_t latency_us) {
  run::run_result r = tpcc::testing::compliant();
  r.ch.streams = 1;
  r.config.analytic_streams = 1;
  run::ch_query_totals& q1 = r.ch.queries[0];
  q1.completed = n;
  q1.latency.record(latency_us, n);
  q1.last_rows = 4;
  run::ch_query_totals& q5 = r.ch.queries[4];
  q5.completed = 2 * n;
  q5.latency.record(10 * latency_us, 2 * n);
  q5.last_rows = 0;
  r.ch.queries[2].failed = 1;
  r.ch.queries[21].cancelled = 1;
  return r;
}

loaded_result read_back(const run::run_result& r) {
  const std::string text = tpcc::report::to_json_text(r, {"sqlite:x.db", "1.0"});
  auto parsed = tpcc::report::parse_json(text, "ch.json");
  if (auto* error = std::get_if<std::string>(&parsed)) ADD_FAILURE() << *error;
  return std::get<loaded_result>(std::move(parsed));
}

TEST(ch_results, TheJsonResultsAnalyticSideIsReadBackExactly) {
  const run::run_result r = with_streams(6, 2000);
  const run::run_result back = read_back(r).result;
  ASSERT_TRUE(back.ch.ran());
  EXPECT_EQ(back.ch.streams, 1);
  EXPECT_EQ(back.config.analytic_streams, 1);
  ASSERT_EQ(back.ch.queries.size(), run::ch_query_count);
  for (std::size_t i = 0; i < run::ch_query_count; ++i) {
    const run::ch_query_totals& a = r.ch.queries[i];
    const run::ch_query_totals& b = back.ch.queries[i];
    EXPECT_EQ(b.completed, a.completed) << "Q" << i + 1;
    EXPECT_EQ(b.failed, a.failed) << "Q" << i + 1;
    EXPECT_EQ(b.cancelled, a.cancelled) << "Q" << i + 1;
    EXPECT_EQ(b.last_rows, a.last_rows) << "Q" << i + 1;
    EXPECT_EQ(b.latency.count(), a.latency.count()) << "Q" << i + 1;
    EXPECT_EQ(b.latency.percentile(0.9), a.latency.percentile(0.9)) << "Q" << i + 1;
    EXPECT_EQ(b.latency.max(), a.latency.max()) << "Q" << i + 1;
  }
  EXPECT_DOUBLE_EQ(back.ch.queries_per_hour(back.measured_seconds),
                   r.ch.queries_per_hour(r.measured_seconds));
}

TEST(ch_results, ATpcCResultReadsBackWithoutAnAnalyticSide) {
  const run::run_result back = read_back(tpcc::testing::compliant()).result;
  EXPECT_FALSE(back.ch.ran());
  EXPECT_EQ(back.ch.completed(), 0U);
}

TEST(ch_results, AQueryWhoseHistogramDisagreesWithItsCountIsRefusedNamingTheField) {
  std::string text = tpcc::report::to_json_text(with_streams(6, 2000), {"sqlite:x.db", "1.0"});
  // Query 1's count of completed queries, no longer its histogram's.
  const std::string completed = "\"completed\": 6,";
  const auto at = text.find(completed);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, completed.size(), "\"completed\": 7,");
  auto parsed = tpcc::report::parse_json(text, "bad.json");
  ASSERT_TRUE(std::holds_alternative<std::string>(parsed));
  EXPECT_EQ(std::get<std::string>(parsed),
            "bad.json: field ch.queries[0].latency.count: does not equal completed");
  // A query without its histogram (as written before the histograms were): refused, not read
  // with its percentiles lost.
  auto doc = nlohmann::json::parse(
      tpcc::report::to_json_text(with_streams(6, 2000), {"sqlite:x.db", "1.0"}));
  doc["ch"]["queries"][0].erase("latency");
  parsed = tpcc::report::parse_json(doc.dump(), "old.json");
  ASSERT_TRUE(std::holds_alternative<std::string>(parsed));
  EXPECT_EQ(std::get<std::string>(parsed), "old.json: field ch.queries[0].latency: missing");
}

// Shard `index` of 2 (warehouses 1-5 or 6-10) with streams, started `delay_s` seconds late.
merge_input ch_shard(int index, std::uint64_t n, std::uint64_t latency_us, int delay_s) {
  run::run_result r = with_streams(n, latency_us);
  r.config.shard = {index, 2};
  r.first_warehouse = index == 0 ? 1 : 6;
  r.last_warehouse = index == 0 ? 5 : 10;
  r.terminals = 50;
  r.started += std::chrono::seconds(delay_s);
  return {std::string("ch-").append(std::to_string(index)).append(".json"), read_back(r)};
}

TEST(ch_results, MergeAddsCountsAndBucketsAndRecomputesQueriesPerHourOverTheMergedWindow) {
  // Nine fast Q1s in one shard, one slow Q1 in the other: the merged p90 is the fast one's,
  // the merged max the slow one's (buckets added, never percentiles averaged).
  const std::vector<merge_input> in{ch_shard(0, 9, 1000, 0), ch_shard(1, 1, 900000, 10)};
  auto out = tpcc::report::merge_results(in);
  ASSERT_TRUE(std::holds_alternative<tpcc::report::merged_result>(out))
      << std::get<std::string>(out);
  const run::run_result& m = std::get<tpcc::report::merged_result>(out).result;
  EXPECT_EQ(m.ch.streams, 2);
  EXPECT_EQ(m.config.analytic_streams, 2);
  const run::ch_query_totals& q1 = m.ch.queries[0];
  EXPECT_EQ(q1.completed, 10U);
  EXPECT_EQ(q1.latency.count(), 10U);
  EXPECT_EQ(q1.latency.percentile(0.9),
            tpcc::stats::bucket::upper_edge(tpcc::stats::bucket::index_of(1000)));
  EXPECT_EQ(q1.latency.max(), 900000U);
  EXPECT_EQ(m.ch.queries[4].completed, 20U);
  EXPECT_EQ(m.ch.queries[2].failed, 2U);
  EXPECT_EQ(m.ch.queries[21].cancelled, 2U);
  EXPECT_EQ(m.ch.completed(), 30U);
  // The merged window is 10 s longer than either shard's: the rate is over it, as tpmC's.
  const double shard_seconds = in[0].loaded.result.measured_seconds;
  ASSERT_DOUBLE_EQ(m.measured_seconds, shard_seconds + 10);
  EXPECT_DOUBLE_EQ(m.ch.queries_per_hour(m.measured_seconds), 30 * 3600 / (shard_seconds + 10));
  // What the merged file says, read back once more.
  const run::run_result again = read_back(m).result;
  EXPECT_EQ(again.ch.queries[0].latency.max(), 900000U);
  EXPECT_EQ(again.ch.streams, 2);
}

TEST(ch_results, MergeRefusesACHResultBesideATpcCOneNamingTheFile) {
  merge_input tpcc_only = ch_shard(1, 1, 1000, 0);
  tpcc_only.file = "tpcc-only.json";
  tpcc_only.loaded.result.ch = {};
  for (const auto& in : {std::vector<merge_input>{ch_shard(0, 1, 1000, 0), tpcc_only},
                         std::vector<merge_input>{tpcc_only, ch_shard(0, 1, 1000, 0)}}) {
    auto out = tpcc::report::merge_results(in);
    ASSERT_TRUE(std::holds_alternative<std::string>(out));
    const std::string& why = std::get<std::string>(out);
    EXPECT_EQ(why.rfind(in[1].file + ": ran ", 0), 0U) << why;
    EXPECT_NE(why.find(in[0].file), std::string::npos) << why;
    EXPECT_NE(why.find("a CH-benCHmark result and a TPC-C one do not merge"), std::string::npos)
        << why;
  }
}

std::string ch_slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(ch_results, TheCsvHasOneRowPerQueryAndTheTotals) {
  run::run_result r = with_streams(6, 2000);
  r.measured_seconds = 60;
  const std::string csv = tpcc::report::format_ch_csv(r);
  std::vector<std::string> lines;
  std::istringstream in(csv);
  for (std::string line; std::getline(in, line, '\n');) {
    ASSERT_FALSE(line.empty());
    ASSERT_EQ(line.back(), '\r') << line;
    lines.push_back(line.substr(0, line.size() - 1));
  }
  ASSERT_EQ(lines.size(), 24U) << csv;
  EXPECT_EQ(lines[0],
            "query,completed,failed,cancelled,p50_ms,p90_ms,p99_ms,max_ms,mean_ms,last_rows,"
            "queries_per_hour");
  // 6 of Q1 in 2 ms each over 60 s: 360 an hour; the histogram's buckets are exact at 2000 us.
  EXPECT_EQ(lines[1], "1,6,0,0,2.000,2.000,2.000,2.000,2.000,4,360.00");
  EXPECT_EQ(lines[3], "3,0,1,0,,,,,,,0.00");
  EXPECT_EQ(lines[5].substr(0, 7), "5,12,0,");
  EXPECT_EQ(lines[22], "22,0,0,1,,,,,,,0.00");
  EXPECT_EQ(lines[23], "all,18,1,1,,,,,,,1080.00");
  EXPECT_EQ(tpcc::report::ch_csv_path("out/run.csv"), "out/run.ch.csv");
  EXPECT_EQ(tpcc::report::ch_csv_path("run"), "run.ch.csv");
}

TEST(ch_results, WriteCsvWritesTheQueryTableOnlyWhenStreamsRan) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-ch-csv");
  const run::run_result r = with_streams(6, 2000);
  ASSERT_EQ(tpcc::report::write_csv(r, dir.file("with.csv")), std::nullopt);
  ASSERT_EQ(tpcc::report::write_csv(tpcc::testing::compliant(), dir.file("without.csv")),
            std::nullopt);
  EXPECT_EQ(ch_slurp(dir.file("with.ch.csv")), tpcc::report::format_ch_csv(r));
  EXPECT_FALSE(std::filesystem::exists(dir.file("without.ch.csv")));
}

}  // namespace
