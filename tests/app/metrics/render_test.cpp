// SPDX-License-Identifier: Apache-2.0
// tests/app/metrics/render_test.cpp: the exposition page of a known run_view: names, labels,
// cumulative buckets with +Inf == _count, the gauges the dashboard computes, escaping.
#include "metrics/render.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <limits>
#include <string>

#include "metrics/exposition.hpp"
#include "page_check.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::metrics::run_view;
using tpcc::stats::txn_outcome;
using tpcc::testing::format_problems;
using tpcc::testing::sample_value;

constexpr std::size_t new_order = 0;  // txn::index(kind::new_order)

// A run 70 s in: 10 s of warm-up, 60 s measured; known counts and response times.
run_view measuring_view() {
  run_view v;
  v.now = tpcc::stats::phase::measuring;
  v.totals.emplace();
  auto& no = v.totals->kinds[new_order];
  no.outcomes[txn_outcome::committed] = 5;
  no.outcomes[txn_outcome::rolled_back] = 1;
  no.outcomes[txn_outcome::lost] = 2;
  no.retries = 3;
  for (const auto d : {500us, 3000us, 3000us, 70000us, 2000000us, 100000000us}) {
    no.response.record(std::chrono::duration_cast<std::chrono::nanoseconds>(d));
  }
  tpcc::figures::run_screen s;
  s.view.now = v.now;
  s.view.elapsed_seconds = 70;
  s.view.warmup_seconds = 10;
  s.view.measure_seconds = 120;
  s.view.warehouses = 2;
  s.view.terminals = 20;
  s.view.window.window_start = tpcc::stats::clock::time_point(10s);
  s.view.window.window_end = tpcc::stats::clock::time_point(130s);
  s.view.window.kinds[new_order].outcomes[txn_outcome::committed] = 3;
  s.view.window.kinds[tpcc::txn::index(tpcc::txn::kind::payment)].outcomes[txn_outcome::committed] =
      4;
  tpcc::stats::interval_sample last;
  last.start_seconds = 69;
  last.end_seconds = 70;
  last.client.workers = {{.busy = 0.25}, {.busy = 0.5}};
  last.client.lateness_p99_us = 2000;
  last.client.queue_delay_p99_us = 150;
  last.client.cpu_seconds = 0.75;
  last.client.deliveries_queued = 4;
  last.client.pool_size = 16;
  last.client.pool_in_use = 5;
  s.view.last = last;
  v.screen = s;
  return v;
}

double value(const std::string& page, const std::string& series) {
  const auto v = sample_value(page, series);
  EXPECT_TRUE(v.has_value()) << "no sample " << series << " in\n" << page;
  return v.value_or(-1);
}

TEST(metrics_render, CountersPerTypeAndOutcomeAndRetries) {
  const std::string page = tpcc::metrics::render(measuring_view());
  EXPECT_NE(page.find("# TYPE shoal_tpcc_transactions_total counter\n"), std::string::npos);
  EXPECT_NE(page.find("# HELP shoal_tpcc_transactions_total "), std::string::npos);
  const std::string no = R"(shoal_tpcc_transactions_total{type="New-Order",outcome=)";
  EXPECT_EQ(value(page, no + R"("committed"})"), 5);
  EXPECT_EQ(value(page, no + R"("rolled_back"})"), 1);
  EXPECT_EQ(value(page, no + R"("lost"})"), 2);
  EXPECT_EQ(value(page, no + R"("abandoned"})"), 0);
  EXPECT_EQ(value(page, R"(shoal_tpcc_transactions_total{type="Stock-Level",outcome="failed"})"),
            0);
  EXPECT_EQ(value(page, R"(shoal_tpcc_retries_total{type="New-Order"})"), 3);
  EXPECT_EQ(value(page, R"(shoal_tpcc_measured_transactions_total{type="New-Order",)"
                        R"(outcome="committed"})"),
            3);
}

TEST(metrics_render, HistogramBucketsAreCumulativeSecondsEndingAtTheCount) {
  const std::string page = tpcc::metrics::render(measuring_view());
  EXPECT_NE(page.find("# TYPE shoal_tpcc_response_time_seconds histogram\n"), std::string::npos);
  const std::string b = R"(shoal_tpcc_response_time_seconds_bucket{type="New-Order",le=)";
  EXPECT_EQ(value(page, b + R"("0.0002"})"), 0);
  EXPECT_EQ(value(page, b + R"("0.001"})"), 1);  // 0.5 ms
  EXPECT_EQ(value(page, b + R"("0.005"})"), 3);  // and twice 3 ms
  EXPECT_EQ(value(page, b + R"("0.05"})"), 3);
  EXPECT_EQ(value(page, b + R"("0.1"})"), 4);  // 70 ms
  EXPECT_EQ(value(page, b + R"("2"})"), 5);    // 2 s, on the bound
  EXPECT_EQ(value(page, b + R"("50"})"), 5);   // 100 s is beyond every bound
  EXPECT_EQ(value(page, b + R"("+Inf"})"), 6);
  EXPECT_EQ(value(page, R"(shoal_tpcc_response_time_seconds_count{type="New-Order"})"), 6);
  EXPECT_NEAR(value(page, R"(shoal_tpcc_response_time_seconds_sum{type="New-Order"})"), 102.0765,
              1e-6);
  EXPECT_EQ(value(page, R"(shoal_tpcc_response_time_seconds_bucket{type="Payment",le="+Inf"})"), 0);
  EXPECT_EQ(format_problems(page), std::vector<std::string>{});
}

TEST(metrics_render, GaugesAreTheDashboardsFigures) {
  const std::string page = tpcc::metrics::render(measuring_view());
  EXPECT_EQ(value(page, R"(shoal_tpcc_phase{phase="measuring"})"), 1);
  EXPECT_EQ(value(page, R"(shoal_tpcc_phase{phase="warm-up"})"), 0);
  EXPECT_EQ(value(page, "shoal_tpcc_measured_seconds"), 60);
  EXPECT_EQ(value(page, "shoal_tpcc_tpmc"), 3);      // 3 New-Orders in one minute
  EXPECT_EQ(value(page, "shoal_tpcc_tpmtotal"), 7);  // and 4 Payments
  EXPECT_NEAR(value(page, "shoal_tpcc_efficiency_ratio"), 3 / (12.86 * 2), 1e-12);
  EXPECT_EQ(value(page, "shoal_tpcc_warehouses"), 2);
  EXPECT_EQ(value(page, "shoal_tpcc_terminals"), 20);
  EXPECT_EQ(value(page, "shoal_tpcc_client_timer_lateness_p99_seconds"), 0.002);
  EXPECT_EQ(value(page, "shoal_tpcc_client_ready_queue_delay_p99_seconds"), 0.00015);
  EXPECT_EQ(value(page, R"(shoal_tpcc_worker_busy_ratio{worker="1"})"), 0.5);
  EXPECT_EQ(value(page, "shoal_tpcc_client_cpu_seconds_per_second"), 0.75);
  EXPECT_EQ(value(page, "shoal_tpcc_deliveries_queued"), 4);
  EXPECT_EQ(value(page, "shoal_tpcc_sessions_in_use"), 5);
  EXPECT_EQ(value(page, "shoal_tpcc_client_bound"), 0);
}

TEST(metrics_render, WithoutWaitsThereIsNoEfficiency) {
  run_view v = measuring_view();
  tpcc::figures::run_screen no_waits = v.screen.value_or(tpcc::figures::run_screen{});
  no_waits.wait_scale = 0;
  v.screen = no_waits;
  const std::string page = tpcc::metrics::render(v);
  EXPECT_EQ(page.find("shoal_tpcc_efficiency_ratio"), std::string::npos);
  EXPECT_EQ(format_problems(page), std::vector<std::string>{});
}

TEST(metrics_render, BeforeTheTerminalsStartOnlyThePhaseIsShown) {
  const std::string page = tpcc::metrics::render(run_view{});
  EXPECT_EQ(value(page, R"(shoal_tpcc_phase{phase="starting"})"), 1);
  EXPECT_EQ(page.find("shoal_tpcc_transactions_total"), std::string::npos);
  EXPECT_EQ(page.find("shoal_tpcc_tpmc"), std::string::npos);
  EXPECT_EQ(format_problems(page), std::vector<std::string>{});
}

TEST(metrics_exposition, LabelValuesAndHelpAreEscaped) {
  EXPECT_EQ(tpcc::metrics::escape_label_value("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  EXPECT_EQ(tpcc::metrics::escape_help("say \"x\"\\\n"), "say \"x\"\\\\\\n");
  tpcc::metrics::exposition e;
  e.family("x_total", tpcc::metrics::metric_type::counter, "two\nlines");
  e.sample("x_total", {{"path", "C:\\tmp\n\"q\""}}, 1.5);
  EXPECT_EQ(e.text(),
            "# HELP x_total two\\nlines\n# TYPE x_total counter\n"
            "x_total{path=\"C:\\\\tmp\\n\\\"q\\\"\"} 1.5\n");
}

TEST(metrics_exposition, ValuesReadBackExactly) {
  EXPECT_EQ(tpcc::metrics::format_value(0), "0");
  EXPECT_EQ(tpcc::metrics::format_value(12), "12");
  EXPECT_EQ(tpcc::metrics::format_value(0.001), "0.001");
  constexpr double inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(tpcc::metrics::format_value(inf), "+Inf");
  EXPECT_EQ(tpcc::metrics::format_value(-inf), "-Inf");
  EXPECT_EQ(tpcc::metrics::format_value(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(tpcc::metrics::format_value(0.0002), "0.0002");
  EXPECT_EQ(tpcc::metrics::format_value(1e-9), "1e-09");
  EXPECT_EQ(tpcc::metrics::format_value(1e22), "1e+22");
  for (const double v : {1.0 / 3, 1e-7 / 3, 123456789.123, 2.5e-300, 1.7e308}) {
    EXPECT_EQ(std::stod(tpcc::metrics::format_value(v)), v) << v;
  }
}

}  // namespace
