// SPDX-License-Identifier: Apache-2.0
// tests/app/compare/compare_ch_test.cpp: CH-benCHmark's analytic side in a comparison: QphH
// beside tpmC (gated), each query's rate, p50 and p90 with the same intervals as the types, the
// stream counts among the likely causes, and no analytic rows between two TPC-C results; each
// run's tpmC with streams against without side by side (text, JSON, HTML), a TPC-C run beside a
// CH one stated.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "compare/ch_rows.hpp"
#include "compare/comparison.hpp"
#include "compare/render.hpp"
#include "sample_result.hpp"
#include "scheduled_run.hpp"

namespace {

namespace cmp = tpcc::compare;
using tpcc::report::loaded_result;

// The report tests' compliant result, measured over 600 s, with one stream beside it:
// `per_query` completions of every query, each in `latency_us` (query 5: `q5_latency_us`).
loaded_result ch_run(std::uint64_t per_query, std::uint64_t latency_us,
                     std::uint64_t q5_latency_us) {
  loaded_result l{tpcc::testing::compliant(), {"postgresql://tpcc@db/tpcc", "1.0"}};
  auto& r = l.result;
  r.measured_seconds = 600;
  r.ch.streams = 1;
  for (std::size_t i = 0; i < r.ch.queries.size(); ++i) {
    auto& q = r.ch.queries[i];
    q.completed = per_query;
    for (std::uint64_t k = 0; k < per_query; ++k) {
      q.latency.record((i == 4 ? q5_latency_us : latency_us) + k % 20);
    }
  }
  return l;
}

// The rows of `c` by figure.
std::map<std::string, cmp::row> ch_rows_by_figure(const cmp::comparison& c) {
  std::map<std::string, cmp::row> out;
  for (const cmp::row& r : c.rows) out.emplace(r.figure, r);
  return out;
}

TEST(compare_ch, QueriesPerHourIsTheCompletedQueriesRateWithThePoissonInterval) {
  const loaded_result l = ch_run(100, 200000, 200000);
  const cmp::estimate all = cmp::queries_per_hour(l.result, 0);
  ASSERT_TRUE(all.known);
  EXPECT_DOUBLE_EQ(all.value, 2200 * 6.0);  // 22 x 100 in 600 s
  EXPECT_NEAR(all.ci.high - all.value, 4.417 * std::sqrt(2200.0) * 6, 1e-6);
  EXPECT_DOUBLE_EQ(cmp::queries_per_hour(l.result, 5).value, 600.0);
  EXPECT_FALSE(cmp::queries_per_hour(loaded_result{}.result, 0).known);
}

TEST(compare_ch, EachQueryHasARateAndLatencyRowsAndASlowerQueryIsBeyondNoise) {
  // B: query 5 ten times slower, the rest alike.
  const cmp::comparison c =
      cmp::compare(ch_run(100, 200000, 200000), "a.json", ch_run(100, 200000, 2000000), "b.json");
  const auto rows = ch_rows_by_figure(c);
  const auto qphh = std::find_if(c.rows.begin(), c.rows.end(),
                                 [](const cmp::row& r) { return r.figure == "QphH"; });
  ASSERT_NE(qphh, c.rows.end());
  EXPECT_EQ((qphh - 1)->figure, "tpmTotal") << "QphH stands beside the TPC-C throughput";
  EXPECT_TRUE(qphh->gated);
  EXPECT_EQ(qphh->judged, cmp::change::none);
  for (int n = 1; n <= 22; ++n) {
    const std::string q = std::string("Q").append(std::to_string(n));
    EXPECT_EQ(rows.at(q + " qph").judged, cmp::change::none) << q;
    EXPECT_EQ(rows.at(q + " p50").unit, "ms") << q;
    EXPECT_FALSE(rows.at(q + " p90").gated) << q;
  }
  EXPECT_EQ(rows.at("Q5 p90").judged, cmp::change::slower);
  EXPECT_NEAR(rows.at("Q5 p50").percent, 900.0, 900.0 * 0.04);
  EXPECT_EQ(rows.at("Q4 p90").judged, cmp::change::none);
  const std::string text = cmp::format_text({{c}, std::nullopt});
  EXPECT_NE(text.find("  QphH "), std::string::npos) << text;
  EXPECT_NE(text.find("  Q22 qph "), std::string::npos) << text;
  EXPECT_NE(text.find("Q5 p90 slower"), std::string::npos) << text;
}

TEST(compare_ch, FewerQueriesPerHourFailTheGateAsTpmCDoes) {
  const cmp::comparison c =
      cmp::compare(ch_run(100, 200000, 200000), "a.json", ch_run(50, 200000, 200000), "b.json");
  const auto rows = ch_rows_by_figure(c);
  EXPECT_EQ(rows.at("QphH").judged, cmp::change::slower);
  EXPECT_NEAR(rows.at("QphH").percent, -50.0, 1e-9);
  const auto slower = cmp::gate(c, 10);
  ASSERT_EQ(slower.size(), 1U);
  EXPECT_EQ(slower[0]->figure, "QphH");
  EXPECT_TRUE(cmp::gate(c, 60).empty());
}

TEST(compare_ch, StreamsOnOneSideOnlyAreALikelyCauseAndTheOtherSideIsNotMeasured) {
  loaded_result tpcc_only = ch_run(100, 200000, 200000);
  tpcc_only.result.ch = {};
  const cmp::comparison c =
      cmp::compare(tpcc_only, "a.json", ch_run(100, 200000, 200000), "b.json");
  const auto rows = ch_rows_by_figure(c);
  const auto streams =
      std::find_if(c.config.begin(), c.config.end(),
                   [](const cmp::config_difference& d) { return d.setting == "analytic streams"; });
  ASSERT_NE(streams, c.config.end());
  EXPECT_TRUE(streams->likely_cause);
  EXPECT_EQ(streams->a, "0");
  EXPECT_EQ(streams->b, "1");
  EXPECT_EQ(rows.at("QphH").judged, cmp::change::unknown);
  EXPECT_FALSE(rows.at("QphH").a.known);
  // Two TPC-C results: no analytic row at all.
  const cmp::comparison plain = cmp::compare(tpcc_only, "a.json", tpcc_only, "b.json");
  for (const cmp::row& r : plain.rows) {
    EXPECT_FALSE(r.figure == "QphH" || r.figure.starts_with("Q1 ")) << r.figure;
  }
}

TEST(compare_ch, BothRunsRatiosWithAndWithoutStreamsAreShownSideBySide) {
  // A: 80 New-Orders a second with the stream against 100 without (0.80x); B: 90 (0.90x).
  const loaded_result a{tpcc::testing::ch_scheduled(100, 80), {"sqlite:a.db", "1.0"}};
  const loaded_result b{tpcc::testing::ch_scheduled(100, 90), {"sqlite:b.db", "1.0"}};
  const cmp::comparison c = cmp::compare(a, "a.json", b, "b.json");
  ASSERT_TRUE(c.ch_effect.a.effect.has_value());
  ASSERT_TRUE(c.ch_effect.b.effect.has_value());
  EXPECT_DOUBLE_EQ(c.ch_effect.a.effect->ratio(), 0.8);
  EXPECT_DOUBLE_EQ(c.ch_effect.b.effect->ratio(), 0.9);
  const std::string text = cmp::format_text({{c}, std::nullopt});
  EXPECT_NE(text.find("    A: 0.80x (tpmC 4800.0 with streams over 1 step, 6000.0 without over 1; "
                      "3600.0 queries per hour with)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    B: 0.90x (tpmC 5400.0 with"), std::string::npos) << text;
  EXPECT_NE(text.find("    B's ratio - A's: +0.10 (0.90x against 0.80x)"), std::string::npos)
      << text;
  const auto doc = nlohmann::json::parse(cmp::to_json_text({{c}, std::nullopt}));
  const auto& effect = doc["comparisons"][0]["with_and_without_streams"];
  EXPECT_DOUBLE_EQ(effect["a"]["ratio"].get<double>(), 0.8) << effect.dump();
  EXPECT_DOUBLE_EQ(effect["b"]["tpmc_with_streams"].get<double>(), 5400) << effect.dump();
  EXPECT_NEAR(effect["ratio_difference"].get<double>(), 0.1, 1e-12) << effect.dump();
  const std::string html = cmp::format_html({{c}, std::nullopt});
  const auto section = html.find("id=\"ch-effect\"");
  ASSERT_NE(section, std::string::npos);
  EXPECT_NE(html.find("B's ratio - A's</td><td>+0.10", section), std::string::npos)
      << html.substr(section, 800);
}

TEST(compare_ch, ATpcCRunBesideOneWithTheRatioIsStatedNotAnError) {
  loaded_result tpcc_only{tpcc::testing::scheduled({100, 80}, {1000, 1000}), {"sqlite:a", "1"}};
  const loaded_result ch{tpcc::testing::ch_scheduled(100, 80), {"sqlite:b.db", "1.0"}};
  const cmp::comparison c = cmp::compare(tpcc_only, "a.json", ch, "b.json");
  EXPECT_FALSE(c.ch_effect.a.effect.has_value());
  const std::string text = cmp::format_text({{c}, std::nullopt});
  EXPECT_NE(text.find("    A: not measured: a TPC-C run (no analytic streams)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("    B's ratio - A's: -\n"), std::string::npos) << text;
  const auto doc = nlohmann::json::parse(cmp::to_json_text({{c}, std::nullopt}));
  const auto& effect = doc["comparisons"][0]["with_and_without_streams"];
  EXPECT_EQ(effect["a"]["not_measured"], "a TPC-C run (no analytic streams)");
  EXPECT_TRUE(effect["ratio_difference"].is_null());
  // Streams in every step: CH-benCHmark, but no step without them to set against.
  loaded_result all_steps = ch;
  all_steps.result.steps[0].analytic_streams = 1;
  const cmp::comparison d = cmp::compare(all_steps, "a.json", ch, "b.json");
  EXPECT_NE(cmp::format_text({{d}, std::nullopt})
                .find("    A: not measured: no complete step with streams and one without"),
            std::string::npos);
  // Neither carries the ratio: no block, a null in the JSON.
  const cmp::comparison none = cmp::compare(tpcc_only, "a.json", tpcc_only, "b.json");
  EXPECT_EQ(cmp::format_text({{none}, std::nullopt}).find("with analytic streams against"),
            std::string::npos);
  EXPECT_TRUE(nlohmann::json::parse(cmp::to_json_text(
      {{none}, std::nullopt}))["comparisons"][0]["with_and_without_streams"]
                  .is_null());
}

}  // namespace
