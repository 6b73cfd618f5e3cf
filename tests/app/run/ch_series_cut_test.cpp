// SPDX-License-Identifier: Apache-2.0
// tests/app/run/ch_series_cut_test.cpp: the analytic side's interval series (run/ch_series.hpp)
// cut from monotonic progress: each interval holds what ended since the previous cut, its p90
// from the completed queries of that interval only, and the intervals add up to the last read.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "run/ch_series.hpp"
#include "stats/histogram.hpp"

namespace {

using tpcc::run::ch_interval;
using tpcc::run::ch_progress;
using tpcc::run::ch_series;

TEST(ch_series_cut, EachIntervalHoldsWhatEndedSinceThePreviousCutAndItsOwnP90) {
  ch_progress now;  // what the fake streams have ended so far
  ch_series series([&now] { return now; });
  now.completed = 10;
  now.latency.record(1000, 10);  // ten fast queries in the first interval
  now.failed = 1;
  series.cut(1.0);
  series.cut(2.0);  // nothing ended
  now.completed = 12;
  now.latency.record(500000, 2);  // two slow ones in the third
  now.cancelled = 3;
  series.cut(3.5);
  const std::vector<ch_interval> cut = series.take();
  ASSERT_EQ(cut.size(), 3U);
  EXPECT_DOUBLE_EQ(cut[0].start_seconds, 0.0);
  EXPECT_DOUBLE_EQ(cut[0].end_seconds, 1.0);
  EXPECT_EQ(cut[0].completed, 10U);
  EXPECT_EQ(cut[0].failed, 1U);
  const auto fast_edge = tpcc::stats::bucket::upper_edge(tpcc::stats::bucket::index_of(1000));
  EXPECT_EQ(cut[0].p90_us, fast_edge);
  EXPECT_EQ(cut[1].completed, 0U);
  EXPECT_EQ(cut[1].p90_us, 0U);  // none completed: no p90
  EXPECT_DOUBLE_EQ(cut[2].start_seconds, 2.0);
  EXPECT_DOUBLE_EQ(cut[2].end_seconds, 3.5);
  EXPECT_EQ(cut[2].completed, 2U);
  EXPECT_EQ(cut[2].cancelled, 3U);
  // The interval's own queries: the slow ones, not the first interval's fast ones.
  EXPECT_EQ(cut[2].p90_us, tpcc::stats::bucket::upper_edge(tpcc::stats::bucket::index_of(500000)));
  std::uint64_t completed = 0, failed = 0, cancelled = 0;
  for (const ch_interval& i : cut) {
    completed += i.completed;
    failed += i.failed;
    cancelled += i.cancelled;
  }
  EXPECT_EQ(completed, now.completed);
  EXPECT_EQ(failed, now.failed);
  EXPECT_EQ(cancelled, now.cancelled);
}

}  // namespace
