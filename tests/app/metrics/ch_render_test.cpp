// SPDX-License-Identifier: Apache-2.0
// tests/app/metrics/ch_render_test.cpp: CH-benCHmark's analytic streams on the exposition page:
// per-query counters by outcome, the latency histogram by query, the streams and the queries per
// hour over the measured seconds; nothing of them without streams.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "metrics/render.hpp"
#include "page_check.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::metrics::run_view;
using tpcc::testing::sample_value;

// 100 s in: 10 s of warm-up, 90 s measured; one stream that completed three Q1s (2 ms, 3 ms,
// 1.5 s) and one Q7 (40 ms), failed one Q2 and had one Q22 cancelled.
run_view streams_view() {
  run_view v;
  v.now = tpcc::stats::phase::measuring;
  v.totals.emplace();
  tpcc::figures::run_screen s;
  s.view.now = v.now;
  s.view.elapsed_seconds = 100;
  s.view.warmup_seconds = 10;
  s.view.measure_seconds = 120;
  s.view.window.window_start = tpcc::stats::clock::time_point(10s);
  s.view.window.window_end = tpcc::stats::clock::time_point(130s);
  v.screen = s;
  tpcc::run::ch_totals ch;
  ch.streams = 1;
  ch.active_streams = 1;
  ch.queries[0].completed = 3;
  for (const std::uint64_t us : {2000, 3000, 1500000}) ch.queries[0].latency.record(us);
  ch.queries[6].completed = 1;
  ch.queries[6].latency.record(std::uint64_t{40000});
  ch.queries[1].failed = 1;
  ch.queries[21].cancelled = 1;
  v.ch = ch;
  return v;
}

TEST(metrics_ch_render, EachQueryHasItsCountersLatencyAndTheRunItsQueriesPerHour) {
  const std::string page = tpcc::metrics::render(streams_view());
  EXPECT_NE(page.find("# TYPE shoal_tpcc_ch_queries_total counter\n"), std::string::npos);
  EXPECT_NE(page.find("# TYPE shoal_tpcc_ch_query_latency_seconds histogram\n"), std::string::npos);
  const std::string q = R"(shoal_tpcc_ch_queries_total{query=)";
  EXPECT_EQ(sample_value(page, q + R"("Q1",outcome="completed"})"), 3);
  EXPECT_EQ(sample_value(page, q + R"("Q2",outcome="failed"})"), 1);
  EXPECT_EQ(sample_value(page, q + R"("Q22",outcome="cancelled"})"), 1);
  EXPECT_EQ(sample_value(page, q + R"("Q22",outcome="completed"})"), 0);
  const std::string b = R"(shoal_tpcc_ch_query_latency_seconds_bucket{query="Q1",le=)";
  EXPECT_EQ(sample_value(page, b + R"("0.002"})"), 1);
  EXPECT_EQ(sample_value(page, b + R"("0.005"})"), 2);
  EXPECT_EQ(sample_value(page, b + R"("1"})"), 2);
  EXPECT_EQ(sample_value(page, b + R"("2"})"), 3);
  EXPECT_EQ(sample_value(page, b + R"("+Inf"})"), 3);
  EXPECT_EQ(sample_value(page, R"(shoal_tpcc_ch_query_latency_seconds_count{query="Q7"})"), 1);
  const auto sum = sample_value(page, R"(shoal_tpcc_ch_query_latency_seconds_sum{query="Q1"})");
  EXPECT_NEAR(sum.value_or(-1), 1.505, 1e-9) << page;
  EXPECT_EQ(sample_value(page, "shoal_tpcc_ch_streams"), 1);
  EXPECT_EQ(sample_value(page, "shoal_tpcc_ch_active_streams"), 1);
  // Four completed in 90 measured seconds: 160 an hour.
  EXPECT_NEAR(sample_value(page, "shoal_tpcc_ch_queries_per_hour").value_or(-1), 160, 1e-9);
  EXPECT_EQ(tpcc::testing::format_problems(page), std::vector<std::string>{});
}

TEST(metrics_ch_render, AScheduleStepWithoutStreamsShowsNoneActiveOfTheRunsStreams) {
  run_view v = streams_view();
  v.ch->active_streams = 0;  // a --schedule step with streams=0
  std::string page = tpcc::metrics::render(v);
  EXPECT_EQ(sample_value(page, "shoal_tpcc_ch_streams"), 1);
  EXPECT_EQ(sample_value(page, "shoal_tpcc_ch_active_streams"), 0);
  EXPECT_EQ(tpcc::testing::format_problems(page), std::vector<std::string>{});
  v.ch->active_streams = -1;  // not known: no sample rather than a wrong one
  page = tpcc::metrics::render(v);
  EXPECT_EQ(page.find("shoal_tpcc_ch_active_streams"), std::string::npos);
}

TEST(metrics_ch_render, WithoutStreamsThePageHasNoAnalyticFamily) {
  run_view v = streams_view();
  v.ch.reset();
  const std::string page = tpcc::metrics::render(v);
  EXPECT_EQ(page.find("shoal_tpcc_ch_"), std::string::npos) << page;
}

}  // namespace
