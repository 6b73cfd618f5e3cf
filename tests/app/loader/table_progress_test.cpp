// SPDX-License-Identifier: Apache-2.0
// Per-table load progress (loader/progress.hpp): on a fake clock, a table's state, rate and ETA;
// after a real 1-warehouse SQLite load, every table's count equals SELECT count(*) of it and
// its expectation equals estimate()'s; a load with nothing left expects nothing and shows
// every table done.
#include <gtest/gtest.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "driver/database.hpp"
#include "loader/estimate.hpp"
#include "loader/loader.hpp"
#include "loader/progress.hpp"
#include "loader_support.hpp"
#include "schema/apply.hpp"
#include "shoal/task.hpp"

namespace {

using shoal::task;
using tpcc::driver::database;
using tpcc::driver::outcome;
using tpcc::loader::load_progress;
using tpcc::loader::progress_snapshot;
using tpcc::loader::table_index;
using tpcc::loader::table_progress;
using tpcc::loader::table_state;
using clock = load_progress::clock;
using std::chrono::seconds;

const table_progress& table_of(const progress_snapshot& s, std::string_view name) {
  return s.tables.at(table_index(name));
}

TEST(load_tables, NameTheNineTablesInEstimateOrder) {
  const auto tables = tpcc::loader::estimate(1);
  ASSERT_EQ(tables.size(), tpcc::loader::table_count);
  for (std::size_t t = 0; t < tables.size(); ++t) {
    EXPECT_EQ(tpcc::loader::load_tables().at(t), tables[t].table);
    EXPECT_EQ(table_index(tables[t].table), t);
  }
  EXPECT_EQ(table_index("tpcc_meta"), tpcc::loader::table_count);
}

TEST(table_progress, BeforeTheStartEveryTableWaitsAndExpectsNothing) {
  const load_progress p;
  const progress_snapshot s = p.snapshot();
  for (const table_progress& t : s.tables) {
    EXPECT_FALSE(t.table.empty());
    EXPECT_EQ(t.state, table_state::waiting);
    EXPECT_EQ(t.rows_expected, 0);
    EXPECT_EQ(t.eta_seconds, -1);
  }
}

TEST(table_progress, ATableWaitsThenLoadsWithItsOwnRateAndEtaThenIsDone) {
  load_progress p;
  const clock::time_point t0 = clock::now();
  p.start(2, 0, false, t0);  // two warehouses and ITEM to load
  const std::size_t district = table_index("district");
  EXPECT_EQ(table_of(p.snapshot(t0), "district").state, table_state::waiting);
  EXPECT_EQ(table_of(p.snapshot(t0), "district").rows_expected, 20);

  p.table_started(district, t0 + seconds(10));
  p.add(district, 5, std::int64_t{1024} * 1024);
  const table_progress loading = table_of(p.snapshot(t0 + seconds(15)), "district");
  EXPECT_EQ(loading.state, table_state::loading);
  EXPECT_EQ(loading.rows, 5);
  EXPECT_DOUBLE_EQ(loading.rows_per_second, 1.0);  // 5 rows in the 5 s since its start
  EXPECT_DOUBLE_EQ(loading.mib_per_second, 0.2);
  EXPECT_DOUBLE_EQ(loading.eta_seconds, 15.0);  // 15 rows left at 1 row/s

  p.table_finished(district, t0 + seconds(16));  // warehouse 1 wrote its districts
  p.add(district, 15, 0);
  EXPECT_EQ(table_of(p.snapshot(t0 + seconds(18)), "district").state, table_state::loading);
  p.table_finished(district, t0 + seconds(20));  // and warehouse 2: every part
  const table_progress done = table_of(p.snapshot(t0 + seconds(100)), "district");
  EXPECT_EQ(done.state, table_state::done);
  EXPECT_EQ(done.eta_seconds, 0);
  EXPECT_DOUBLE_EQ(done.rows_per_second, 2.0);  // 20 rows from 10 s to 20 s, frozen since
  EXPECT_EQ(table_of(p.snapshot(t0 + seconds(100)), "stock").state, table_state::waiting);
}

TEST(table_progress, TablesOfPartsLoadedBeforeAreDone) {
  load_progress p;
  p.start(3, 3, true);  // a resumed load with nothing left
  const progress_snapshot s = p.snapshot();
  for (const table_progress& t : s.tables) {
    EXPECT_EQ(t.state, table_state::done) << t.table;
    EXPECT_EQ(t.rows_expected, 0) << t.table;
  }
  EXPECT_EQ(s.rows_expected, 0);
}

task<void> load_and_compare(std::string target) {
  std::unique_ptr<database> db = co_await tpcc::testing::opened(target, 1);
  tpcc::schema::init_report report;
  const outcome created = co_await tpcc::schema::create_schema(*db, report);
  EXPECT_TRUE(created.ok()) << created.message;
  load_progress progress;
  const tpcc::loader::load_options options{.warehouses = 1, .parallel = 2, .seed = 11};
  const outcome loaded = co_await tpcc::loader::load(*db, options, progress);
  EXPECT_TRUE(loaded.ok()) << loaded.message;
  const progress_snapshot s = progress.snapshot();
  std::map<std::string, std::int64_t> counts = co_await tpcc::testing::count_rows(*db);
  for (const tpcc::loader::table_estimate& e : tpcc::loader::estimate(1)) {
    const table_progress& t = table_of(s, e.table);
    EXPECT_EQ(t.rows, counts[std::string(e.table)]) << e.table;
    EXPECT_EQ(t.rows_expected, e.rows) << e.table;
    EXPECT_EQ(t.bytes_expected, e.bytes) << e.table;
    EXPECT_EQ(t.state, table_state::done) << e.table;
    EXPECT_GT(t.bytes, 0) << e.table;
    EXPECT_GT(t.rows_per_second, 0) << e.table;
  }
  // A second load finds everything loaded: it expects nothing and every table reads done.
  load_progress again;
  const outcome reloaded = co_await tpcc::loader::load(*db, options, again);
  EXPECT_TRUE(reloaded.ok()) << reloaded.message;
  for (const table_progress& t : again.snapshot().tables) {
    EXPECT_EQ(t.rows_expected, 0) << t.table;
    EXPECT_EQ(t.rows, 0) << t.table;
    EXPECT_EQ(t.state, table_state::done) << t.table;
  }
  co_await db->close();
}

TEST(table_progress, CountsOfARealSqliteLoadEqualTheTablesAndExpectationsTheEstimate) {
  tpcc::testing::loader_scratch t;
  t.run(load_and_compare(t.sqlite_target()));
}

}  // namespace
