// SPDX-License-Identifier: Apache-2.0
// tests/app/metrics/endpoint_render_test.cpp: each endpoint of a run over several on the
// exposition page: its counts under an `endpoint` label, its quantiles, the target escaped, and
// nothing at all with one endpoint.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "metrics/render.hpp"
#include "page_check.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::metrics::run_view;
using tpcc::stats::txn_outcome;
using tpcc::testing::format_problems;
using tpcc::testing::sample_value;

run_view two_endpoints() {
  run_view v;
  v.now = tpcc::stats::phase::measuring;
  tpcc::run::endpoint_totals a{.target = "host=a application_name=x", .totals = {}, .pool = {}};
  a.totals.kinds[0].outcomes[txn_outcome::committed] = 7;
  a.totals.window[0].outcomes[txn_outcome::committed] = 4;
  for (int i = 0; i < 10; ++i) a.totals.kinds[0].response.record(2ms);
  tpcc::run::endpoint_totals b{.target = "host=\"b\"", .totals = {}, .pool = {}};
  b.totals.kinds[1].outcomes[txn_outcome::lost] = 3;
  b.pool = {.size = 4, .in_use = 3, .waiting = 2, .replaced = 5};
  v.endpoints = {a, b};
  return v;
}

TEST(endpoint_render, EachEndpointsCountsCarryItsTargetAsTheEndpointLabel) {
  const std::string page = tpcc::metrics::render(two_endpoints());
  EXPECT_EQ(format_problems(page), std::vector<std::string>{}) << page;
  EXPECT_EQ(
      sample_value(
          page,
          R"(shoal_tpcc_endpoint_transactions_total{endpoint="host=a application_name=x",type="New-Order",outcome="committed"})"),
      7)
      << page;
  EXPECT_EQ(
      sample_value(
          page,
          R"(shoal_tpcc_endpoint_measured_transactions_total{endpoint="host=a application_name=x",type="New-Order",outcome="committed"})"),
      4)
      << page;
  EXPECT_EQ(
      sample_value(
          page,
          R"(shoal_tpcc_endpoint_transactions_total{endpoint="host=\"b\"",type="Payment",outcome="lost"})"),
      3)
      << page;
  const auto p90 = sample_value(
      page,
      R"(shoal_tpcc_endpoint_response_time_seconds{endpoint="host=a application_name=x",type="New-Order",percentile="p90"})");
  ASSERT_TRUE(p90.has_value()) << page;
  EXPECT_NEAR(*p90, 0.002, 0.0002);  // the histogram's bucket edge: within 3.1 %
  // b completed nothing: no quantile of it.
  EXPECT_EQ(page.find(R"(endpoint_response_time_seconds{endpoint="host=\"b\"")"),
            std::string::npos);
}

TEST(endpoint_render, EachEndpointsPoolIsUnderItsEndpointLabel) {
  const std::string page = tpcc::metrics::render(two_endpoints());
  EXPECT_EQ(sample_value(page, R"(shoal_tpcc_endpoint_sessions{endpoint="host=\"b\""})"), 4)
      << page;
  EXPECT_EQ(sample_value(page, R"(shoal_tpcc_endpoint_sessions_in_use{endpoint="host=\"b\""})"), 3);
  EXPECT_EQ(sample_value(page, R"(shoal_tpcc_endpoint_session_waiters{endpoint="host=\"b\""})"), 2);
  EXPECT_EQ(
      sample_value(page, R"(shoal_tpcc_endpoint_sessions_replaced_total{endpoint="host=\"b\""})"),
      5);
  EXPECT_EQ(
      sample_value(page, R"(shoal_tpcc_endpoint_sessions{endpoint="host=a application_name=x"})"),
      0);
}

TEST(endpoint_render, OneEndpointAddsNothing) {
  run_view v;
  v.now = tpcc::stats::phase::measuring;
  EXPECT_EQ(tpcc::metrics::render(v).find("shoal_tpcc_endpoint_"), std::string::npos);
}

}  // namespace
