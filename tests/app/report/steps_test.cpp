// SPDX-License-Identifier: Apache-2.0
// tests/app/report/steps_test.cpp: a schedule's per-step figures and its knee, from interval
// series built by hand: the settle time left out of each step's window, the counts, rates and
// percentiles of the intervals inside it, the knee where throughput stops growing or where a
// p90 limit is crossed (never at a partial step), and the summary's and the JSON's steps.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/json.hpp"
#include "report/steps.hpp"
#include "report/summary.hpp"
#include "sample_result.hpp"

namespace {

using tpcc::run::run_result;
using tpcc::run::step_window;
using tpcc::txn::kind;

// One interval of `seconds` from `start` in which `new_orders` New-Orders committed, each
// answered in `response_us`.
tpcc::stats::interval_sample interval_of(double start, double seconds, std::uint64_t new_orders,
                                         std::uint64_t response_us) {
  tpcc::stats::interval_sample s;
  s.start_seconds = start;
  s.end_seconds = start + seconds;
  s.in = tpcc::stats::phase::measuring;
  auto& k = s.kinds[tpcc::txn::index(kind::new_order)];
  k.outcomes[tpcc::stats::txn_outcome::committed] = new_orders;
  tpcc::stats::histogram h;
  h.record(response_us, new_orders);
  k.response = tpcc::stats::sparse_histogram::of(h);
  return s;
}

// Steps of 4 s from 10 s (settle 1 s each); per step its New-Orders a second in its three
// measured intervals (alternately +-5), its response time, and 10,000 a second in the settle
// interval, which must never count.
run_result scheduled(const std::vector<std::uint64_t>& per_second,
                     const std::vector<std::uint64_t>& response_us, bool last_partial = false) {
  run_result r = tpcc::testing::compliant();
  r.series.clear();
  for (std::size_t i = 0; i < per_second.size(); ++i) {
    const double start = 10.0 + 4.0 * static_cast<double>(i);
    r.config.schedule.push_back({static_cast<double>(per_second[i]) * 60, std::chrono::seconds(4)});
    step_window w{.rate_tpm = static_cast<double>(per_second[i]) * 60,
                  .start_seconds = start,
                  .window_start = start + 1,
                  .end_seconds = start + 4,
                  .partial = last_partial && i + 1 == per_second.size()};
    r.steps.push_back(w);
    r.series.push_back(interval_of(start, 1, 10000, 1000));
    for (int j = 1; j < 4; ++j) {
      const std::uint64_t n = per_second[i] + (j % 2 == 0 ? 5 : 0) - (j == 3 ? 5 : 0);
      r.series.push_back(interval_of(start + j, 1, n, response_us[i]));
    }
  }
  return r;
}

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

TEST(schedule_steps, APartialStepIsShownButNeverJudged) {
  const auto steps = tpcc::report::step_figures_of(scheduled({100, 200, 200}, {1, 1, 1}, true));
  ASSERT_EQ(steps.size(), 3U);
  EXPECT_TRUE(steps[2].window.partial);
  EXPECT_FALSE(tpcc::report::find_knee(steps, 0).step.has_value());
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
  const auto plain = nlohmann::json::parse(
      tpcc::report::to_json_text(tpcc::testing::compliant(), {"sim:latency=1ms", "t"}));
  EXPECT_FALSE(plain.contains("steps"));  // only with a schedule
}

}  // namespace
