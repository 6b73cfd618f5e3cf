// SPDX-License-Identifier: Apache-2.0
// tests/app/compare/compare_ch_test.cpp: CH-benCHmark's analytic side in a comparison: QphH
// beside tpmC (gated), each query's rate, p50 and p90 with the same intervals as the types, the
// stream counts among the likely causes, and no analytic rows between two TPC-C results.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "compare/ch_rows.hpp"
#include "compare/comparison.hpp"
#include "compare/render.hpp"
#include "sample_result.hpp"

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

}  // namespace
