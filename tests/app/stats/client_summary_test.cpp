// SPDX-License-Identifier: Apache-2.0
// tests/app/stats/client_summary_test.cpp: the client's totals over the measurement interval
// from the series, and the client-bound verdict naming each figure.
#include "stats/client_summary.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace {

using namespace std::chrono_literals;
using tpcc::stats::client_totals;
using tpcc::stats::interval_sample;

interval_sample sample(double start, double end, double cpu, double busy0, double busy1,
                       std::uint64_t rss) {
  interval_sample s;
  s.start_seconds = start;
  s.end_seconds = end;
  s.client.cpu_seconds = cpu;
  s.client.rss_bytes = rss;
  s.client.workers.resize(2);
  s.client.workers[0].busy = busy0;
  s.client.workers[1].busy = busy1;
  return s;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(client_summary, BusyAndCpuAreWeightedByOverlapWithTheMeasurementInterval) {
  // Intervals [0,1) [1,2) [2,3); the measurement interval is [1.5, 3).
  const std::vector<interval_sample> series{sample(0, 1, 1.0, 0.9, 0.9, 100),
                                            sample(1, 2, 0.4, 0.2, 0.6, 300),
                                            sample(2, 3, 0.8, 0.5, 0.0, 400)};
  client_totals t;
  t.rss_before_terminals = 100;
  tpcc::stats::summarize_series(t, series, 1.5, 3.0, 50);
  ASSERT_EQ(t.worker_busy.size(), 2U);
  EXPECT_NEAR(t.worker_busy[0], (0.2 * 0.5 + 0.5 * 1.0) / 1.5, 1e-9);
  EXPECT_NEAR(t.worker_busy[1], (0.6 * 0.5 + 0.0 * 1.0) / 1.5, 1e-9);
  EXPECT_NEAR(t.measure_cpu_seconds, 0.4 * 0.5 + 0.8, 1e-9);
  // The first interval reaching the measurement interval is [1,2): RSS 300 then.
  EXPECT_EQ(t.rss_with_terminals, 300U);
  EXPECT_DOUBLE_EQ(t.bytes_per_terminal, 200.0 / 50.0);
}

TEST(client_summary, LatenessAboveTheLimitMarksTheResultClientBoundNamingIt) {
  client_totals t;
  for (int i = 0; i < 100; ++i) t.timer_lateness.record(std::chrono::nanoseconds(80ms));
  for (int i = 0; i < 100; ++i) t.queue_delay.record(std::chrono::nanoseconds(10us));
  t.worker_busy = {0.2, 0.3};
  tpcc::stats::judge_client(t, 50ms);
  EXPECT_TRUE(t.client_bound);
  EXPECT_TRUE(contains(t.client_bound_reason, "timer lateness p99")) << t.client_bound_reason;
  EXPECT_TRUE(contains(t.client_bound_reason, "50.0 ms")) << t.client_bound_reason;
  EXPECT_FALSE(contains(t.client_bound_reason, "ready-queue")) << t.client_bound_reason;
}

TEST(client_summary, QueueDelayAndASaturatedWorkerAreEachNamed) {
  client_totals t;
  t.timer_lateness.record(std::chrono::nanoseconds(100us));
  for (int i = 0; i < 10; ++i) t.queue_delay.record(std::chrono::nanoseconds(70ms));
  t.worker_busy = {0.5, 0.97};
  tpcc::stats::judge_client(t, 50ms);
  EXPECT_TRUE(t.client_bound);
  EXPECT_TRUE(contains(t.client_bound_reason, "ready-queue delay p99")) << t.client_bound_reason;
  EXPECT_TRUE(contains(t.client_bound_reason, "worker 1 busy 97 %")) << t.client_bound_reason;
  EXPECT_FALSE(contains(t.client_bound_reason, "worker 0")) << t.client_bound_reason;
}

TEST(client_summary, AClientWithinItsLimitsIsNotClientBound) {
  client_totals t;
  t.client_bound = true;  // judged anew
  t.client_bound_reason = "stale";
  for (int i = 0; i < 1000; ++i) t.timer_lateness.record(std::chrono::nanoseconds(2ms));
  t.timer_lateness.record(std::chrono::nanoseconds(900ms));  // one outlier, above the p99
  t.queue_delay.record(std::chrono::nanoseconds(1ms));
  t.worker_busy = {0.95, 0.1};
  tpcc::stats::judge_client(t, 50ms);
  EXPECT_FALSE(t.client_bound);
  EXPECT_TRUE(t.client_bound_reason.empty());
  // Without probe samples in the measurement interval there is nothing to judge.
  client_totals empty;
  tpcc::stats::judge_client(empty, 1us);
  EXPECT_FALSE(empty.client_bound);
}

}  // namespace
