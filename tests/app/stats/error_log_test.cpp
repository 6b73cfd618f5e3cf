// SPDX-License-Identifier: Apache-2.0
// tests/app/stats/error_log_test.cpp: each distinct error shown once, the rest counted.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "stats/error_log.hpp"

namespace {

using tpcc::driver::outcome;
using tpcc::driver::outcome_kind;
using tpcc::stats::error_log;
namespace txn = tpcc::txn;

outcome refused(const char* state, const char* message, std::string_view statement) {
  outcome o = outcome::make(outcome_kind::failed, state, message);
  o.statement = statement;
  return o;
}

TEST(error_log, TheFirstOfEachDistinctErrorIsShownOnceWithWhatAndWhere) {
  std::vector<std::string> lines;
  error_log log([&lines](const std::string& l) { lines.push_back(l); }, std::chrono::hours(1));
  const outcome frozen = refused("SF001", "stock is frozen", "no_update_stock");
  for (int i = 0; i < 100; ++i) log.record(txn::kind::new_order, frozen);
  log.record(txn::kind::payment, frozen);  // another type: another error
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0],
            "error (first of its kind): New-Order: failed, SQLSTATE SF001, in no_update_stock: "
            "stock is frozen");
  EXPECT_EQ(log.distinct(), 2U);
  log.flush();  // the 99 repeats, summed up
  ASSERT_EQ(lines.size(), 3U);
  EXPECT_EQ(lines[2], "errors: 99 more since the last report (New-Order SQLSTATE SF001 x 99)");
  log.flush();  // nothing new: nothing said
  EXPECT_EQ(lines.size(), 3U);
}

TEST(error_log, RepeatsAreSummedUpAtMostOncePerPeriod) {
  std::vector<std::string> lines;
  error_log log([&lines](const std::string& l) { lines.push_back(l); }, std::chrono::seconds(10));
  const outcome gone = outcome::make(outcome_kind::connection_lost, "", "server closed");
  const auto t0 = error_log::clock::now();
  log.record(txn::kind::delivery, gone, t0);  // shown at once
  log.record(txn::kind::delivery, gone, t0 + std::chrono::seconds(1));
  log.record(txn::kind::delivery, gone, t0 + std::chrono::seconds(2));
  ASSERT_EQ(lines.size(), 1U);  // within the period: counted only
  log.record(txn::kind::delivery, gone, t0 + std::chrono::seconds(11));  // with the summary
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0], "error (first of its kind): Delivery: connection lost: server closed");
  EXPECT_EQ(lines[1], "errors: 3 more since the last report (Delivery connection lost x 3)");
}

TEST(error_log, PastTheDistinctLimitErrorsAreCountedNotPrinted) {
  std::vector<std::string> lines;
  error_log log([&lines](const std::string& l) { lines.push_back(l); }, std::chrono::hours(1), 3);
  for (int key = 0; key < 10; ++key) {
    log.record(txn::kind::new_order,
               refused("23505", ("duplicate key " + std::to_string(key)).c_str(), "insert"));
  }
  EXPECT_EQ(lines.size(), 3U);
  EXPECT_EQ(log.distinct(), 3U);
  log.flush();
  ASSERT_EQ(lines.size(), 4U);
  EXPECT_EQ(lines[3], "errors: 7 more since the last report (New-Order SQLSTATE 23505 x 7)");
}

// The list the results carry: one entry per (type, SQLSTATE, statement) with the first message,
// the count and the first and last time on the wall clock; past the cap, counted apart.
TEST(error_log, TheListHasEachDistinctErrorWithItsCountAndTimes) {
  error_log log(nullptr, std::chrono::hours(1), 3);
  const auto t0 = error_log::clock::now();
  const auto wall = std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));
  for (int key = 0; key < 5; ++key) {  // five messages of one statement: one entry, 3 listed
    log.record(txn::kind::new_order,
               refused("23505", ("duplicate key " + std::to_string(key)).c_str(), "insert"),
               t0 + std::chrono::seconds(key));
  }
  log.record(txn::kind::new_order, refused("23505", "duplicate key 1", "insert"),
             t0 + std::chrono::seconds(9));
  const tpcc::stats::error_list list = log.list(t0, wall);
  ASSERT_EQ(list.entries.size(), 1U);
  const tpcc::stats::error_entry& e = list.entries[0];
  EXPECT_EQ(e.sqlstate, "23505");
  EXPECT_EQ(e.statement, "insert");
  EXPECT_EQ(e.message, "duplicate key 0");
  EXPECT_EQ(e.outcome, "failed");
  EXPECT_EQ(e.count, 4U);  // keys 0, 1, 2 and the repeat of 1
  EXPECT_EQ(e.first, wall);
  EXPECT_EQ(e.last, wall + std::chrono::seconds(9));
  EXPECT_EQ(list.unlisted, 2U);  // keys 3 and 4, past the cap of 3 distinct
}

}  // namespace
