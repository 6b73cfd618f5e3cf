// SPDX-License-Identifier: Apache-2.0
// tests/app/report/endpoint_outage_test.cpp: an endpoint's outage from its series (the span of
// the intervals that lost transactions, the lost added up, its reconnects), its text, and the
// lines naming each endpoint that had one; none for an endpoint that lost nothing.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/endpoint_outage.hpp"

namespace {

using tpcc::run::endpoint_result;
using tpcc::stats::endpoint_interval;

endpoint_interval outage_interval(double from, double to, std::uint64_t lost) {
  endpoint_interval i;
  i.start_seconds = from;
  i.end_seconds = to;
  i.completed = 100;
  i.lost = lost;
  i.failed = lost;
  return i;
}

endpoint_result endpoint_losing(std::vector<std::uint64_t> lost_per_second) {
  endpoint_result e;
  e.target = "host=b";
  for (std::size_t s = 0; s < lost_per_second.size(); ++s) {
    e.series.push_back(
        outage_interval(static_cast<double>(s), static_cast<double>(s + 1), lost_per_second[s]));
  }
  e.sessions_replaced = 4;
  return e;
}

TEST(endpoint_outage, TheIntervalsThatLostTransactionsGiveTheSpanAndTheCount) {
  const tpcc::report::endpoint_outage o =
      tpcc::report::outage_of(endpoint_losing({0, 0, 3, 0, 2, 0}));
  EXPECT_TRUE(o.happened());
  EXPECT_EQ(o.lost, 5U);
  EXPECT_EQ(o.intervals, 2U);
  EXPECT_DOUBLE_EQ(o.from_seconds, 2.0);
  EXPECT_DOUBLE_EQ(o.to_seconds, 5.0);
  EXPECT_EQ(o.sessions_replaced, 4U);
  EXPECT_EQ(tpcc::report::outage_text(o),
            "OUTAGE: 5 transaction(s) lost between 2.0 s and 5.0 s of the run (2 interval(s)), 4 "
            "session(s) replaced");
}

TEST(endpoint_outage, AnEndpointThatLostNothingHasNoneEvenWithReconnects) {
  const tpcc::report::endpoint_outage o = tpcc::report::outage_of(endpoint_losing({0, 0, 0}));
  EXPECT_FALSE(o.happened());
  EXPECT_EQ(o.sessions_replaced, 4U);
  EXPECT_EQ(tpcc::report::outage_text(o), "");
}

TEST(endpoint_outage, OnlyTheEndpointsThatLostTransactionsAreNamed) {
  tpcc::run::run_result r;
  r.endpoints = {endpoint_losing({0, 0}), endpoint_losing({0, 1}), endpoint_losing({0, 0})};
  r.endpoints[1].target = "host=c";
  const std::vector<std::string> lines = tpcc::report::endpoint_outages(r);
  ASSERT_EQ(lines.size(), 1U);
  EXPECT_EQ(lines[0].rfind("endpoint 2/3 (host=c): OUTAGE: 1 transaction(s) lost", 0), 0U)
      << lines[0];
  EXPECT_TRUE(tpcc::report::endpoint_outages(tpcc::run::run_result{}).empty());
}

}  // namespace
