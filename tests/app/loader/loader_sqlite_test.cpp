// SPDX-License-Identifier: Apache-2.0
// The loader end to end on real SQLite files: init then a 1-warehouse load (row counts of all
// nine tables, meta, progress, indexes), the refusals (missing schema, another warehouse count),
// resuming after a failure and after a cancellation without duplicates, and the INSERT baseline.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "driver/bulk.hpp"
#include "driver/database.hpp"
#include "faulty_database.hpp"
#include "loader/estimate.hpp"
#include "loader/insert_rows.hpp"
#include "loader/loader.hpp"
#include "loader/population.hpp"
#include "loader/progress.hpp"
#include "loader_support.hpp"
#include "schema/apply.hpp"
#include "schema/meta.hpp"
#include "schema/schema.hpp"
#include "shoal/stop.hpp"
#include "shoal/task.hpp"

namespace {

using shoal::task;
using tpcc::driver::database;
using tpcc::driver::outcome;
using tpcc::loader::load_options;
using tpcc::loader::load_progress;
using tpcc::schema::load_meta;
using tpcc::schema::meta_result;
using tpcc::testing::count_rows;
using tpcc::testing::faulty_database;
using tpcc::testing::loader_scratch;
using tpcc::testing::opened;

// ITEM is 50 copies of 2000 rows; the 60th copy is inside warehouse 1 (its CUSTOMER rows).
constexpr std::uint64_t copy_inside_warehouse_1 = 60;

load_options one_warehouse(std::size_t parallel = 1) {
  return {.warehouses = 1, .parallel = parallel, .seed = 7, .rows_per_copy = 2000};
}

task<outcome> init(database& db) {
  tpcc::schema::init_report report;
  const outcome created = co_await tpcc::schema::create_schema(db, report);
  EXPECT_EQ(report.tables, 11u);
  EXPECT_EQ(report.detected, tpcc::schema::engine::other);  // SQLite has no pg_extension
  EXPECT_FALSE(report.distributed);
  EXPECT_FALSE(report.probe_message.empty());
  co_return created;
}

template <class... Ids>
std::vector<std::int64_t> ids(Ids... w) {
  return std::vector<std::int64_t>{static_cast<std::int64_t>(w)...};
}

load_meta meta_of(meta_result r) {
  if (auto* failure = std::get_if<outcome>(&r)) {
    ADD_FAILURE() << "read_meta: " << failure->message;
    return {};
  }
  return std::get<load_meta>(std::move(r));
}

constexpr tpcc::driver::statement index_count{
    "t_index_count",
    "SELECT count(*) FROM sqlite_master WHERE type = 'index' AND name IN "
    "('customer_by_name', 'orders_by_customer')"};

task<std::int64_t> indexes(database& db) {
  tpcc::driver::lease l = co_await db.acquire();
  const tpcc::driver::statement_result r =
      co_await l->execute(index_count, std::vector<tpcc::driver::value>());
  EXPECT_TRUE(r.ok()) << r.status.message;
  co_return r.rows.empty() ? -1 : r.rows[0].int_at(0);
}

task<void> load_one_warehouse(std::string target) {
  std::unique_ptr<database> db = co_await opened(target, 1);
  const outcome created = co_await init(*db);
  EXPECT_TRUE(created.ok()) << created.message;
  load_progress progress;
  const load_options options = one_warehouse(2);
  const outcome loaded = co_await tpcc::loader::load(*db, options, progress);
  EXPECT_TRUE(loaded.ok()) << loaded.message;
  std::map<std::string, std::int64_t> counts = co_await count_rows(*db);
  tpcc::testing::expect_complete(counts, 1);
  const load_meta meta = meta_of(co_await tpcc::schema::read_meta(*db));
  EXPECT_EQ(meta.warehouses, 1);
  EXPECT_EQ(meta.loaded, ids(0, 1));
  EXPECT_GE(meta.constants.c_last, 0);
  EXPECT_LE(meta.constants.c_last, 255);
  EXPECT_LE(meta.constants.c_id, 1023);
  EXPECT_LE(meta.constants.ol_i_id, 8191);
  const tpcc::loader::progress_snapshot s = progress.snapshot();
  std::int64_t rows = 0;
  for (const auto& [table, n] : counts) rows += table == "sum(o_ol_cnt)" ? 0 : n;
  EXPECT_EQ(s.rows, rows);
  EXPECT_EQ(s.warehouses_done, 1);
  EXPECT_EQ(s.warehouses_total, 1);
  EXPECT_TRUE(s.items_done);
  EXPECT_GT(s.bytes, rows * 8);
  EXPECT_GT(s.rows_per_second, 0);
  const std::int64_t built = co_await indexes(*db);
  EXPECT_EQ(built, 2);
  co_await db->close();
}

// MySQL 8 has no CREATE INDEX IF NOT EXISTS (MariaDB, which the binary's tests run, has): each
// index's MySQL form is a plain CREATE INDEX, guarded by a count of that same name in
// information_schema; the other engines' form keeps IF NOT EXISTS.
TEST(schema_sql, EachIndexHasAMysqlFormWithoutIfNotExistsGuardedByItsOwnName) {
  for (const tpcc::schema::index_statement& index : tpcc::schema::index_statements()) {
    const std::string_view create = index.create.mysql;
    EXPECT_NE(index.create.sql.find("IF NOT EXISTS"), std::string_view::npos) << index.create.name;
    ASSERT_EQ(create.rfind("CREATE INDEX ", 0), 0U) << index.create.name;
    EXPECT_EQ(create.find("IF NOT EXISTS"), std::string_view::npos) << index.create.name;
    const std::string_view rest = create.substr(std::string_view("CREATE INDEX ").size());
    const std::string name(rest.substr(0, rest.find(' ')));
    EXPECT_NE(index.exists.mysql.find("information_schema.statistics"), std::string_view::npos);
    EXPECT_NE(index.exists.mysql.find("'" + name + "'"), std::string_view::npos) << name;
    EXPECT_EQ(index.exists.sql, "SELECT 0") << name;
  }
}

TEST(loader_sqlite, LoadsOneWarehouseWithEveryTableMetaAndIndexes) {
  loader_scratch t;
  t.run(load_one_warehouse(t.sqlite_target()));
}

task<void> refuse_missing_schema(std::string target) {
  std::unique_ptr<database> db = co_await opened(target, 1);
  load_progress progress;
  const load_options options = one_warehouse();
  const outcome refused = co_await tpcc::loader::load(*db, options, progress);
  EXPECT_EQ(refused.kind, tpcc::driver::outcome_kind::failed);
  EXPECT_EQ(refused.message, tpcc::schema::schema_missing_message());
  const meta_result read = co_await tpcc::schema::read_meta(*db);
  EXPECT_TRUE(std::holds_alternative<outcome>(read));
  if (const auto* failure = std::get_if<outcome>(&read)) {
    EXPECT_EQ(failure->message, "schema missing: run `shoal-tpcc init` first");
  }
  co_await db->close();
}

TEST(loader_sqlite, RefusesToLoadWithoutASchema) {
  loader_scratch t;
  t.run(refuse_missing_schema(t.sqlite_target()));
}

task<outcome> record_two_warehouses(database& db) {
  load_meta meta;
  meta.warehouses = 2;
  meta.constants.c_last = 10;
  tpcc::driver::lease l = co_await db.acquire();
  outcome result = co_await l->begin();
  if (result.ok()) result = co_await tpcc::schema::write_meta(*l, meta);
  if (result.ok()) result = co_await l->commit();
  co_return result;
}

task<void> refuse_other_count(std::string target) {
  std::unique_ptr<database> db = co_await opened(target, 1);
  const outcome created = co_await init(*db);
  EXPECT_TRUE(created.ok()) << created.message;
  const outcome recorded = co_await record_two_warehouses(*db);
  EXPECT_TRUE(recorded.ok()) << recorded.message;
  load_progress progress;
  const load_options options = one_warehouse();
  const outcome refused = co_await tpcc::loader::load(*db, options, progress);
  EXPECT_EQ(refused.kind, tpcc::driver::outcome_kind::failed);
  EXPECT_EQ(refused.message, "database was loaded with 2 warehouses, asked for 1");
  const load_meta meta = meta_of(co_await tpcc::schema::read_meta(*db));
  EXPECT_EQ(meta.warehouses, 2);
  EXPECT_EQ(meta.constants.c_last, 10);
  EXPECT_TRUE(meta.loaded.empty());
  std::map<std::string, std::int64_t> counts = co_await count_rows(*db);
  EXPECT_EQ(counts["item"], 0);
  co_await db->close();
}

TEST(loader_sqlite, RefusesAnotherWarehouseCountThanTheDatabaseWasLoadedWith) {
  loader_scratch t;
  t.run(refuse_other_count(t.sqlite_target()));
}

void expect_item_rows_only(std::map<std::string, std::int64_t> counts) {
  EXPECT_EQ(counts["item"], 100'000);
  for (const char* table : {"warehouse", "district", "customer", "history", "orders", "new_order",
                            "order_line", "stock"}) {
    EXPECT_EQ(counts[table], 0) << table;
  }
}

// After a load broken inside warehouse 1: ITEM committed, nothing of warehouse 1.
task<load_meta> expect_items_only(database& db) {
  std::map<std::string, std::int64_t> counts = co_await count_rows(db);
  expect_item_rows_only(counts);
  load_meta meta = meta_of(co_await tpcc::schema::read_meta(db));
  EXPECT_EQ(meta.loaded, ids(0));
  co_return meta;
}

// A second, complete load: nothing duplicated (HISTORY has no key to stop duplicates) and the
// NURand constants of the first attempt kept.
task<void> resume(database& db, load_meta before) {
  load_progress progress;
  const load_options options = one_warehouse();
  const outcome loaded = co_await tpcc::loader::load(db, options, progress);
  EXPECT_TRUE(loaded.ok()) << loaded.message;
  std::map<std::string, std::int64_t> counts = co_await count_rows(db);
  tpcc::testing::expect_complete(counts, 1);
  const load_meta after = meta_of(co_await tpcc::schema::read_meta(db));
  EXPECT_EQ(after.loaded, ids(0, 1));
  EXPECT_EQ(after.constants.c_last, before.constants.c_last);
  EXPECT_EQ(after.constants.c_id, before.constants.c_id);
  EXPECT_EQ(after.constants.ol_i_id, before.constants.ol_i_id);
  const tpcc::loader::progress_snapshot s = progress.snapshot();
  EXPECT_TRUE(s.items_done);  // from the first attempt
  // Per table, the resumed load expects estimate()'s rows of the warehouse left, and no ITEM.
  for (const tpcc::loader::table_estimate& e : tpcc::loader::estimate(1)) {
    const tpcc::loader::table_progress& t = s.tables.at(tpcc::loader::table_index(e.table));
    EXPECT_EQ(t.rows_expected, e.table == "item" ? 0 : e.rows) << e.table;
    EXPECT_EQ(t.state, tpcc::loader::table_state::done) << e.table;
  }
}

task<void> fail_then_resume(std::string target) {
  std::unique_ptr<database> db = co_await opened(target, 1);
  const outcome created = co_await init(*db);
  EXPECT_TRUE(created.ok()) << created.message;
  faulty_database faulty(*db, copy_inside_warehouse_1);
  load_progress progress;
  const load_options options = one_warehouse();
  const outcome broken = co_await tpcc::loader::load(faulty, options, progress);
  EXPECT_EQ(broken.message, "injected failure");
  EXPECT_EQ(faulty.copies(), copy_inside_warehouse_1);
  const load_meta before = co_await expect_items_only(*db);
  co_await resume(*db, before);
  co_await db->close();
}

TEST(loader_sqlite, ALoadThatFailedInsideAWarehouseResumesWithoutDuplicates) {
  loader_scratch t;
  t.run(fail_then_resume(t.sqlite_target()));
}

task<void> cancel_then_resume(std::string target) {
  std::unique_ptr<database> db = co_await opened(target, 1);
  const outcome created = co_await init(*db);
  EXPECT_TRUE(created.ok()) << created.message;
  std::stop_source stop;
  faulty_database stopping(*db, copy_inside_warehouse_1, &stop);
  load_progress progress;
  const load_options options = one_warehouse();
  const outcome cancelled = co_await shoal::with_stop_token(
      stop.get_token(), tpcc::loader::load(stopping, options, progress));
  EXPECT_EQ(cancelled.message, "cancelled");
  EXPECT_EQ(stopping.copies(), copy_inside_warehouse_1);  // no copy after the stop
  const load_meta before = co_await expect_items_only(*db);
  co_await resume(*db, before);
  co_await db->close();
}

TEST(loader_sqlite, ACancelledLoadCommitsNoPartOfAWarehouseAndResumes) {
  loader_scratch t;
  t.run(cancel_then_resume(t.sqlite_target()));
}

constexpr tpcc::driver::statement item_250{"t_item_250",
                                           "SELECT i_name, i_price FROM item WHERE i_id = 250"};

task<void> insert_baseline(std::string target) {
  std::unique_ptr<database> db = co_await opened(target, 1);
  const outcome created = co_await init(*db);
  EXPECT_TRUE(created.ok()) << created.message;
  tpcc::loader::population items = tpcc::loader::population::items(3);
  tpcc::driver::bulk_rows rows;
  EXPECT_TRUE(items.next(rows, 250));
  tpcc::driver::lease l = co_await db->acquire();
  const outcome began = co_await l->begin();
  EXPECT_TRUE(began.ok());
  const outcome inserted = co_await tpcc::loader::insert_rows(*l, rows);
  EXPECT_TRUE(inserted.ok()) << inserted.message;
  const outcome committed = co_await l->commit();
  EXPECT_TRUE(committed.ok());
  const tpcc::driver::statement_result got =
      co_await l->execute(item_250, std::vector<tpcc::driver::value>());
  l = tpcc::driver::lease();
  EXPECT_EQ(got.rows.size(), 1u);
  if (got.rows.size() == 1) {
    EXPECT_EQ(got.rows[0].text_at(0), std::get<std::string>(rows.values[249 * 5 + 2]));
    EXPECT_DOUBLE_EQ(got.rows[0].number_at(1), std::get<double>(rows.values[249 * 5 + 3]));
  }
  std::map<std::string, std::int64_t> counts = co_await count_rows(*db);
  EXPECT_EQ(counts["item"], 250);
  co_await db->close();
}

TEST(loader_sqlite, InsertBaselineWritesAChunkAsHundredRowStatements) {
  loader_scratch t;
  t.run(insert_baseline(t.sqlite_target()));
}

TEST(loader_progress, SnapshotGivesRatesAndEta) {
  using clock = load_progress::clock;
  load_progress p;
  const clock::time_point t0 = clock::now();
  EXPECT_EQ(p.snapshot(t0).eta_seconds, -1);
  p.start(4, 1, true, t0);  // 3 warehouses left, ITEM loaded before
  const std::int64_t expected = p.snapshot(t0).rows_expected;
  EXPECT_EQ(p.snapshot(t0 + std::chrono::seconds(1)).eta_seconds, -1);  // nothing written
  const std::size_t customer = tpcc::loader::table_index("customer");
  p.table_started(customer, t0);
  p.add(customer, 250, std::int64_t{1024} * 1024);
  p.warehouse_done();
  const tpcc::loader::progress_snapshot s = p.snapshot(t0 + std::chrono::seconds(2));
  EXPECT_EQ(s.rows, 250);
  EXPECT_EQ(s.rows_expected, expected);
  EXPECT_EQ(s.warehouses_done, 2);
  EXPECT_EQ(s.warehouses_total, 4);
  EXPECT_TRUE(s.items_done);
  EXPECT_DOUBLE_EQ(s.elapsed_seconds, 2.0);
  EXPECT_DOUBLE_EQ(s.rows_per_second, 125.0);
  EXPECT_DOUBLE_EQ(s.mib_per_second, 0.5);
  EXPECT_DOUBLE_EQ(s.eta_seconds, static_cast<double>(expected - 250) / 125.0);
}

// A negative count (0 means "as recorded"): refused before the database is touched.
load_options no_warehouses() { return {.warehouses = -1}; }

task<std::string> refuse_no_warehouses(std::string target) {
  std::unique_ptr<database> db = co_await opened(target, 1);
  load_progress progress;
  const load_options options = no_warehouses();
  const outcome refused = co_await tpcc::loader::load(*db, options, progress);
  co_await db->close();
  co_return refused.message;
}

TEST(loader_options, BadOptionsAreRefusedNamingTheOption) {
  loader_scratch t;
  EXPECT_EQ(t.run(refuse_no_warehouses(t.sqlite_target())),
            "warehouses must be at least 1, got -1");
}

}  // namespace
