// SPDX-License-Identifier: Apache-2.0
// The SQLite driver against real database files in a temporary directory, on a 2-worker pool:
// typed rows, $N binding, batches with commit, failures mid-batch, BUSY between two databases,
// where coroutines resume, bad paths, and cancellation before and during a call.
#include "driver/sqlite/sqlite.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "driver/database.hpp"
#include "driver/open.hpp"
#include "shoal/executor.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/timeout.hpp"
#include "support/running_pool.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using tpcc::driver::call;
using tpcc::driver::outcome;
using tpcc::driver::outcome_kind;
using tpcc::driver::session;
using tpcc::driver::statement;
using tpcc::driver::statement_result;
using tpcc::driver::then;
using tpcc::driver::value;
namespace sqlite = tpcc::driver::sqlite;

constexpr statement create_item{
    "create_item", "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT, price REAL, note TEXT)"};
constexpr statement insert_item{"insert_item",
                                "INSERT INTO item (id, name, price, note) VALUES ($1, $2, $3, $4)"};
constexpr statement select_item{"select_item",
                                "SELECT id, name, price, note FROM item WHERE id = $1"};
constexpr statement count_items{"count_items", "SELECT count(*) FROM item"};
constexpr statement swapped{"swapped", "SELECT $2, $1, $2"};
constexpr statement journal_mode{"journal_mode", "PRAGMA journal_mode"};
constexpr statement synchronous{"synchronous", "PRAGMA synchronous"};
constexpr statement count_to_a_billion{
    "count_to_a_billion",
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000) "
    "SELECT max(i) FROM n"};

// Vectors are built in plain functions, not with braces inside coroutines: g++ 12 rejects an
// initializer list of non-trivial elements in a coroutine ("array used as initializer").
template <class... Values>
std::vector<value> values(Values... vs) {
  std::vector<value> out;
  (out.emplace_back(std::move(vs)), ...);
  return out;
}

std::vector<value> item(std::int64_t id, std::string name) {
  return values(id, std::move(name), 1.5, std::monostate{});
}

call insert(std::int64_t id, std::string name) { return {&insert_item, item(id, std::move(name))}; }

// Named, never a temporary in a co_await expression: g++ 12 destroys such an aggregate
// temporary twice.
tpcc::driver::database_options one_connection(const std::string& path) {
  return {.target = "sqlite:" + path, .connections = 1};
}

template <class... Calls>
std::vector<call> batch(Calls... calls) {
  std::vector<call> out;
  (out.push_back(std::move(calls)), ...);
  return out;
}

task<std::unique_ptr<session>> connected(std::string path, sqlite::settings tuning = {}) {
  sqlite::connect_result r = co_await sqlite::connect(std::move(path), tuning);
  if (auto* failure = std::get_if<outcome>(&r)) throw std::runtime_error(failure->message);
  co_return std::move(std::get<std::unique_ptr<session>>(r));
}

task<std::int64_t> count(session& s) {
  statement_result r = co_await s.execute(count_items, {});
  if (!r.ok() || r.rows.size() != 1) throw std::runtime_error("count failed: " + r.status.message);
  co_return r.rows[0].int_at(0);
}

// A session on a fresh file with the item table.
task<std::unique_ptr<session>> with_items(std::string path, sqlite::settings tuning = {}) {
  std::unique_ptr<session> s = co_await connected(std::move(path), tuning);
  statement_result created = co_await s->execute(create_item, {});
  if (!created.ok()) throw std::runtime_error(created.status.message);
  co_return s;
}

// A temporary directory for one test's files and a 2-worker pool, both gone at its end.
class scratch {
 public:
  scratch() = default;
  scratch(const scratch&) = delete;
  scratch& operator=(const scratch&) = delete;
  ~scratch() = default;

  [[nodiscard]] std::string file(const char* name) const { return dir_.file(name); }
  shoal::thread_pool& pool() { return workers_.pool; }

 private:
  tpcc::testing::temp_dir dir_{"shoal-sqlite"};
  shoal::testing::running_pool workers_{2};  // stopped before the directory goes
};

TEST(SqliteDriver, InsertedRowsComeBackTyped) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(0);
    auto s = co_await with_items(t.file("typed.db"));
    EXPECT_TRUE((co_await s->begin()).ok());
    statement_result inserted = co_await s->execute(insert_item, item(7, "widget"));
    EXPECT_TRUE(inserted.ok()) << inserted.status.message;
    EXPECT_EQ(inserted.affected, 1);
    EXPECT_TRUE((co_await s->commit()).ok());

    statement_result got = co_await s->execute(select_item, values(std::int64_t{7}));
    EXPECT_TRUE(got.ok()) << got.status.message;
    EXPECT_EQ(got.affected, 0);
    EXPECT_EQ(got.rows.size(), 1u);
    if (got.rows.size() == 1) {
      const auto& r = got.rows[0];
      EXPECT_EQ(r.int_at(0), 7);
      EXPECT_EQ(r.text_at(1), "widget");
      EXPECT_TRUE(std::holds_alternative<double>(r.at(2)));
      EXPECT_EQ(r.number_at(2), 1.5);
      EXPECT_TRUE(r.null_at(3));
    }
    EXPECT_TRUE((co_await s->execute(select_item, values(std::int64_t{8}))).rows.empty());
  }());
}

TEST(SqliteDriver, FilesAreOpenedInWalModeWithNormalSync) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(0);
    auto s = co_await connected(t.file("wal.db"));
    statement_result mode = co_await s->execute(journal_mode, {});
    EXPECT_EQ(mode.rows.at(0).text_at(0), "wal");
    statement_result sync = co_await s->execute(synchronous, {});
    EXPECT_EQ(sync.rows.at(0).int_at(0), 1) << "1 is NORMAL";
  }());
  EXPECT_TRUE(std::filesystem::exists(t.file("wal.db")));
}

TEST(SqliteDriver, PlaceholdersAreBoundByTheirNumberNotTheirOrder) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(1);
    auto s = co_await connected(t.file("swap.db"));
    statement_result r = co_await s->execute(swapped, values(std::int64_t{10}, std::string("ten")));
    EXPECT_TRUE(r.ok()) << r.status.message;
    EXPECT_EQ(r.rows.at(0).text_at(0), "ten");
    EXPECT_EQ(r.rows.at(0).int_at(1), 10);
    EXPECT_EQ(r.rows.at(0).text_at(2), "ten");
    statement_result wrong = co_await s->execute(swapped, values(std::int64_t{10}));
    EXPECT_EQ(wrong.status.kind, outcome_kind::failed);
    EXPECT_NE(wrong.status.message.find("takes 2 parameters, was given 1"), std::string::npos)
        << wrong.status.message;
  }());
}

TEST(SqliteDriver, BatchWithCommitIsOneRoundTrip) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(0);
    auto s = co_await with_items(t.file("batch.db"));
    EXPECT_TRUE((co_await s->begin()).ok());
    const std::vector<call> calls = batch(insert(1, "a"), insert(2, "b"), insert(3, "c"));
    const std::uint64_t before = s->round_trips();
    std::vector<statement_result> results = co_await s->execute_batch(calls, then::commit);
    EXPECT_EQ(s->round_trips() - before, 1u);
    EXPECT_EQ(results.size(), 4u) << "three statements and the commit";
    for (const auto& r : results) EXPECT_TRUE(r.ok()) << r.status.message;
    EXPECT_EQ(co_await count(*s), 3);
  }());
}

TEST(SqliteDriver, UniqueViolationMidBatchSkipsTheRestAndRollsBack) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(0);
    auto s = co_await with_items(t.file("unique.db"));
    EXPECT_TRUE((co_await s->begin()).ok());
    const std::vector<call> calls = batch(insert(1, "a"), insert(1, "again"), insert(2, "b"));
    std::vector<statement_result> results = co_await s->execute_batch(calls, then::commit);
    EXPECT_EQ(results.size(), 4u);
    if (results.size() == 4) {
      EXPECT_TRUE(results[0].ok());
      EXPECT_EQ(results[1].status.kind, outcome_kind::failed);
      EXPECT_NE(results[1].status.message.find("UNIQUE constraint failed: item.id"),
                std::string::npos)
          << results[1].status.message;
      EXPECT_NE(results[1].status.message.find("insert_item"), std::string::npos);
      EXPECT_EQ(results[2].status.message, results[1].status.message) << "not run";
      EXPECT_EQ(results[3].status.message, results[1].status.message) << "no commit";
    }
    // The transaction is aborted until rollback(), as on PostgreSQL.
    statement_result refused = co_await s->execute(count_items, {});
    EXPECT_NE(refused.status.message.find("aborted"), std::string::npos);
    EXPECT_TRUE((co_await s->rollback()).ok());
    EXPECT_EQ(co_await count(*s), 0) << "the first insert was rolled back too";
    EXPECT_TRUE(s->healthy());

    EXPECT_TRUE((co_await s->begin()).ok());
    EXPECT_TRUE((co_await s->execute(insert_item, item(1, "a"))).ok());
    EXPECT_TRUE((co_await s->commit()).ok());
    EXPECT_EQ(co_await count(*s), 1);
  }());
}

TEST(SqliteDriver, BusyBetweenTwoDatabasesOnOneFileIsRetryable) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(0);
    const sqlite::settings impatient{.busy_timeout = 50ms};
    const std::string path = t.file("busy.db");
    const auto options = one_connection(path);
    std::vector<std::unique_ptr<tpcc::driver::database>> dbs;
    for (int i = 0; i < 2; ++i) {
      tpcc::driver::open_result opened = co_await sqlite::open(path, options, impatient);
      if (auto* failure = std::get_if<outcome>(&opened)) throw std::runtime_error(failure->message);
      dbs.push_back(std::move(std::get<0>(opened)));
    }
    {
      tpcc::driver::lease first = co_await dbs[0]->acquire();
      tpcc::driver::lease second = co_await dbs[1]->acquire();
      EXPECT_TRUE(first && second);
      EXPECT_TRUE((co_await first->begin()).ok());
      const outcome refused = co_await second->begin();
      EXPECT_EQ(refused.kind, outcome_kind::retryable);
      EXPECT_TRUE(refused.sqlstate.empty());
      EXPECT_NE(refused.message.find("busy"), std::string::npos) << refused.message;
      EXPECT_TRUE((co_await second->rollback()).ok());
      EXPECT_TRUE((co_await first->rollback()).ok());
      EXPECT_TRUE((co_await second->begin()).ok()) << "the lock is free again";
      EXPECT_TRUE((co_await second->commit()).ok());
    }
    for (auto& db : dbs) co_await db->close();
  }());
}

TEST(SqliteDriver, CallsResumeOnTheirOwnWorkerNeverTheSqliteThread) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(1);
    const shoal::executor* home = shoal::executor::current();
    const std::thread::id home_thread = std::this_thread::get_id();
    auto s = co_await with_items(t.file("home.db"));
    for (std::int64_t i = 0; i < 50; ++i) {
      EXPECT_TRUE((co_await s->begin()).ok());
      EXPECT_EQ(shoal::executor::current(), home);
      EXPECT_TRUE((co_await s->execute(insert_item, item(i, "x"))).ok());
      EXPECT_EQ(std::this_thread::get_id(), home_thread);
      EXPECT_TRUE((co_await s->commit()).ok());
      EXPECT_EQ(shoal::executor::current(), home);
      EXPECT_EQ(std::this_thread::get_id(), home_thread);
    }
  }());
}

TEST(SqliteDriver, AMissingDirectoryIsReportedWithThePath) {
  scratch t;
  const std::string path = t.file("no-such-dir/tpcc.db");
  const outcome o = shoal::sync_wait([&]() -> task<outcome> {
    co_await t.pool().schedule_on(0);
    sqlite::connect_result r = co_await sqlite::connect(path);
    co_return std::holds_alternative<outcome>(r) ? std::get<outcome>(r) : outcome::success();
  }());
  EXPECT_EQ(o.kind, outcome_kind::failed);
  EXPECT_NE(o.message.find("'" + path + "'"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("unable to open database file"), std::string::npos) << o.message;
}

TEST(SqliteDriver, AFileThatIsNotADatabaseIsReportedWithThePath) {
  scratch t;
  const std::string path = t.file("notes.txt");
  std::ofstream(path) << "these are not the pages you are looking for, this is plain text\n"
                      << std::string(4096, 'x');
  const tpcc::driver::open_result r = shoal::sync_wait([&]() -> task<tpcc::driver::open_result> {
    co_await t.pool().schedule_on(0);
    const auto options = one_connection(path);
    co_return co_await sqlite::open(path, options);
  }());
  ASSERT_TRUE(std::holds_alternative<outcome>(r));
  const outcome& o = std::get<outcome>(r);
  EXPECT_EQ(o.kind, outcome_kind::failed);
  EXPECT_NE(o.message.find(path), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("file is not a database"), std::string::npos) << o.message;
}

TEST(SqliteDriver, ACallAfterStopIsRequestedReturnsCancelledWithoutRunning) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(0);
    auto s = co_await with_items(t.file("cancel.db"));
    std::stop_source stop;
    stop.request_stop();
    const std::uint64_t before = s->round_trips();
    const outcome begun = co_await shoal::with_stop_token(stop.get_token(), s->begin());
    EXPECT_EQ(begun.kind, outcome_kind::failed);
    EXPECT_EQ(begun.message, "cancelled");
    const statement_result inserted =
        co_await shoal::with_stop_token(stop.get_token(), s->execute(insert_item, item(1, "a")));
    EXPECT_EQ(inserted.status.message, "cancelled");
    const std::vector<call> calls = batch(insert(2, "b"));
    const auto batch =
        co_await shoal::with_stop_token(stop.get_token(), s->execute_batch(calls, then::commit));
    EXPECT_EQ(batch.size(), 2u);
    for (const auto& r : batch) EXPECT_EQ(r.status.message, "cancelled");
    EXPECT_EQ(s->round_trips(), before) << "nothing was handed to the SQLite thread";
    EXPECT_TRUE((co_await shoal::with_stop_token(stop.get_token(), s->rollback())).ok())
        << "rollback is the clean-up and is never cancelled";
    EXPECT_EQ(co_await count(*s), 0);
  }());
}

TEST(SqliteDriver, StopInterruptsARunningStatementAndTheSessionStaysUsable) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(0);
    auto s = co_await with_items(t.file("interrupt.db"));
    EXPECT_TRUE((co_await s->begin()).ok());
    EXPECT_TRUE((co_await s->execute(insert_item, item(1, "a"))).ok());
    // Interrupted, not finished: a finished count would succeed.
    const statement_result r =
        co_await shoal::with_timeout(50ms, s->execute(count_to_a_billion, {}));
    EXPECT_EQ(r.status.kind, outcome_kind::failed);
    EXPECT_EQ(r.status.message.rfind("cancelled", 0), 0u) << r.status.message;
    EXPECT_TRUE((co_await s->rollback()).ok());
    EXPECT_TRUE(s->healthy());
    EXPECT_EQ(co_await count(*s), 0) << "the interrupted transaction was rolled back";
  }());
}

TEST(SqliteDriver, StopEndsAWaitForAnotherConnectionsLock) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(0);
    const std::string path = t.file("wait.db");
    auto holder = co_await with_items(path);
    auto waiter = co_await connected(path, {.busy_timeout = 60s});
    EXPECT_TRUE((co_await holder->begin()).ok());
    // Ended by the stop: the busy timeout's end would be a "locked" failure, not "cancelled".
    const outcome o = co_await shoal::with_timeout(50ms, waiter->begin());
    EXPECT_EQ(o.kind, outcome_kind::failed);
    EXPECT_EQ(o.message.rfind("cancelled", 0), 0u) << o.message;
    EXPECT_TRUE((co_await holder->rollback()).ok());
    EXPECT_TRUE((co_await waiter->begin()).ok());
    EXPECT_TRUE((co_await waiter->commit()).ok());
  }());
}

TEST(SqliteDriver, OpenLendsSessionsThroughThePool) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(1);
    const std::string path = t.file("pool.db");
    const auto options = one_connection(path);
    tpcc::driver::open_result opened = co_await sqlite::open(path, options);
    if (auto* failure = std::get_if<outcome>(&opened)) throw std::runtime_error(failure->message);
    auto db = std::move(std::get<0>(opened));
    EXPECT_EQ(db->describe(), "sqlite:" + path);
    {
      tpcc::driver::lease l = co_await db->acquire();
      EXPECT_TRUE(l);
      EXPECT_TRUE((co_await l->execute(create_item, {})).ok());
      EXPECT_EQ(db->stats().in_use, 1u);
    }
    {
      tpcc::driver::lease l = co_await db->acquire();
      EXPECT_EQ(co_await count(*l), 0);
    }
    co_await db->close();
  }());
}

TEST(SqliteDriver, ASqliteTargetOpensThroughOpenDatabase) {
  scratch t;
  shoal::sync_wait([&]() -> task<void> {
    co_await t.pool().schedule_on(0);
    const std::string path = t.file("target.db");
    tpcc::driver::database_options options = one_connection(path);
    tpcc::driver::open_result opened = co_await tpcc::driver::open_database(std::move(options));
    if (auto* failure = std::get_if<outcome>(&opened)) throw std::runtime_error(failure->message);
    auto db = std::move(std::get<0>(opened));
    {
      tpcc::driver::lease l = co_await db->acquire();
      EXPECT_TRUE((co_await l->execute(journal_mode, {})).ok());
    }
    co_await db->close();
  }());
}

}  // namespace
