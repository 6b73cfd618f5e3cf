// SPDX-License-Identifier: Apache-2.0
// The MySQL / MariaDB driver against a real, throwaway MariaDB server (app/tpcc/testing/
// mariadb_server.hpp) on a Unix socket, driven from a 2-worker pool: typed rows, parameters
// used twice, a multi-step statement, round trips, an error aborting the transaction, a
// deadlock between two sessions (retryable), a killed connection (connection_lost) and the pool
// replacing it, copy(), bad targets, the URI reader and password redaction. One server for the
// whole program (about 3 s to install and start).
#include "driver/mysql/mysql.hpp"

#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <exception>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "driver/database.hpp"
#include "driver/mysql/dialect.hpp"
#include "driver/mysql/uri.hpp"
#include "driver/open.hpp"
#include "driver/target.hpp"
#include "shoal/sleep.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/when_all.hpp"
#include "support/running_pool.hpp"
#include "testing/mariadb_server.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using tpcc::driver::bulk_rows;
using tpcc::driver::call;
using tpcc::driver::database;
using tpcc::driver::isolation;
using tpcc::driver::lease;
using tpcc::driver::open_result;
using tpcc::driver::outcome;
using tpcc::driver::outcome_kind;
using tpcc::driver::redact;
using tpcc::driver::statement;
using tpcc::driver::statement_result;
using tpcc::driver::then;
using tpcc::driver::value;
using tpcc::testing::mariadb_server;
namespace mysql = tpcc::driver::mysql;

constexpr statement typed_row{"typed_row",
                              "SELECT CAST(1 AS SIGNED), 2.5e0, CAST(3.125 AS DECIMAL(6,3)), "
                              "'text', NULL, TIMESTAMP '2024-02-29 10:11:12', repeat('x', 300)"};
constexpr statement echo{"echo", "SELECT $1 + 1, $2, $3, $4 IS NULL, $1 * 2"};
constexpr statement insert_row{"insert_row", "INSERT INTO t (id, v) VALUES ($1, $2)"};
constexpr statement bump_row{"bump_row", "UPDATE t SET v = v + 1 WHERE id = $1"};
constexpr statement bump_and_read{
    "bump_and_read", "UPDATE t SET v = v + 1 WHERE id = $1 RETURNING v",
    "UPDATE t SET v = v + $2 WHERE id = $1; SELECT v FROM t WHERE id = $1"};
constexpr statement count_rows{"count_rows", "SELECT count(*) FROM t"};
constexpr statement no_such_table{"no_such_table", "SELECT * FROM no_such_table"};
constexpr statement own_id{"own_id", "SELECT connection_id()"};

template <class T>
task<T> on_pool(shoal::thread_pool& pool, task<T> body) {
  co_await pool.schedule();
  co_return co_await std::move(body);
}

template <class... Values>
std::vector<value> values(Values... vs) {
  std::vector<value> out;
  (out.emplace_back(std::move(vs)), ...);
  return out;
}

template <class... Values>
call make(const statement& stmt, Values... vs) {
  return {&stmt, values(std::move(vs)...)};
}

class mysql_driver : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!mariadb_server::available()) return;
    try {
      server = mariadb_server::start_one().release();
    } catch (const std::exception& e) {
      start_failure = e.what();
    }
  }
  static void TearDownTestSuite() {
    delete server;
    server = nullptr;
  }
  void SetUp() override {
    if (!start_failure.empty()) FAIL() << start_failure;
    if (server == nullptr) {
      GTEST_SKIP() << "MariaDB server binaries not found (install mariadb-server): skipping";
    }
    server->sql("DROP TABLE IF EXISTS t; CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL)");
  }

  template <class T>
  T run(task<T> body) {
    return shoal::sync_wait(on_pool(workers_.pool, std::move(body)));
  }

  static task<open_result> open_pool(std::size_t connections = 2,
                                     isolation level = isolation::read_committed) {
    return mysql::open({.target = server->uri() + "&protocol=prepared",
                        .connections = connections,
                        .level = level});
  }

  // A plain function: g++ 12 destroys an aggregate temporary in a co_await expression twice.
  static task<open_result> open_text() {
    return mysql::open({.target = server->uri() + "&protocol=text", .connections = 1});
  }

  static std::unique_ptr<database> take(open_result opened) {
    if (auto* failure = std::get_if<outcome>(&opened)) {
      ADD_FAILURE() << "open failed: " << failure->message;
      return nullptr;
    }
    return std::move(std::get<std::unique_ptr<database>>(opened));
  }

  static mariadb_server* server;
  static std::string start_failure;
  shoal::testing::running_pool workers_{2};
};

mariadb_server* mysql_driver::server = nullptr;
std::string mysql_driver::start_failure;

TEST_F(mysql_driver, ConnectsAndReturnsTypedRows) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool());
    if (!db) co_return;
    EXPECT_NE(db->describe().find("MySQL mysql://root@localhost/tpcc"), std::string::npos);
    {
      lease l = co_await db->acquire();
      EXPECT_TRUE((co_await l->begin()).ok());
      statement_result r = co_await l->execute(typed_row, values());
      EXPECT_TRUE(r.ok()) << r.status.message;
      EXPECT_EQ(r.rows.size(), 1U);
      if (r.rows.size() == 1) {
        const auto& row = r.rows[0];
        EXPECT_EQ(row.int_at(0), 1);
        EXPECT_DOUBLE_EQ(row.number_at(1), 2.5);
        EXPECT_DOUBLE_EQ(row.number_at(2), 3.125);
        EXPECT_EQ(row.text_at(3), "text");
        EXPECT_TRUE(row.null_at(4));
        EXPECT_EQ(row.text_at(5), "2024-02-29 10:11:12");
        EXPECT_EQ(row.text_at(6), std::string(300, 'x'));  // longer than the first buffer
      }
      statement_result e =
          co_await l->execute(echo, values(std::int64_t{41}, std::string("it's"), 0.25, value{}));
      EXPECT_TRUE(e.ok()) << e.status.message;
      if (e.rows.size() == 1) {
        EXPECT_EQ(e.rows[0].int_at(0), 42);
        EXPECT_EQ(e.rows[0].text_at(1), "it's");
        EXPECT_DOUBLE_EQ(e.rows[0].number_at(2), 0.25);
        EXPECT_EQ(e.rows[0].int_at(3), 1);
        EXPECT_EQ(e.rows[0].int_at(4), 82);  // $1 bound twice
      }
      EXPECT_TRUE((co_await l->commit()).ok());
    }
    co_await db->close();
  }());
}

TEST_F(mysql_driver, StatementsCostOneRoundTripEachAndPrepareOnce) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool());
    if (!db) co_return;
    {
      lease l = co_await db->acquire();
      const std::uint64_t start = l->round_trips();
      EXPECT_TRUE((co_await l->begin()).ok());
      EXPECT_EQ(l->round_trips(), start);  // BEGIN is implicit: autocommit is off
      std::vector<call> calls;
      calls.reserve(6);
      for (std::int64_t i = 0; i < 4; ++i) calls.push_back(make(insert_row, i, i * 10));
      auto results = co_await l->execute_batch(calls, then::commit);
      EXPECT_EQ(results.size(), 5U);
      for (const auto& r : results) EXPECT_TRUE(r.ok()) << r.status.message;
      EXPECT_EQ(results[0].affected, 1);
      // One PREPARE, four executions, one COMMIT.
      EXPECT_EQ(l->round_trips() - start, 6U);
      const std::uint64_t again = l->round_trips();
      EXPECT_TRUE((co_await l->begin()).ok());
      statement_result r =
          co_await l->execute(bump_and_read, values(std::int64_t{2}, std::int64_t{5}));
      EXPECT_TRUE(r.ok()) << r.status.message;
      EXPECT_EQ(r.affected, 1);
      EXPECT_EQ(r.rows.size(), 1U);
      if (r.rows.size() == 1) {
        EXPECT_EQ(r.rows[0].int_at(0), 25);
      }
      EXPECT_TRUE((co_await l->commit()).ok());
      EXPECT_EQ(l->round_trips() - again, 5U);  // two PREPAREs, two executions, COMMIT
    }
    co_await db->close();
  }());
  EXPECT_EQ(server->sql("SELECT count(*), sum(v) FROM t"), "4\t65\n");
}

TEST_F(mysql_driver, AnErrorAbortsTheTransactionUntilRolledBack) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool());
    if (!db) co_return;
    {
      lease l = co_await db->acquire();
      EXPECT_TRUE((co_await l->begin()).ok());
      std::vector<call> calls;
      calls.push_back(make(insert_row, std::int64_t{1}, std::int64_t{1}));
      calls.push_back(make(insert_row, std::int64_t{1}, std::int64_t{2}));  // duplicate key
      calls.push_back(make(count_rows));
      auto results = co_await l->execute_batch(calls, then::commit);
      EXPECT_EQ(results.size(), 4U);
      EXPECT_TRUE(results[0].ok());
      EXPECT_EQ(results[1].status.kind, outcome_kind::failed);
      EXPECT_EQ(results[1].status.sqlstate, "23000");
      EXPECT_NE(results[1].status.message.find("MySQL error 1062"), std::string::npos)
          << results[1].status.message;
      EXPECT_EQ(results[1].status.statement, "insert_row");
      EXPECT_EQ(results[2].status.message, results[1].status.message);
      EXPECT_FALSE(results[3].ok());
      statement_result later = co_await l->execute(count_rows, values());
      EXPECT_FALSE(later.ok());  // aborted until rolled back
      EXPECT_TRUE((co_await l->rollback()).ok());
      EXPECT_TRUE((co_await l->begin()).ok());
      statement_result missing = co_await l->execute(no_such_table, values());
      EXPECT_EQ(missing.status.sqlstate, "42S02");
      EXPECT_TRUE((co_await l->rollback()).ok());
      EXPECT_TRUE((co_await l->begin()).ok());
      statement_result counted = co_await l->execute(count_rows, values());
      EXPECT_TRUE(counted.ok());
      if (counted.rows.size() == 1) {
        EXPECT_EQ(counted.rows[0].int_at(0), 0);
      }
      EXPECT_TRUE((co_await l->commit()).ok());
    }
    co_await db->close();
  }());
}

task<statement_result> bump_later(tpcc::driver::session& s, std::int64_t id,
                                  std::chrono::milliseconds delay) {
  co_await shoal::sleep_for(delay);
  co_return co_await s.execute(bump_row, values(id));
}

// Two sessions lock rows 1 and 2 in opposite orders: InnoDB picks a victim, whose outcome is
// retryable (1213).
TEST_F(mysql_driver, DeadlockBetweenTwoSessionsIsRetryable) {
  server->sql("INSERT INTO t VALUES (1, 0), (2, 0)");
  run([&]() -> task<void> {
    auto db = take(co_await open_pool(2));
    if (!db) co_return;
    {
      lease a = co_await db->acquire();
      lease b = co_await db->acquire();
      co_await a->begin();
      co_await b->begin();
      EXPECT_TRUE((co_await a->execute(bump_row, values(std::int64_t{1}))).ok());
      EXPECT_TRUE((co_await b->execute(bump_row, values(std::int64_t{2}))).ok());
      // a waits for b's row; b then asks for a's: one of them is chosen as the victim.
      auto [ra, rb] = co_await shoal::when_all(bump_later(*a, 2, 0ms), bump_later(*b, 1, 300ms));
      std::vector<outcome> outcomes;
      outcomes.push_back(ra.status);
      outcomes.push_back(rb.status);
      int retryable = 0;
      for (const outcome& o : outcomes) {
        if (o.kind == outcome_kind::retryable) {
          ++retryable;
          EXPECT_EQ(o.sqlstate, "40001") << o.message;
        }
      }
      EXPECT_EQ(retryable, 1);
      co_await a->rollback();
      co_await b->rollback();
    }
    co_await db->close();
  }());
}

// protocol=text: a batch is one multi-statement query, one round trip with its COMMIT; the
// server stops at a failing statement, so the COMMIT after it never runs.
TEST_F(mysql_driver, TextProtocolSendsABatchInOneRoundTrip) {
  run([&]() -> task<void> {
    auto db = take(co_await open_text());
    if (!db) co_return;
    {
      lease l = co_await db->acquire();
      const std::uint64_t start = l->round_trips();
      EXPECT_TRUE((co_await l->begin()).ok());
      std::vector<call> calls;
      calls.reserve(6);
      for (std::int64_t i = 0; i < 4; ++i) calls.push_back(make(insert_row, i, i * 10));
      calls.push_back(make(bump_and_read, std::int64_t{2}, std::int64_t{5}));
      calls.push_back(make(echo, std::int64_t{41}, std::string("it's \\ \"q\""), 0.25, value{}));
      auto results = co_await l->execute_batch(calls, then::commit);
      EXPECT_EQ(l->round_trips() - start, 1U);
      EXPECT_EQ(results.size(), 7U);
      for (const auto& r : results) EXPECT_TRUE(r.ok()) << r.status.message;
      EXPECT_EQ(results[0].affected, 1);
      EXPECT_EQ(results[4].affected, 1);
      if (results[4].rows.size() == 1) {
        EXPECT_EQ(results[4].rows[0].int_at(0), 25);
      }
      EXPECT_EQ(results[5].rows.size(), 1U);
      if (results[5].rows.size() == 1) {
        EXPECT_EQ(results[5].rows[0].int_at(0), 42);
        EXPECT_EQ(results[5].rows[0].text_at(1), "it's \\ \"q\"");
        EXPECT_DOUBLE_EQ(results[5].rows[0].number_at(2), 0.25);
        EXPECT_EQ(results[5].rows[0].int_at(3), 1);
      }
      // A duplicate key in the middle: it and what follows fail, the COMMIT never runs.
      EXPECT_TRUE((co_await l->begin()).ok());
      std::vector<call> failing;
      failing.push_back(make(insert_row, std::int64_t{10}, std::int64_t{1}));
      failing.push_back(make(insert_row, std::int64_t{1}, std::int64_t{1}));
      failing.push_back(make(count_rows));
      auto bad = co_await l->execute_batch(failing, then::commit);
      EXPECT_TRUE(bad[0].ok());
      EXPECT_EQ(bad[1].status.sqlstate, "23000") << bad[1].status.message;
      EXPECT_EQ(bad[1].status.statement, "insert_row");
      EXPECT_FALSE(bad[2].ok());
      EXPECT_FALSE(bad[3].ok());
      EXPECT_TRUE((co_await l->rollback()).ok());
    }
    co_await db->close();
  }());
  EXPECT_EQ(server->sql("SELECT count(*), sum(v) FROM t"), "4\t65\n");
}

// One transaction; its outcome.
task<outcome> one_transaction(database& db) {
  lease l = co_await db.acquire();
  if (!l) co_return l.status();
  outcome begun = co_await l->begin();
  if (!begun.ok()) co_return begun;
  statement_result r = co_await l->execute(count_rows, values());
  if (!r.ok()) co_return r.status;
  co_return co_await l->commit();
}

TEST_F(mysql_driver, AKilledConnectionIsLostAndThePoolReplacesIt) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool(1));
    if (!db) co_return;
    {
      lease l = co_await db->acquire();
      co_await l->begin();
      statement_result id = co_await l->execute(own_id, values());
      EXPECT_TRUE(id.ok());
      co_await l->commit();
      if (id.rows.size() == 1) server->sql("KILL " + std::to_string(id.rows[0].int_at(0)));
      co_await l->begin();
      statement_result r = co_await l->execute(count_rows, values());
      EXPECT_EQ(r.status.kind, outcome_kind::connection_lost) << r.status.message;
      EXPECT_FALSE(l->healthy());
    }
    outcome o;
    for (int i = 0; i < 100; ++i) {
      o = co_await one_transaction(*db);
      if (o.ok()) break;
      co_await shoal::sleep_for(20ms);
    }
    EXPECT_TRUE(o.ok()) << o.message;
    EXPECT_GE(db->stats().replaced, 1U);
    co_await db->close();
  }());
}

constexpr std::array<std::string_view, 2> t_columns{"id", "v"};

TEST_F(mysql_driver, CopyWritesRowsInTheTransaction) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool(1));
    if (!db) co_return;
    {
      lease l = co_await db->acquire();
      bulk_rows rows;
      rows.table = "t";
      rows.columns = t_columns;
      rows.values.reserve(100000);
      for (std::int64_t i = 0; i < 50000; ++i) {
        rows.values.emplace_back(i);
        rows.values.emplace_back(i % 7);
      }
      co_await l->begin();
      const std::uint64_t before = l->round_trips();
      EXPECT_TRUE((co_await l->copy(rows)).ok());
      EXPECT_GE(l->round_trips() - before, 1U);
      EXPECT_TRUE((co_await l->rollback()).ok());  // nothing remains
      co_await l->begin();
      EXPECT_TRUE((co_await l->copy(rows)).ok());
      EXPECT_TRUE((co_await l->commit()).ok());
      co_await l->begin();
      outcome again = co_await l->copy(rows);  // duplicate keys
      EXPECT_EQ(again.kind, outcome_kind::failed);
      EXPECT_NE(again.message.find("1062"), std::string::npos) << again.message;
      co_await l->rollback();
    }
    co_await db->close();
  }());
  EXPECT_EQ(server->sql("SELECT count(*) FROM t"), "50000\n");
}

TEST_F(mysql_driver, WrongPasswordIsRefusedAndNeverPrinted) {
  const std::string target = server->uri(mariadb_server::password_user(), "wrong-Pa55");
  open_result opened = run(mysql::open({.target = target, .connections = 1}));
  ASSERT_TRUE(std::holds_alternative<outcome>(opened));
  const outcome& o = std::get<outcome>(opened);
  EXPECT_EQ(o.kind, outcome_kind::failed);
  EXPECT_EQ(o.message.find("wrong-Pa55"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("1045"), std::string::npos) << o.message;
  auto good = take(run(mysql::open(
      {.target = server->uri(mariadb_server::password_user(), mariadb_server::password()),
       .connections = 1})));
  ASSERT_TRUE(good);
  EXPECT_EQ(good->describe().find(mariadb_server::password()), std::string::npos);
  run(good->close());
}

TEST_F(mysql_driver, ANonexistentSocketIsConnectionLostNamingTheTarget) {
  open_result opened = run(mysql::open(
      {.target = "mysql://root@localhost/tpcc?socket=/nonexistent/sock", .connections = 1}));
  ASSERT_TRUE(std::holds_alternative<outcome>(opened));
  const outcome& o = std::get<outcome>(opened);
  EXPECT_EQ(o.kind, outcome_kind::connection_lost);
  EXPECT_NE(o.message.find("/nonexistent/sock"), std::string::npos) << o.message;
}

TEST(mysql_uri, ReadsEveryPart) {
  auto parsed = mysql::parse_uri("mariadb://bob:p%40ss@db.example:3307/shop?ssl=verify&ssl-ca=/ca");
  ASSERT_TRUE(std::holds_alternative<mysql::uri>(parsed));
  const auto& u = std::get<mysql::uri>(parsed);
  EXPECT_EQ(u.user, "bob");
  EXPECT_EQ(u.password, "p@ss");
  EXPECT_EQ(u.host, "db.example");
  EXPECT_EQ(u.port, 3307U);
  EXPECT_EQ(u.database, "shop");
  EXPECT_EQ(u.mode, mysql::tls::verified);
  EXPECT_EQ(u.ssl_ca, "/ca");
  auto defaults = mysql::parse_uri("mysql://?socket=/run/mysqld/mysqld.sock");
  ASSERT_TRUE(std::holds_alternative<mysql::uri>(defaults));
  EXPECT_EQ(std::get<mysql::uri>(defaults).user, "root");
  EXPECT_EQ(std::get<mysql::uri>(defaults).database, "tpcc");
  EXPECT_EQ(std::get<mysql::uri>(defaults).socket, "/run/mysqld/mysqld.sock");
}

TEST(mysql_uri, RefusesWhatItDoesNotKnow) {
  auto bad_port = mysql::parse_uri("mysql://root@host:99999/db");
  ASSERT_TRUE(std::holds_alternative<std::string>(bad_port));
  EXPECT_NE(std::get<std::string>(bad_port).find("99999"), std::string::npos);
  auto typo = mysql::parse_uri("mysql://root@host/db?sokcet=/x");
  ASSERT_TRUE(std::holds_alternative<std::string>(typo));
  EXPECT_NE(std::get<std::string>(typo).find("sokcet"), std::string::npos);
  EXPECT_TRUE(std::holds_alternative<std::string>(mysql::parse_uri("mysql://u:%zz@h/db")));
}

TEST(mysql_uri, PasswordsAreRedactedAndTheEngineIsMysql) {
  EXPECT_EQ(redact("mysql://bob:secret@h:3306/db?socket=/s"),
            "mysql://bob:***@h:3306/db?socket=/s");
  EXPECT_EQ(redact("mariadb://bob@h/db?password=secret"), "mariadb://bob@h/db?password=***");
  EXPECT_EQ(tpcc::driver::engine_of("mysql://h/db?socket=/x"), tpcc::driver::engine::mysql);
  EXPECT_EQ(tpcc::driver::engine_of("mariadb://h/db"), tpcc::driver::engine::mysql);
}

TEST(mysql_dialect, TurnsPlaceholdersIntoPositionsAndSplitsSteps) {
  auto steps = mysql::steps_of("UPDATE t SET a = $2 WHERE id = $1 AND b = '$3;'; SELECT $1, $1");
  ASSERT_EQ(steps.size(), 2U);
  EXPECT_EQ(steps[0].sql, "UPDATE t SET a = ? WHERE id = ? AND b = '$3;'");
  EXPECT_EQ(steps[0].params, (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(steps[1].sql, "SELECT ?, ?");
  EXPECT_EQ(steps[1].params, (std::vector<std::size_t>{0, 0}));
  EXPECT_EQ(mysql::error_outcome(1213, "40001", "Deadlock").kind, outcome_kind::retryable);
  EXPECT_EQ(mysql::error_outcome(1205, "HY000", "Lock wait").kind, outcome_kind::retryable);
  EXPECT_EQ(mysql::error_outcome(2013, "HY000", "Lost").kind, outcome_kind::connection_lost);
  EXPECT_EQ(mysql::error_outcome(2006, "HY000", "Gone").kind, outcome_kind::connection_lost);
  EXPECT_EQ(mysql::error_outcome(1062, "23000", "Dup").kind, outcome_kind::failed);
  // TiDB's write conflicts (its documentation: the whole transaction can be retried).
  for (const unsigned tidb : {8002U, 8005U, 9007U}) {
    EXPECT_EQ(mysql::error_outcome(tidb, "HY000", "Write conflict").kind, outcome_kind::retryable)
        << tidb;
  }
  EXPECT_EQ(mysql::error_outcome(8004, "HY000", "Transaction too large").kind,
            outcome_kind::failed);
}

}  // namespace
