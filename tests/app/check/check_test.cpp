// SPDX-License-Identifier: Apache-2.0
// The consistency conditions (check/check.hpp) on a real SQLite file: a consistent dataset
// passes all twelve with the expected number of groups examined; each corruption of
// dataset.hpp fails exactly its condition, naming the offending rows; chunk sizes do not change
// results; progress, bad options, a database without tables, and condition 11's applicability.
#include "check/check.hpp"

#include <gtest/gtest.h>

#include <exception>
#include <filesystem>
#include <memory>
#include <regex>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <variant>
#include <vector>

#include "check/print.hpp"
#include "dataset.hpp"
#include "driver/open.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "support/running_pool.hpp"
#include "support/temp_dir.hpp"

namespace {

using shoal::task;
using tpcc::check::check_options;
using tpcc::check::condition_result;
using tpcc::driver::call;
using tpcc::driver::database;
namespace data = tpcc::check::testing;
using data::failing;
using data::opened;
using data::whole_dataset;

tpcc::driver::database_options sqlite_target(const std::string& path) {
  return {.target = "sqlite:" + path, .connections = 1};
}

struct run_record {
  std::vector<condition_result> results;
  std::vector<std::int64_t> progress;
  std::vector<tpcc::check::check_step> steps;
};

// Builds the dataset with `corrupt` applied (unless `build` is false), then checks it.
task<run_record> checked(shoal::thread_pool& pool, std::string path, std::vector<call> corrupt,
                         check_options options, bool build) {
  co_await pool.schedule();
  std::unique_ptr<database> db = co_await opened(sqlite_target(path));
  run_record record;
  auto note = [&record](std::int64_t done) { record.progress.push_back(done); };
  auto step = [&record](const tpcc::check::check_step& s) { record.steps.push_back(s); };
  std::exception_ptr failure;  // the database is closed before any failure is rethrown
  try {
    if (build) co_await data::build(*db, std::move(corrupt));
    record.results = co_await tpcc::check::check_consistency(*db, options, note, step);
  } catch (...) {
    failure = std::current_exception();
  }
  co_await db->close();
  if (failure) std::rethrow_exception(failure);
  co_return record;
}

// A temporary directory and a 2-worker pool for one test.
class scratch {
 public:
  scratch() = default;
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  ~scratch() = default;

  run_record check(std::vector<call> corrupt, check_options options = whole_dataset(),
                   bool build = true) {
    const std::string path = dir_.file("db" + std::to_string(++files_) + ".sqlite");
    return shoal::sync_wait(checked(workers_.pool, path, std::move(corrupt), options, build));
  }

 private:
  tpcc::testing::temp_dir dir_{"tpcc-check"};
  int files_ = 0;
  shoal::testing::running_pool workers_{2};  // stopped before the directory goes
};

// Corrupts district (1, 3) for `clause`; expects that condition alone to fail, naming exactly
// the offenders dataset.hpp expects.
void expect_only(int clause) {
  scratch t;
  const run_record run = t.check(data::corruption(clause, 1, 3));
  ASSERT_EQ(run.results.size(), 12u);
  const condition_result& broken = run.results[static_cast<std::size_t>(clause - 1)];
  EXPECT_EQ(failing(run.results), std::string(broken.clause) + " ") << format_results(run.results);
  EXPECT_FALSE(broken.passed);
  EXPECT_TRUE(broken.error.empty()) << broken.error;
  const std::vector<std::string> expected = data::expected_offenders(clause);
  EXPECT_EQ(broken.offending, static_cast<std::int64_t>(expected.size()));
  EXPECT_EQ(broken.offenders, expected);
  EXPECT_FALSE(tpcc::check::all_passed(run.results));
}

TEST(tpcc_check, ConsistentDatasetPassesEveryCondition) {
  scratch t;
  const run_record run = t.check({});
  ASSERT_EQ(run.results.size(), 12u);
  EXPECT_TRUE(tpcc::check::all_passed(run.results)) << format_results(run.results);
  const std::int64_t w = data::warehouses;
  const std::int64_t d = w * data::districts;
  const std::int64_t c = d * data::customers_per_district;
  const std::int64_t o = d * data::orders_per_district;
  const std::int64_t undelivered_districts = d;  // every district has NEW-ORDER rows
  const std::vector<std::int64_t> checked{
      w, d, undelivered_districts, d, o, o, d * data::lines_per_district, w, d, c, d, c};
  for (std::size_t i = 0; i < checked.size(); ++i) {
    EXPECT_EQ(run.results[i].clause, "3.3.2." + std::to_string(i + 1));
    EXPECT_TRUE(run.results[i].applicable);
    EXPECT_TRUE(run.results[i].passed) << run.results[i].clause;
    EXPECT_EQ(run.results[i].checked, checked[i]) << run.results[i].clause;
    EXPECT_EQ(run.results[i].offending, 0);
    EXPECT_TRUE(run.results[i].offenders.empty());
  }
}

TEST(tpcc_check, WarehouseYtdApartFromItsDistrictsFailsCondition1) { expect_only(1); }

TEST(tpcc_check, SkippedOrderIdFailsCondition2) { expect_only(2); }

TEST(tpcc_check, GapInNewOrdersFailsCondition3) { expect_only(3); }

TEST(tpcc_check, OrderLineWithoutOrderFailsCondition4) { expect_only(4); }

TEST(tpcc_check, CarrierOutOfStepWithNewOrderFailsCondition5) { expect_only(5); }

TEST(tpcc_check, LineMovedToAnotherOrderFailsCondition6) { expect_only(6); }

TEST(tpcc_check, LineDeliveredBeforeItsOrderFailsCondition7) { expect_only(7); }

TEST(tpcc_check, PaymentOutsideAnyDistrictFailsCondition8) { expect_only(8); }

TEST(tpcc_check, PaymentRecordedInAnotherDistrictFailsCondition9) { expect_only(9); }

TEST(tpcc_check, PaymentCreditedToAnotherCustomerFailsCondition10) { expect_only(10); }

TEST(tpcc_check, LostDeliveredOrderFailsCondition11) { expect_only(11); }

TEST(tpcc_check, YtdPaymentWithoutBalanceFailsCondition12) { expect_only(12); }

std::vector<call> scattered_corruptions() {
  std::vector<call> out;
  for (const auto& [clause, w, d] : {std::tuple{9, 1, 3}, std::tuple{9, 2, 5}, std::tuple{5, 1, 2},
                                     std::tuple{5, 2, 7}, std::tuple{12, 2, 1}}) {
    for (call& c : data::corruption(clause, w, d)) out.push_back(std::move(c));
  }
  return out;
}

void expect_same(const condition_result& a, const condition_result& b) {
  EXPECT_EQ(a.clause, b.clause);
  EXPECT_EQ(a.passed, b.passed) << a.clause;
  EXPECT_EQ(a.checked, b.checked) << a.clause;
  EXPECT_EQ(a.offending, b.offending) << a.clause;
  EXPECT_EQ(a.offenders, b.offenders) << a.clause;
}

TEST(tpcc_check, ChunkOfOneGivesTheSameResultsAsChunkOfTen) {
  scratch t;
  check_options by_one = whole_dataset(1);
  check_options by_ten = whole_dataset(10);
  by_one.max_offenders = by_ten.max_offenders = 3;
  const run_record one = t.check(scattered_corruptions(), by_one);
  const run_record ten = t.check(scattered_corruptions(), by_ten);
  ASSERT_EQ(one.results.size(), ten.results.size());
  for (std::size_t i = 0; i < one.results.size(); ++i) expect_same(one.results[i], ten.results[i]);
  EXPECT_EQ(failing(one.results), "3.3.2.5 3.3.2.9 3.3.2.12 ");
  const condition_result& nine = one.results[8];
  EXPECT_EQ(nine.offending, 4);  // (1,3), (1,4), (2,5), (2,6): the first 3 are kept
  ASSERT_EQ(nine.offenders.size(), 3u);
  EXPECT_EQ(nine.offenders[2].substr(0, 13), "W_ID=2 D_ID=5");
  EXPECT_EQ(one.progress, (std::vector<std::int64_t>{1, 2}));
  EXPECT_EQ(ten.progress, (std::vector<std::int64_t>{2}));
}

TEST(tpcc_check, ASubRangeChecksOnlyItsWarehouses) {
  scratch t;
  check_options second = whole_dataset();
  second.first_warehouse = 2;
  const run_record run = t.check(data::corruption(2, 1, 3), second);
  EXPECT_TRUE(tpcc::check::all_passed(run.results)) << format_results(run.results);
  EXPECT_EQ(run.results[0].checked, 1);
  EXPECT_EQ(run.results[1].checked, data::districts);
}

TEST(tpcc_check, UnknownPopulationMakesCondition11NotApplicable) {
  scratch t;
  check_options unknown = whole_dataset();
  unknown.population_delivered.reset();
  const run_record run = t.check(data::corruption(11, 1, 3), unknown);
  EXPECT_FALSE(run.results[10].applicable);
  EXPECT_EQ(run.results[10].checked, 0);
  EXPECT_TRUE(tpcc::check::all_passed(run.results)) << format_results(run.results);
  EXPECT_NE(format_results(run.results).find("N/A"), std::string::npos);
}

TEST(tpcc_check, DatabaseWithoutTablesReportsErrorsAndStops) {
  scratch t;
  const run_record run = t.check({}, whole_dataset(1), false);
  ASSERT_EQ(run.results.size(), 12u);
  for (const condition_result& r : run.results) {
    EXPECT_FALSE(r.passed) << r.clause;
    EXPECT_NE(r.error.find("no such table"), std::string::npos) << r.error;
  }
  EXPECT_TRUE(run.progress.empty());
  EXPECT_FALSE(tpcc::check::all_passed(run.results));
  EXPECT_NE(format_results(run.results).find("ERROR: failed: "), std::string::npos);
}

TEST(tpcc_check, NonsensicalOptionsAreRefusedByName) {
  scratch t;
  check_options backwards = whole_dataset();
  backwards.last_warehouse = 0;
  EXPECT_THROW(t.check({}, backwards, false), std::invalid_argument);
  check_options empty_chunk = whole_dataset(0);
  EXPECT_THROW(t.check({}, empty_chunk, false), std::invalid_argument);
}

}  // namespace

namespace {

// The verdict line of `clause` in the printed report.
std::string line_of(const std::string& report, std::string_view clause) {
  const auto start = report.find(std::string(clause) + " ");
  if (start == std::string::npos) return {};
  return report.substr(start, report.find('\n', start) - start);
}

TEST(tpcc_check_timing, EveryConditionThatRanHasADurationAndPrintsIt) {
  scratch t;
  const run_record run = t.check({}, whole_dataset(1));
  ASSERT_EQ(run.results.size(), 12u);
  const std::string report = format_results(run.results);
  for (const condition_result& r : run.results) {
    EXPECT_GT(r.duration.count(), 0) << r.clause;
    const std::string line = line_of(report, r.clause);
    EXPECT_TRUE(std::regex_search(line, std::regex(R"(PASS \(\d+ checked, [0-9.]+ (ms|s)\)$)")))
        << line;
  }
}

TEST(tpcc_check_timing, AConditionNotEvaluatedHasNoTime) {
  scratch t;
  check_options unknown = whole_dataset();
  unknown.population_delivered = std::nullopt;
  const run_record run = t.check({}, unknown);
  ASSERT_EQ(run.results.size(), 12u);
  EXPECT_FALSE(run.results[10].applicable);
  EXPECT_EQ(run.results[10].duration.count(), 0);
  EXPECT_TRUE(line_of(format_results(run.results), "3.3.2.11").ends_with(" N/A"));
  EXPECT_GT(run.results[11].duration.count(), 0);
  EXPECT_EQ(run.steps.size(), 11u);  // one chunk, eleven conditions evaluated
  EXPECT_EQ(run.steps.back().conditions, 11u);
}

TEST(tpcc_check_timing, StepsNameEachConditionOfEachChunkInClauseOrder) {
  scratch t;
  const run_record run = t.check({}, whole_dataset(1));
  ASSERT_EQ(run.steps.size(), 24u);  // two chunks of one warehouse, twelve conditions each
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    const tpcc::check::check_step& s = run.steps[i];
    const auto w = static_cast<std::int64_t>(i / 12 + 1);
    EXPECT_EQ(s.clause, "3.3.2." + std::to_string(i % 12 + 1));
    EXPECT_EQ(s.condition, i % 12 + 1);
    EXPECT_EQ(s.conditions, 12u);
    EXPECT_EQ(s.from, w);
    EXPECT_EQ(s.to, w);
    EXPECT_EQ(s.warehouses_done, w - 1);
    EXPECT_EQ(s.warehouses_total, data::warehouses);
  }
}

TEST(tpcc_check_timing, CheckingStopsAtTheFirstFailedStatementWhichAloneHasATime) {
  scratch t;
  const run_record run = t.check({}, whole_dataset(), false);  // no tables at all
  ASSERT_EQ(run.results.size(), 12u);
  EXPECT_EQ(run.steps.size(), 1u);
  EXPECT_GT(run.results[0].duration.count(), 0);
  for (std::size_t i = 1; i < run.results.size(); ++i) {
    EXPECT_EQ(run.results[i].duration.count(), 0) << run.results[i].clause;
  }
}

}  // namespace
