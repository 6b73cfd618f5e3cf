// SPDX-License-Identifier: Apache-2.0
// tests/app/report/csv_test.cpp: the series as CSV: one row per interval and type, counts and
// percentiles of each interval, empty cells where an interval completed nothing.
#include "report/csv.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "sample_run.hpp"

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    EXPECT_TRUE(line.ends_with("\r")) << "RFC 4180 line ends: " << line;
    out.push_back(line.substr(0, line.size() - 1));
  }
  return out;
}

std::size_t fields(const std::string& line) {
  return static_cast<std::size_t>(std::count(line.begin(), line.end(), ',')) + 1;
}

TEST(csv_series, OneRowPerIntervalAndTypeWithItsCountsAndPercentiles) {
  const tpcc::run::run_result r = tpcc::testing::sample_run(30, 1.0);
  const std::vector<std::string> lines = lines_of(tpcc::report::format_csv(r));
  ASSERT_EQ(lines.size(), 1 + 5 * r.series.size());
  EXPECT_EQ(lines[0],
            "start_s,end_s,phase,type,committed,retried_committed,rolled_back,"
            "failed_retries_exhausted,failed,lost,abandoned,completed,failures,retries,p50_ms,"
            "p90_ms,p99_ms,max_ms,tpmc,tpm_total");
  for (const std::string& line : lines) EXPECT_EQ(fields(line), fields(lines[0])) << line;
  const tpcc::stats::interval_kind& first = r.series[0].kinds[0];
  const auto committed = first.outcomes[tpcc::stats::txn_outcome::committed];
  EXPECT_NE(lines[1].find(",New-Order," + std::to_string(committed) + ","), std::string::npos)
      << lines[1];
}

TEST(csv_series, AnIntervalThatCompletedNothingHasEmptyPercentiles) {
  tpcc::run::run_result r = tpcc::testing::sample_run(2, 1.0);
  r.series[0].kinds[1] = {};
  const std::vector<std::string> lines = lines_of(tpcc::report::format_csv(r));
  EXPECT_NE(lines[2].find(",0,0,0,,,,,"), std::string::npos) << lines[2];
}

// tpmC and tpmTotal of each interval: its completed New-Orders, and its completed transactions
// of every type, per minute of the interval (2 s here: x 30), on each of its rows.
TEST(csv_series, EachRowCarriesItsIntervalsTpmcAndTpmTotal) {
  tpcc::run::run_result r = tpcc::testing::sample_run(3, 2.0);
  for (auto& k : r.series[1].kinds) k.outcomes = {};
  r.series[1].kinds[0].outcomes[tpcc::stats::txn_outcome::committed] = 4;
  r.series[1].kinds[0].outcomes[tpcc::stats::txn_outcome::rolled_back] = 1;
  r.series[1].kinds[2].outcomes[tpcc::stats::txn_outcome::committed] = 2;
  r.series[1].kinds[3].outcomes[tpcc::stats::txn_outcome::failed] = 7;
  const std::vector<std::string> lines = lines_of(tpcc::report::format_csv(r));
  for (std::size_t row = 6; row <= 10; ++row) {
    EXPECT_TRUE(lines[row].ends_with(",150.00,210.00")) << lines[row];
  }
}

}  // namespace

namespace {

// The errors beside the series: one row each, a message with commas, quotes and a line break
// quoted as RFC 4180 asks, then the count past the cap.
TEST(csv_errors, OneRowPerDistinctErrorQuotedAsRfc4180Asks) {
  tpcc::run::run_result r;
  tpcc::stats::error_entry e;
  e.kind = tpcc::txn::kind::new_order;
  e.sqlstate = "P0001";
  e.outcome = "failed";
  e.statement = "no_update_stock";
  e.message = "no \"stock\", today\nsorry";
  e.count = 12;
  e.first = std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));
  e.last = e.first + std::chrono::seconds(5);
  r.errors.entries.push_back(e);
  r.errors.unlisted = 3;
  EXPECT_EQ(tpcc::report::format_errors_csv(r),
            "type,sqlstate,outcome,statement,message,count,first,last\r\n"
            "New-Order,P0001,failed,no_update_stock,\"no \"\"stock\"\", today\nsorry\",12,"
            "2023-11-14T22:13:20.000Z,2023-11-14T22:13:25.000Z\r\n"
            "unlisted,,,,,3,,\r\n");
  EXPECT_EQ(tpcc::report::errors_csv_path("out/run.csv"), "out/run.errors.csv");
  EXPECT_EQ(tpcc::report::errors_csv_path("series"), "series.errors.csv");
}

}  // namespace
