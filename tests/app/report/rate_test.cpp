// SPDX-License-Identifier: Apache-2.0
// tests/app/report/rate_test.cpp: what the reports say about a `run --rate` result built by
// hand: the NOT TPC-C label, offered against achieved, the backlog named when it grew, the JSON
// read back as written, and merge adding the shards' figures (and refusing to mix modes).
#include <gtest/gtest.h>

#include <string>
#include <variant>
#include <vector>

#include "report/json.hpp"
#include "report/merge.hpp"
#include "report/rate.hpp"
#include "report/summary.hpp"
#include "report/verdict.hpp"
#include "sample_result.hpp"

namespace {

using tpcc::report::merge_input;
using tpcc::run::run_result;

bool rate_says(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// compliant() run at --rate 60000 over its window, with the backlog at its start and end.
run_result paced_result(double oldest_at_start, double oldest_at_end, std::uint64_t behind_at_end) {
  run_result r = tpcc::testing::compliant();
  r.config.rate_tpm = 60000;
  tpcc::stats::pace_totals p;
  p.offered_tpm = 60000;
  p.window_seconds = r.measured_seconds;
  p.intended = 1000;
  p.began = 990;
  p.max_lag_seconds = oldest_at_end;
  p.at_start = {3, oldest_at_start};
  p.at_end = {behind_at_end, oldest_at_end};
  r.pacing = p;
  return r;
}

TEST(rate_report, APacedRunIsNotTpcCAndSaysWhetherTheDatabaseKeptUp) {
  const run_result r = paced_result(0.2, 0.3, 2);
  const std::string text = tpcc::report::format_summary(r, "postgresql://db");
  EXPECT_TRUE(rate_says(text, "mode        NOT TPC-C: --rate 60000 tpm")) << text;
  EXPECT_TRUE(rate_says(text, "rate        offered 60000 tpm, achieved")) << text;
  EXPECT_TRUE(rate_says(text, "kept up     yes")) << text;
  EXPECT_FALSE(rate_says(text, "BACKLOG")) << text;
  EXPECT_TRUE(rate_says(text, "efficiency  n/a: --rate")) << text;
  const auto v = tpcc::report::evaluate(r, "postgresql://db");
  EXPECT_FALSE(v.pass);  // inconclusive: not TPC-C
  EXPECT_FALSE(r.tpc_c_waits());
}

TEST(rate_report, AGrowingBacklogIsNamedWithItsSize) {
  const run_result r = paced_result(0.5, 120.0, 1234);
  const std::string text = tpcc::report::format_summary(r, "postgresql://db");
  EXPECT_TRUE(rate_says(text,
                        "BACKLOG     the database did not keep up: 1234 intended starts behind, "
                        "the oldest 120.0 s late"))
      << text;
  EXPECT_TRUE(rate_says(tpcc::report::rate_outcome_text(r), "did NOT keep up"));
}

TEST(rate_report, TheJsonCarriesTheRateAndReadsBackAsWritten) {
  const run_result r = paced_result(0.5, 120.0, 1234);
  const std::string text = tpcc::report::to_json_text(r, {"postgresql://db", "t"});
  EXPECT_TRUE(rate_says(text, "\"kept_up\": false")) << text.substr(0, 400);
  EXPECT_TRUE(rate_says(text, "\"tpc_c_waits\": false"));
  auto read = tpcc::report::parse_json(text, "rate.json");
  ASSERT_TRUE(std::holds_alternative<tpcc::report::loaded_result>(read))
      << std::get<std::string>(read);
  const run_result& back = std::get<tpcc::report::loaded_result>(read).result;
  ASSERT_TRUE(back.pacing.has_value());
  EXPECT_DOUBLE_EQ(back.config.rate_tpm, 60000);
  EXPECT_EQ(back.pacing->intended, 1000U);
  EXPECT_EQ(back.pacing->began, 990U);
  EXPECT_EQ(back.pacing->at_end.behind, 1234U);
  EXPECT_DOUBLE_EQ(back.pacing->at_end.oldest_seconds, 120.0);
  EXPECT_DOUBLE_EQ(back.pacing->at_start.oldest_seconds, 0.5);
  EXPECT_TRUE(back.pacing->grew());
  // Without --rate: no rate object, and the rest says the spec's waits.
  const std::string plain =
      tpcc::report::to_json_text(tpcc::testing::compliant(), {"postgresql://db", "t"});
  EXPECT_FALSE(rate_says(plain, "\"kept_up\""));
}

merge_input rate_shard(run_result r, int index) {
  r.config.shard = {index, 2};
  r.first_warehouse = index == 0 ? 1 : 6;
  r.last_warehouse = index == 0 ? 5 : 10;
  return {"shard-" + std::to_string(index) + ".json", {r, {"postgresql://db", "1.0"}}};
}

TEST(rate_report, MergeAddsTheShardsRatesAndBacklogsAndRefusesMixedModes) {
  const std::vector<merge_input> in{rate_shard(paced_result(0.1, 0.2, 1), 0),
                                    rate_shard(paced_result(0.3, 9.0, 50), 1)};
  auto out = tpcc::report::merge_results(in);
  ASSERT_TRUE(std::holds_alternative<tpcc::report::merged_result>(out))
      << std::get<std::string>(out);
  const run_result& m = std::get<tpcc::report::merged_result>(out).result;
  EXPECT_DOUBLE_EQ(m.config.rate_tpm, 120000);
  ASSERT_TRUE(m.pacing.has_value());
  EXPECT_DOUBLE_EQ(m.pacing->offered_tpm, 120000);
  EXPECT_EQ(m.pacing->intended, 2000U);
  EXPECT_EQ(m.pacing->at_end.behind, 51U);
  EXPECT_DOUBLE_EQ(m.pacing->at_end.oldest_seconds, 9.0);
  EXPECT_DOUBLE_EQ(m.pacing->at_start.oldest_seconds, 0.3);

  const std::vector<merge_input> mixed{rate_shard(paced_result(0.1, 0.2, 1), 0),
                                       rate_shard(tpcc::testing::compliant(), 1)};
  auto refused = tpcc::report::merge_results(mixed);
  ASSERT_TRUE(std::holds_alternative<std::string>(refused));
  EXPECT_TRUE(rate_says(std::get<std::string>(refused), "ran without --rate"))
      << std::get<std::string>(refused);
}

}  // namespace
