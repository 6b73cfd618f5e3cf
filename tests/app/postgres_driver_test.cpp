// SPDX-License-Identifier: Apache-2.0
// The PostgreSQL driver against a real, throwaway PostgreSQL server (app/tpcc/testing/
// postgres_server.hpp) on a Unix socket, driven from a 2-worker pool: typed rows, pipelined
// round trips, an error in the middle of a pipeline, a serialization failure between two
// sessions, a server restart under an open pool, pool exhaustion with cancellation, bad
// targets, and password redaction. Each test process starts its own server (about a second).
#include "driver/postgres/postgres.hpp"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "driver/database.hpp"
#include "driver/open.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "support/running_pool.hpp"
#include "testing/postgres_server.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
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
using tpcc::testing::postgres_server;
namespace postgres = tpcc::driver::postgres;

constexpr statement typed_row{
    "typed_row",
    "SELECT 1::int2, 2::int4, 3::int8, 4::oid, 1.5::float4, 2.25::float8, 3.125::numeric, "
    "'text'::text, NULL::int4, true, DATE '2024-02-29'"};
constexpr statement echo{"echo", "SELECT $1::int8 + 1, $2::text, $3::float8, $4::int4 IS NULL"};
constexpr statement select_one{"select_one", "SELECT 1"};
constexpr statement insert_row{"insert_row", "INSERT INTO t (id, v) VALUES ($1, $2)"};
constexpr statement read_row{"read_row", "SELECT v FROM t WHERE id = $1"};
constexpr statement bump_row{"bump_row", "UPDATE t SET v = v + 1 WHERE id = $1"};
constexpr statement count_rows{"count_rows", "SELECT count(*) FROM t"};
// An hour: a call on it that ends within a test's timeout was ended by something else.
constexpr statement sleep_long{"sleep_long", "SELECT pg_sleep(3600)"};
// The server runs sleep_long for another session now.
constexpr const char* sleep_long_running =
    "SELECT count(*) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(3600)%' "
    "AND pid <> pg_backend_pid()";
constexpr statement raise_as{"raise_as", "SELECT raise_as($1, $2)"};
constexpr statement end_own_session{"end_own_session",
                                    "SELECT pg_terminate_backend(pg_backend_pid())"};

template <class T>
task<T> on_pool(shoal::thread_pool& pool, task<T> body) {
  co_await pool.schedule();
  co_return co_await std::move(body);
}

// Built in plain functions, never with braces inside coroutines: g++ 12 rejects an initializer
// list of non-trivial elements in a coroutine, and destroys an aggregate temporary in a co_await
// expression twice.
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

template <class... Calls>
std::vector<call> batch(Calls... calls) {
  std::vector<call> out;
  (out.push_back(std::move(calls)), ...);
  return out;
}

task<open_result> open_target(std::string target, std::size_t connections = 1,
                              isolation level = isolation::read_committed) {
  return postgres::open({.target = std::move(target), .connections = connections, .level = level});
}

task<open_result> open_with_timeout(std::string target, std::chrono::milliseconds timeout) {
  return postgres::open({.target = std::move(target), .connect_timeout = timeout});
}

class postgres_driver : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!postgres_server::available()) {
      GTEST_SKIP() << "PostgreSQL server binaries not found (set SHOAL_PG_BIN or install the "
                      "postgresql package): skipping the PostgreSQL driver tests";
    }
    server_ = std::make_unique<postgres_server>();
    server_->sql("CREATE TABLE t (id int PRIMARY KEY, v int NOT NULL)");
  }

  template <class T>
  T run(task<T> body) {
    return shoal::sync_wait(on_pool(workers_.pool, std::move(body)));
  }

  task<open_result> open_pool(std::size_t connections = 2,
                              isolation level = isolation::read_committed) const {
    return open_target(server_->conninfo(), connections, level);
  }

  static std::unique_ptr<database> take(open_result opened) {
    if (auto* failure = std::get_if<outcome>(&opened)) {
      ADD_FAILURE() << "open failed: " << failure->message;
      return nullptr;
    }
    return std::move(std::get<std::unique_ptr<database>>(opened));
  }

  std::unique_ptr<postgres_server> server_;
  shoal::testing::running_pool workers_{2};
};

TEST_F(postgres_driver, ConnectsAndReturnsTypedRows) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool());
    {
      lease l = co_await db->acquire();
      EXPECT_TRUE(l);
      EXPECT_TRUE((co_await l->begin()).ok());
      statement_result r = co_await l->execute(typed_row, values());
      EXPECT_TRUE(r.ok()) << r.status.message;
      EXPECT_EQ(r.rows.size(), 1U);
      const auto& row = r.rows.at(0);
      EXPECT_EQ(row.int_at(0), 1);
      EXPECT_EQ(row.int_at(1), 2);
      EXPECT_EQ(row.int_at(2), 3);
      EXPECT_EQ(row.int_at(3), 4);
      EXPECT_DOUBLE_EQ(row.number_at(4), 1.5);
      EXPECT_DOUBLE_EQ(row.number_at(5), 2.25);
      EXPECT_DOUBLE_EQ(row.number_at(6), 3.125);
      EXPECT_EQ(row.text_at(7), std::string("text"));
      EXPECT_TRUE(row.null_at(8));
      EXPECT_EQ(row.text_at(9), std::string("t"));
      EXPECT_EQ(row.text_at(10), std::string("2024-02-29"));
      statement_result e =
          co_await l->execute(echo, values(std::int64_t{41}, std::string("it's"), 0.1, value{}));
      EXPECT_TRUE(e.ok()) << e.status.message;
      EXPECT_EQ(e.rows.at(0).int_at(0), 42);
      EXPECT_EQ(e.rows.at(0).text_at(1), std::string("it's"));
      EXPECT_DOUBLE_EQ(e.rows.at(0).number_at(2), 0.1);
      EXPECT_EQ(e.rows.at(0).text_at(3), std::string("t"));
      EXPECT_TRUE((co_await l->commit()).ok());
    }
    co_await db->close();
  }());
}

// An ERROR as a coordinator relays it (Citus: 08006 for a worker it cannot reach), raised here
// by a function: what each SQLSTATE and message is classified as; the session stays usable.
struct relayed {
  const char* sqlstate;
  const char* message;
  outcome_kind expected;
};

task<void> expect_relayed(lease& l, const relayed& r) {
  EXPECT_TRUE((co_await l->begin()).ok());
  const statement_result got =
      co_await l->execute(raise_as, values(std::string(r.sqlstate), std::string(r.message)));
  EXPECT_EQ(got.status.kind, r.expected) << r.sqlstate << " " << got.status.message;
  EXPECT_EQ(got.status.sqlstate, r.sqlstate);
  if (r.expected == outcome_kind::node_lost) {
    EXPECT_TRUE(got.status.message.starts_with("the database reported a lost node: "))
        << got.status.message;
  }
  co_await l->rollback();
  EXPECT_TRUE(l->healthy()) << r.sqlstate;
  EXPECT_TRUE((co_await l->begin()).ok());
  EXPECT_TRUE((co_await l->execute(select_one, values())).ok()) << "usable after " << r.sqlstate;
  EXPECT_TRUE((co_await l->commit()).ok());
}

TEST_F(postgres_driver, ARelayedLostNodeIsNodeLostAndTheClientConnectionStays) {
  server_->sql(
      "CREATE FUNCTION raise_as(state text, msg text) RETURNS int LANGUAGE plpgsql AS "
      "$$ BEGIN RAISE EXCEPTION USING ERRCODE = state, MESSAGE = msg; END $$");
  const std::vector<relayed> cases{
      {"08006", "connection to the remote node h:5432 failed", outcome_kind::node_lost},
      {"57P01", "terminating connection due to administrator command", outcome_kind::node_lost},
      {"XX000", "server closed the connection unexpectedly", outcome_kind::node_lost},
      {"XX000", "could not establish any connections to the node h:5432", outcome_kind::node_lost},
      {"XX000", "cache lookup failed for relation 42", outcome_kind::failed},
      {"22012", "division by zero", outcome_kind::failed},
  };
  run([&]() -> task<void> {
    auto db = take(co_await open_pool(1));
    {
      lease l = co_await db->acquire();
      for (const relayed& r : cases) co_await expect_relayed(l, r);
    }
    co_await db->close();
  }());
}

TEST_F(postgres_driver, TheServerEndingTheSessionIsConnectionLost) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool(1));
    {
      lease l = co_await db->acquire();
      EXPECT_TRUE((co_await l->begin()).ok());
      const statement_result got = co_await l->execute(end_own_session, values());
      EXPECT_EQ(got.status.kind, outcome_kind::connection_lost) << got.status.message;
      EXPECT_TRUE(got.status.message.starts_with("connection to the server lost: "))
          << got.status.message;
      EXPECT_FALSE(l->healthy());
    }
    co_await db->close();
  }());
}

TEST_F(postgres_driver, PipelinedBatchIsOneRoundTrip) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool());
    {
      lease l = co_await db->acquire();
      const std::uint64_t before = l->round_trips();
      EXPECT_TRUE((co_await l->begin()).ok());
      std::vector<call> calls;
      calls.reserve(8);
      for (std::int64_t i = 0; i < 8; ++i) calls.push_back(make(echo, i, std::string("x"), 1.0, i));
      // BEGIN, eight PREPAREs... no: one PREPARE (same statement), eight executions.
      auto results = co_await l->execute_batch(calls, then::nothing);
      EXPECT_EQ(l->round_trips() - before, 1U);
      EXPECT_EQ(results.size(), 8U);
      for (std::size_t i = 0; i < results.size(); ++i) {
        EXPECT_TRUE(results[i].ok()) << results[i].status.message;
        EXPECT_EQ(results[i].rows.at(0).int_at(0), static_cast<std::int64_t>(i) + 1);
      }
      EXPECT_TRUE((co_await l->commit()).ok());
      EXPECT_EQ(l->round_trips() - before, 2U);
    }
    co_await db->close();
  }());
}

TEST_F(postgres_driver, BeginBatchAndCommitTakeAtMostTwoRoundTrips) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool());
    {
      lease l = co_await db->acquire();
      const std::uint64_t before = l->round_trips();
      EXPECT_TRUE((co_await l->begin()).ok());
      const std::vector<call> calls =
          batch(make(insert_row, std::int64_t{1}, std::int64_t{10}),
                make(insert_row, std::int64_t{2}, std::int64_t{20}), make(count_rows));
      auto results = co_await l->execute_batch(calls, then::commit);
      EXPECT_LE(l->round_trips() - before, 2U);
      EXPECT_EQ(results.size(), 4U);  // three statements and the commit
      for (const auto& r : results) EXPECT_TRUE(r.ok()) << r.status.message;
      EXPECT_EQ(results[0].affected, 1);
      EXPECT_EQ(results[2].rows.at(0).int_at(0), 2);
    }
    co_await db->close();
  }());
  EXPECT_EQ(server_->sql("SELECT count(*) FROM t"), std::string("2\n"));
}

TEST_F(postgres_driver, ErrorInThePipelineReportsItsSqlstateAndSkipsTheRest) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool(1));
    {
      lease l = co_await db->acquire();
      EXPECT_TRUE((co_await l->begin()).ok());
      const std::vector<call> calls = batch(make(insert_row, std::int64_t{1}, std::int64_t{10}),
                                            make(insert_row, std::int64_t{1}, std::int64_t{11}),
                                            make(insert_row, std::int64_t{2}, std::int64_t{20}));
      auto results = co_await l->execute_batch(calls, then::commit);
      EXPECT_EQ(results.size(), 4U);
      EXPECT_TRUE(results[0].ok());
      for (std::size_t i = 1; i < results.size(); ++i) {
        EXPECT_EQ(results[i].status.kind, outcome_kind::failed);
        EXPECT_EQ(results[i].status.sqlstate, std::string("23505")) << results[i].status.message;
      }
      // A later statement of the same transaction repeats the failure without running.
      const std::uint64_t trips = l->round_trips();
      statement_result later = co_await l->execute(select_one, values());
      EXPECT_EQ(later.status.sqlstate, std::string("23505"));
      EXPECT_EQ(l->round_trips(), trips);
      EXPECT_TRUE((co_await l->rollback()).ok());
      EXPECT_EQ(l->round_trips(), trips + 1);
      EXPECT_TRUE(l->healthy());
      // The session is reusable.
      EXPECT_TRUE((co_await l->begin()).ok());
      const std::vector<call> next =
          batch(make(insert_row, std::int64_t{3}, std::int64_t{30}), make(count_rows));
      auto again = co_await l->execute_batch(next, then::commit);
      for (const auto& r : again) EXPECT_TRUE(r.ok()) << r.status.message;
      EXPECT_EQ(again[1].rows.at(0).int_at(0), 1);
    }
    co_await db->close();
  }());
  EXPECT_EQ(server_->sql("SELECT string_agg(id::text, ',') FROM t"), std::string("3\n"));
}

TEST_F(postgres_driver, ErrorAfterAFlushIsRolledBackAndTheSessionReused) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool(1));
    {
      lease l = co_await db->acquire();
      EXPECT_TRUE((co_await l->begin()).ok());
      EXPECT_TRUE((co_await l->execute(insert_row, values(std::int64_t{1}, std::int64_t{1}))).ok());
      statement_result dup =
          co_await l->execute(insert_row, values(std::int64_t{1}, std::int64_t{1}));
      EXPECT_EQ(dup.status.sqlstate, std::string("23505"));
      outcome committed = co_await l->commit();  // commit of a failed transaction rolls back
      EXPECT_EQ(committed.sqlstate, std::string("23505"));
      EXPECT_TRUE((co_await l->begin()).ok());
      statement_result count = co_await l->execute(count_rows, values());
      EXPECT_TRUE(count.ok()) << count.status.message;
      EXPECT_EQ(count.rows.at(0).int_at(0), 0);
      EXPECT_TRUE((co_await l->commit()).ok());
    }
    co_await db->close();
  }());
}

TEST_F(postgres_driver, SerializationFailureBetweenTwoSessionsIsRetryable) {
  server_->sql("INSERT INTO t VALUES (1, 0)");
  run([&]() -> task<void> {
    auto db = take(co_await open_pool(2, isolation::serializable));
    {
      lease first = co_await db->acquire();
      lease second = co_await db->acquire();
      EXPECT_TRUE((co_await first->begin()).ok());
      EXPECT_TRUE((co_await first->execute(read_row, values(std::int64_t{1}))).ok());  // snapshot
      EXPECT_TRUE((co_await second->begin()).ok());
      const std::vector<call> bump = batch(make(bump_row, std::int64_t{1}));
      auto other = co_await second->execute_batch(bump, then::commit);
      for (const auto& r : other) EXPECT_TRUE(r.ok()) << r.status.message;
      statement_result conflict = co_await first->execute(bump_row, values(std::int64_t{1}));
      EXPECT_EQ(conflict.status.kind, outcome_kind::retryable) << conflict.status.message;
      EXPECT_EQ(conflict.status.sqlstate, std::string("40001"));
      EXPECT_TRUE((co_await first->rollback()).ok());
      // The retry succeeds.
      EXPECT_TRUE((co_await first->begin()).ok());
      const std::vector<call> bump_and_read =
          batch(make(bump_row, std::int64_t{1}), make(read_row, std::int64_t{1}));
      auto retried = co_await first->execute_batch(bump_and_read, then::commit);
      for (const auto& r : retried) EXPECT_TRUE(r.ok()) << r.status.message;
      EXPECT_EQ(retried[1].rows.at(0).int_at(0), 2);
    }
    co_await db->close();
  }());
}

TEST_F(postgres_driver, CancelledCallClosesTheConnectionAndReportsConnectionLost) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool(1));
    {
      lease l = co_await db->acquire();
      EXPECT_TRUE((co_await l->begin()).ok());
      std::stop_source stop;
      std::jthread stopper([&] {  // once the server runs the hour's sleep
        EXPECT_TRUE(shoal::testing::eventually([&] {
          return server_->sql(sleep_long_running) == "1\n";
        })) << "the sleep never ran";
        stop.request_stop();
      });
      statement_result r =
          co_await shoal::with_stop_token(stop.get_token(), l->execute(sleep_long, values()));
      // Ended by the stop: an hour's sleep that ran out would have succeeded.
      EXPECT_EQ(r.status.kind, outcome_kind::connection_lost) << r.status.message;
      EXPECT_FALSE(l->healthy());
      // A call not yet started under a stopped token fails at once.
      statement_result refused =
          co_await shoal::with_stop_token(stop.get_token(), l->execute(select_one, values()));
      EXPECT_EQ(refused.status.kind, outcome_kind::failed);
      EXPECT_EQ(refused.status.message, std::string("cancelled"));
    }
    // The broken session was replaced: the pool works again.
    lease l = co_await db->acquire();
    EXPECT_TRUE(l);
    if (l) {
      EXPECT_TRUE((co_await l->begin()).ok());
      EXPECT_TRUE((co_await l->execute(select_one, values())).ok());
      EXPECT_TRUE((co_await l->commit()).ok());
    }
    l = lease();
    EXPECT_GE(db->stats().replaced, 1U);
    co_await db->close();
  }());
}

// One transaction; its outcome.
task<outcome> one_transaction(database& db) {
  lease l = co_await db.acquire();
  if (!l) co_return l.status();
  outcome begun = co_await l->begin();
  if (!begun.ok()) co_return begun;
  const std::vector<call> one = batch(make(select_one));
  auto results = co_await l->execute_batch(one, then::commit);
  for (auto& r : results) {
    if (!r.ok()) {
      co_await l->rollback();
      co_return r.status;
    }
  }
  co_return outcome::success();
}

TEST_F(postgres_driver, ServerRestartUnderAnOpenPoolLosesInFlightWorkAndThePoolRecovers) {
  auto opened = run(open_pool(4));
  std::unique_ptr<database> db = take(std::move(opened));
  ASSERT_TRUE(db);
  std::atomic<int> in_flight_kind{-1};
  workers_.pool.spawn([](database& pool, std::atomic<int>& kind) -> task<void> {
    lease l = co_await pool.acquire();
    co_await l->begin();
    statement_result r = co_await l->execute(sleep_long, values());
    kind.store(static_cast<int>(r.status.kind));
  }(*db, in_flight_kind));
  EXPECT_TRUE(shoal::testing::eventually([&] { return server_->sql(sleep_long_running) == "1\n"; }))
      << "the sleep never ran";
  server_->restart();
  EXPECT_TRUE(shoal::testing::eventually([&] { return in_flight_kind.load() >= 0; }));
  EXPECT_EQ(in_flight_kind.load(), static_cast<int>(outcome_kind::connection_lost));

  // Transactions fail with connection_lost while the pool replaces its sessions, then succeed.
  int successes = 0;
  int attempts = 0;
  for (; attempts < 200 && successes < 10; ++attempts) {
    outcome o = run(one_transaction(*db));
    if (o.ok()) {
      ++successes;
    } else {
      EXPECT_EQ(o.kind, outcome_kind::connection_lost) << o.message;
      std::this_thread::sleep_for(50ms);
    }
  }
  EXPECT_EQ(successes, 10) << "after " << attempts << " attempts";
  EXPECT_GE(db->stats().replaced, 1U);
  run(db->close());
}

TEST_F(postgres_driver, PoolExhaustionWaiterCancelledByItsStopTokenLeavesTheQueue) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool(1));
    {
      lease held = co_await db->acquire();
      EXPECT_TRUE(held);
      std::stop_source stop;
      std::atomic<bool> done{false};
      lease cancelled;
      shoal::thread_pool& pool = *shoal::thread_pool::current();
      pool.spawn([](database& d, std::stop_token token, lease& out,
                    std::atomic<bool>& finished) -> task<void> {
        out = co_await shoal::with_stop_token(std::move(token), d.acquire());
        finished.store(true);
      }(*db, stop.get_token(), cancelled, done));
      for (int i = 0; i < 1000 && db->stats().waiting == 0; ++i) co_await shoal::sleep_for(1ms);
      EXPECT_EQ(db->stats().waiting, 1U);
      stop.request_stop();
      for (int i = 0; i < 1000 && !done.load(); ++i) co_await shoal::sleep_for(1ms);
      EXPECT_TRUE(done.load());
      EXPECT_FALSE(cancelled);
      EXPECT_EQ(cancelled.status().message, std::string("cancelled"));
      EXPECT_EQ(db->stats().waiting, 0U);
      held = lease();
      lease next = co_await db->acquire();  // the session went back, not to the cancelled waiter
      EXPECT_TRUE(next);
      EXPECT_EQ(db->stats().in_use, 1U);
    }
    co_await db->close();
  }());
}

TEST_F(postgres_driver, WaitersAreServedFirstComeFirstServedWithTheirWaitMeasured) {
  run([&]() -> task<void> {
    auto db = take(co_await open_pool(1));
    {
      lease held = co_await db->acquire();
      std::vector<int> order;
      std::atomic<int> finished{0};
      std::mutex order_mutex;
      shoal::thread_pool& pool = *shoal::thread_pool::current();
      for (int k = 0; k < 3; ++k) {
        pool.spawn([](database& d, int id, std::vector<int>& seen, std::mutex& m,
                      std::atomic<int>& count) -> task<void> {
          lease l = co_await d.acquire();
          EXPECT_GT(l.waited(), 0ns);
          {
            std::scoped_lock lock(m);
            seen.push_back(id);
          }
          co_await shoal::sleep_for(5ms);
          count.fetch_add(1);
        }(*db, k, order, order_mutex, finished));
        // Queue them one after another.
        for (int i = 0; i < 1000 && db->stats().waiting != static_cast<std::size_t>(k) + 1; ++i) {
          co_await shoal::sleep_for(1ms);
        }
      }
      held = lease();
      for (int i = 0; i < 2000 && finished.load() < 3; ++i) co_await shoal::sleep_for(1ms);
      std::scoped_lock lock(order_mutex);
      EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
    }
    co_await db->close();
  }());
}

TEST_F(postgres_driver, BadConnectionStringGivesAClearMessage) {
  open_result r = run(postgres::open({.target = "host=/tmp dbname password=hunter2"}));
  ASSERT_TRUE(std::holds_alternative<outcome>(r));
  const outcome& o = std::get<outcome>(r);
  EXPECT_EQ(o.kind, outcome_kind::failed);
  EXPECT_NE(o.message.find("not a valid PostgreSQL connection string"), std::string::npos)
      << o.message;
  EXPECT_EQ(o.message.find("hunter2"), std::string::npos) << o.message;
}

TEST_F(postgres_driver, WrongHostGivesAClearMessageNamingIt) {
  open_result r = run(postgres::open(
      {.target = "host=/nonexistent-shoal-dir port=5432 user=postgres password=hunter2"}));
  ASSERT_TRUE(std::holds_alternative<outcome>(r));
  const outcome& o = std::get<outcome>(r);
  EXPECT_EQ(o.kind, outcome_kind::connection_lost);
  EXPECT_NE(o.message.find("cannot connect to"), std::string::npos) << o.message;
  EXPECT_NE(o.message.find("/nonexistent-shoal-dir"), std::string::npos) << o.message;
  EXPECT_EQ(o.message.find("hunter2"), std::string::npos) << o.message;

  open_result refused = run(postgres::open({.target = "postgresql://u:hunter2@127.0.0.1:1/db"}));
  ASSERT_TRUE(std::holds_alternative<outcome>(refused));
  EXPECT_EQ(std::get<outcome>(refused).kind, outcome_kind::connection_lost);
  EXPECT_NE(std::get<outcome>(refused).message.find("127.0.0.1"), std::string::npos);
  EXPECT_EQ(std::get<outcome>(refused).message.find("hunter2"), std::string::npos);
}

TEST_F(postgres_driver, ServerThatNeverAnswersTimesOut) {
  // A Unix socket that accepts connections into its backlog and never says a word.
  const std::string path = server_->socket_dir() + "/.s.PGSQL.6543";
  const int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  std::strncpy(address.sun_path, path.c_str(), sizeof(address.sun_path) - 1);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(::listen(listener, 8), 0);
  const auto started = std::chrono::steady_clock::now();
  open_result r =
      run(open_with_timeout("host=" + server_->socket_dir() + " port=6543 user=postgres", 300ms));
  const auto took = std::chrono::steady_clock::now() - started;
  ::close(listener);
  ASSERT_TRUE(std::holds_alternative<outcome>(r));
  EXPECT_EQ(std::get<outcome>(r).kind, outcome_kind::connection_lost);
  EXPECT_NE(std::get<outcome>(r).message.find("timed out after 300 ms"), std::string::npos)
      << std::get<outcome>(r).message;
  EXPECT_GE(took, 300ms);  // never before its time; only the timeout can end a silent server
}

TEST_F(postgres_driver, WrongPasswordIsRefusedAndNeverPrinted) {
  const std::string user = postgres_server::password_user();
  for (const std::string& target :
       {server_->uri(user, "wrong-Pa55"), server_->conninfo(user) + " password=wrong-Pa55"}) {
    open_result r = run(postgres::open({.target = target}));
    ASSERT_TRUE(std::holds_alternative<outcome>(r)) << redact(target);
    const outcome& o = std::get<outcome>(r);
    EXPECT_EQ(o.kind, outcome_kind::failed);
    EXPECT_NE(o.message.find("password authentication failed"), std::string::npos) << o.message;
    EXPECT_NE(o.message.find("***"), std::string::npos) << o.message;
    EXPECT_EQ(o.message.find("wrong-Pa55"), std::string::npos) << o.message;
  }
  // The right one works, and describe() does not show it either.
  run([&]() -> task<void> {
    auto db = take(co_await open_target(server_->uri(user, postgres_server::password())));
    if (!db) co_return;
    EXPECT_EQ(db->describe().find(postgres_server::password()), std::string::npos);
    EXPECT_TRUE((co_await one_transaction(*db)).ok());
    co_await db->close();
  }());
}

TEST(postgres_redact, HidesTheUriPasswordAndKeepsTheRest) {
  EXPECT_EQ(redact("postgresql://alice:s3cr%40t@db.example:5433/tpcc?sslmode=require"),
            "postgresql://alice:***@db.example:5433/tpcc?sslmode=require");
  EXPECT_EQ(redact("postgres://alice@db/tpcc?password=s3cret&sslmode=verify-full"),
            "postgres://alice@db/tpcc?password=***&sslmode=verify-full");
  EXPECT_EQ(redact("postgresql://alice@db/tpcc"), std::string("postgresql://alice@db/tpcc"));
  EXPECT_EQ(redact("postgresql://db"), std::string("postgresql://db"));
  const std::string raw_at = redact("postgresql://bob:p@ss@db/x");
  EXPECT_EQ(raw_at.find("p@ss"), std::string::npos) << raw_at;
}

TEST(postgres_redact, HidesTheKeyValuePasswordQuotedOrNot) {
  EXPECT_EQ(redact("host=db user=alice password=s3cret dbname=tpcc"),
            "host=db user=alice password=*** dbname=tpcc");
  EXPECT_EQ(redact("host=db password = 'it\\'s a secret' sslmode=require"),
            "host=db password = *** sslmode=require");
  EXPECT_EQ(redact("password=s3cret"), std::string("password=***"));
  EXPECT_EQ(redact("host=db dbname=tpcc"), std::string("host=db dbname=tpcc"));
  EXPECT_EQ(redact("sqlite:/tmp/x.db"), std::string("sqlite:/tmp/x.db"));
  // A word without '=' is hidden too: it may be the rest of a password typed with a space.
  EXPECT_EQ(redact("host=db dbname password=s3cret"), std::string("host=db *** password=***"));
  EXPECT_EQ(redact("host=db password s3cret"), std::string("host=db *** ***"));
  EXPECT_EQ(redact("host=db password=two words dbname=x"),
            std::string("host=db password=*** *** dbname=x"));
  const std::string unterminated = redact("host=db password='s3cret");
  EXPECT_EQ(unterminated.find("s3cret"), std::string::npos) << unterminated;
}

}  // namespace
