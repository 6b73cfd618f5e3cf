// SPDX-License-Identifier: Apache-2.0
// session::copy on the PostgreSQL driver, against a real throwaway server (tests/support/
// postgres_server.hpp): exact values through COPY's text format, commit and rollback, a missing
// table and a duplicate key, statements in pipeline mode after a copy, a 20,000-row batch,
// cancellation while the server makes the copy wait, and a connection killed under a copy.
// The text encoding itself is checked without a server.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "driver/bulk.hpp"
#include "driver/database.hpp"
#include "driver/postgres/copy_text.hpp"
#include "driver/postgres/postgres.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "support/running_pool.hpp"
#include "testing/postgres_server.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using tpcc::driver::bulk_rows;
using tpcc::driver::call;
using tpcc::driver::database;
using tpcc::driver::lease;
using tpcc::driver::open_result;
using tpcc::driver::outcome;
using tpcc::driver::outcome_kind;
using tpcc::driver::statement;
using tpcc::driver::statement_result;
using tpcc::driver::then;
using tpcc::driver::value;
using tpcc::testing::postgres_server;
namespace postgres = tpcc::driver::postgres;

constexpr std::int64_t biggest = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t smallest = std::numeric_limits<std::int64_t>::min();
const std::string awkward = "tab\there\nnew line\\back\rcr";

constexpr std::array<std::string_view, 6> c_columns{"id",    "label", "amount",
                                                    "price", "big",   "note"};
constexpr std::array<std::string_view, 5> s_columns{"s_i_id", "s_w_id", "s_quantity", "s_dist_01",
                                                    "s_data"};
constexpr statement read_c{"read_c",
                           "SELECT id, label, amount, price, big, note FROM c ORDER BY id"};
constexpr statement count_c{"count_c", "SELECT count(*) FROM c"};
constexpr statement insert_c{"insert_c", "INSERT INTO c (id, label) VALUES ($1, $2)"};
constexpr statement sum_s{"sum_s", "SELECT count(*), sum(s_quantity), max(s_i_id) FROM s"};
constexpr statement backend_pid{"backend_pid", "SELECT pg_backend_pid()"};
constexpr statement lock_c{"lock_c", "LOCK TABLE c IN ACCESS EXCLUSIVE MODE"};

// Rows are built in plain functions: g++ 12 mishandles initializer lists inside coroutines.
bulk_rows c_rows() {
  bulk_rows rows{.table = "c", .columns = c_columns, .values = {}};
  auto add = [&rows](std::int64_t id, value label, double amount, double price, std::int64_t big,
                     value note) {
    rows.values.emplace_back(id);
    rows.values.push_back(std::move(label));
    rows.values.emplace_back(amount);
    rows.values.emplace_back(price);
    rows.values.emplace_back(big);
    rows.values.push_back(std::move(note));
  };
  add(1, std::string("plain"), -1234.5678, -9.99, biggest, std::monostate{});
  add(2, awkward, 0.1, 0.0, smallest, std::string("x"));
  add(3, std::string(), 1e-300, 12345678.91, 0, std::string("\\N"));
  add(4, std::string("d\xc3\xa9j\xc3\xa0 vu"), 6.02214076e23, 0.5, -1, std::monostate{});
  return rows;
}

bulk_rows c_row(std::int64_t id) {
  bulk_rows rows{.table = "c", .columns = c_columns, .values = {}};
  rows.values.emplace_back(id);
  rows.values.emplace_back(std::string("one"));
  for (int i = 0; i < 4; ++i) rows.values.emplace_back(std::monostate{});
  return rows;
}

bulk_rows s_rows(std::int64_t count) {
  bulk_rows rows{.table = "s", .columns = s_columns, .values = {}};
  rows.values.reserve(static_cast<std::size_t>(count) * s_columns.size());
  for (std::int64_t i = 1; i <= count; ++i) {
    rows.values.emplace_back(i);
    rows.values.emplace_back(std::int64_t{1});
    rows.values.emplace_back(10 + i % 91);
    rows.values.emplace_back(std::string(24, static_cast<char>('a' + i % 26)));
    std::string data = "data-";  // appended, not concatenated: g++ 12 -O3 misreads the latter
    data += std::to_string(i);
    data.append(40, 'z');
    rows.values.emplace_back(std::move(data));
  }
  return rows;
}

std::vector<value> no_values() { return {}; }

std::vector<value> values(value v) {
  std::vector<value> out;
  out.push_back(std::move(v));
  return out;
}

std::vector<value> two_values(value a, value b) {
  std::vector<value> out = values(std::move(a));
  out.push_back(std::move(b));
  return out;
}

std::vector<call> insert_then_count(std::int64_t id) {
  std::vector<call> out;
  out.push_back({&insert_c, two_values(id, std::string("batched"))});
  out.push_back({&count_c, no_values()});
  return out;
}

std::int64_t sum_of_quantities(std::int64_t count) {
  std::int64_t sum = 0;
  for (std::int64_t i = 1; i <= count; ++i) sum += 10 + i % 91;
  return sum;
}

template <class T>
task<T> on_pool(shoal::thread_pool& pool, task<T> body) {
  co_await pool.schedule();
  co_return co_await std::move(body);
}

using body_fn = task<void> (*)(database&, const postgres_server&);

// A plain function: g++ 12 destroys an aggregate temporary in a co_await expression twice.
task<open_result> open_target(std::string target, std::size_t connections) {
  return postgres::open({.target = std::move(target), .connections = connections});
}

task<void> open_and_run(std::string target, std::size_t connections, body_fn body,
                        const postgres_server& server) {
  open_result opened = co_await open_target(std::move(target), connections);
  auto* db = std::get_if<std::unique_ptr<database>>(&opened);
  if (db == nullptr) {
    ADD_FAILURE() << "open failed: " << std::get<outcome>(opened).message;
    co_return;
  }
  co_await body(**db, server);
  co_await (*db)->close();
}

class postgres_copy : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!postgres_server::available()) {
      GTEST_SKIP() << "PostgreSQL server binaries not found (set SHOAL_PG_BIN or install the "
                      "postgresql package): skipping the PostgreSQL copy tests";
    }
    server_ = std::make_unique<postgres_server>();
    server_->sql(
        "CREATE TABLE c (id bigint PRIMARY KEY, label text, amount float8, price numeric(12,2), "
        "big bigint, note text); "
        "CREATE TABLE s (s_i_id int, s_w_id int, s_quantity int, s_dist_01 char(24), "
        "s_data varchar(50), PRIMARY KEY (s_w_id, s_i_id))");
  }

  void run(body_fn body, std::size_t connections = 1) {
    shoal::sync_wait(
        on_pool(workers_.pool, open_and_run(server_->conninfo(), connections, body, *server_)));
  }

  std::unique_ptr<postgres_server> server_;
  shoal::testing::running_pool workers_{2};
};

// Checks the four rows of c_rows() as read back through the driver.
void expect_c_rows(const statement_result& r) {
  EXPECT_TRUE(r.ok()) << r.status.message;
  EXPECT_EQ(r.rows.size(), 4U);
  if (r.rows.size() != 4) return;
  EXPECT_EQ(r.rows[0].text_at(1), "plain");
  EXPECT_EQ(r.rows[0].number_at(2), -1234.5678);
  EXPECT_EQ(r.rows[0].number_at(3), -9.99);
  EXPECT_EQ(r.rows[0].int_at(4), biggest);
  EXPECT_TRUE(r.rows[0].null_at(5));
  EXPECT_EQ(r.rows[1].text_at(1), awkward);
  EXPECT_EQ(r.rows[1].number_at(2), 0.1);
  EXPECT_EQ(r.rows[1].int_at(4), smallest);
  EXPECT_EQ(r.rows[2].text_at(1), "");  // empty text, not NULL
  EXPECT_EQ(r.rows[2].number_at(2), 1e-300);
  EXPECT_EQ(r.rows[2].number_at(3), 12345678.91);
  EXPECT_EQ(r.rows[2].text_at(5), "\\N");  // the text backslash-N, not NULL
  EXPECT_EQ(r.rows[3].text_at(1), "d\xc3\xa9j\xc3\xa0 vu");
  EXPECT_EQ(r.rows[3].number_at(2), 6.02214076e23);
  EXPECT_EQ(r.rows[3].int_at(4), -1);
}

TEST(postgres_copy_text, EscapesTextAndPrintsNumbersInFull) {
  std::string out;
  tpcc::driver::postgres::append_copy_value(std::string("a\tb\nc\\d\re"), out);
  EXPECT_EQ(out, "a\\tb\\nc\\\\d\\re");
  out.clear();
  tpcc::driver::postgres::append_copy_value(value{}, out);
  EXPECT_EQ(out, "\\N");
  out.clear();
  tpcc::driver::postgres::append_copy_value(0.1, out);
  EXPECT_EQ(out, "0.1");
  out.clear();
  tpcc::driver::postgres::append_copy_value(smallest, out);
  EXPECT_EQ(out, "-9223372036854775808");
  std::string lines;
  const bulk_rows rows = c_rows();
  EXPECT_EQ(tpcc::driver::postgres::append_copy_rows(rows, 1, 1, lines), 2U);  // one row at least
  EXPECT_EQ(lines, "2\t" + std::string("tab\\there\\nnew line\\\\back\\rcr") +
                       "\t0.1\t0\t-9223372036854775808\tx\n");
}

task<void> copy_then_commit(database& db, const postgres_server& /*server*/) {
  lease l = co_await db.acquire();
  const outcome begun = co_await l->begin();
  EXPECT_TRUE(begun.ok());
  const std::uint64_t before = l->round_trips();
  const bulk_rows rows = c_rows();
  const outcome copied = co_await l->copy(rows);
  EXPECT_TRUE(copied.ok()) << copied.message;
  // The pending BEGIN with a sync point, COPY's start, the data and its result.
  EXPECT_EQ(l->round_trips() - before, 3U);
  const outcome committed = co_await l->commit();
  EXPECT_TRUE(committed.ok()) << committed.message;
  const statement_result r = co_await l->execute(read_c, no_values());
  expect_c_rows(r);
  const outcome done = co_await l->commit();
  EXPECT_TRUE(done.ok());
}

TEST_F(postgres_copy, CopyThenCommitMakesRowsVisibleWithExactValues) {
  run(copy_then_commit);
  EXPECT_EQ(server_->sql("SELECT count(*) FROM c WHERE note IS NULL"), "2\n");
  EXPECT_EQ(server_->sql("SELECT price FROM c WHERE id = 1"), "-9.99\n");
}

task<void> copy_then_rollback(database& db, const postgres_server& /*server*/) {
  lease l = co_await db.acquire();
  const outcome begun = co_await l->begin();
  EXPECT_TRUE(begun.ok());
  const bulk_rows rows = c_rows();
  const outcome copied = co_await l->copy(rows);
  EXPECT_TRUE(copied.ok()) << copied.message;
  const statement_result inside = co_await l->execute(count_c, no_values());
  EXPECT_EQ(inside.rows.at(0).int_at(0), 4);  // visible inside the transaction
  const outcome rolled = co_await l->rollback();
  EXPECT_TRUE(rolled.ok()) << rolled.message;
}

TEST_F(postgres_copy, CopyThenRollbackLeavesNothing) {
  run(copy_then_rollback);
  EXPECT_EQ(server_->sql("SELECT count(*) FROM c"), "0\n");
}

// After a failed copy: the transaction is aborted, rollback works, and the session copies again.
task<void> expect_usable_after(lease& l, const outcome& failure) {
  const statement_result later = co_await l->execute(count_c, no_values());
  EXPECT_EQ(later.status.sqlstate, failure.sqlstate);  // aborted: repeats the failure
  const outcome rolled = co_await l->rollback();
  EXPECT_TRUE(rolled.ok()) << rolled.message;
  EXPECT_TRUE(l->healthy());
  const outcome begun = co_await l->begin();
  EXPECT_TRUE(begun.ok());
  const bulk_rows one = c_row(100);
  const outcome copied = co_await l->copy(one);
  EXPECT_TRUE(copied.ok()) << copied.message;
  const outcome committed = co_await l->commit();
  EXPECT_TRUE(committed.ok()) << committed.message;
}

task<void> copy_into_missing_table(database& db, const postgres_server& /*server*/) {
  lease l = co_await db.acquire();
  const outcome begun = co_await l->begin();
  EXPECT_TRUE(begun.ok());
  bulk_rows rows = c_rows();
  rows.table = "no_such_table";
  const outcome copied = co_await l->copy(rows);
  EXPECT_EQ(copied.kind, outcome_kind::failed);
  EXPECT_EQ(copied.sqlstate, "42P01");
  EXPECT_NE(copied.message.find("no_such_table"), std::string::npos) << copied.message;
  co_await expect_usable_after(l, copied);
}

TEST_F(postgres_copy, CopyIntoAMissingTableFailsAndTheSessionStaysUsable) {
  run(copy_into_missing_table);
  EXPECT_EQ(server_->sql("SELECT string_agg(id::text, ',') FROM c"), "100\n");
}

task<void> copy_a_duplicate_key(database& db, const postgres_server& /*server*/) {
  lease l = co_await db.acquire();
  const outcome begun = co_await l->begin();
  EXPECT_TRUE(begun.ok());
  bulk_rows rows = s_rows(5000);
  rows.values.insert(rows.values.end(), rows.values.begin(), rows.values.begin() + 5);  // row 1
  const outcome copied = co_await l->copy(rows);
  EXPECT_EQ(copied.kind, outcome_kind::failed);
  EXPECT_EQ(copied.sqlstate, "23505") << copied.message;
  const outcome committed = co_await l->commit();  // a failed transaction's commit rolls back
  EXPECT_EQ(committed.sqlstate, "23505");
  const outcome again = co_await l->begin();
  EXPECT_TRUE(again.ok());
  const outcome refused = co_await l->copy(rows);
  EXPECT_EQ(refused.sqlstate, "23505");
  co_await expect_usable_after(l, refused);
}

TEST_F(postgres_copy, DuplicateKeyFailsTheCopyAndTheSessionStaysUsable) {
  run(copy_a_duplicate_key);
  EXPECT_EQ(server_->sql("SELECT count(*) FROM s"), "0\n");
  EXPECT_EQ(server_->sql("SELECT count(*) FROM c"), "1\n");
}

task<void> execute_after_copy(database& db, const postgres_server& /*server*/) {
  lease l = co_await db.acquire();
  const outcome begun = co_await l->begin();
  EXPECT_TRUE(begun.ok());
  const statement_result first =
      co_await l->execute(insert_c, two_values(std::int64_t{50}, std::string("before")));
  EXPECT_TRUE(first.ok()) << first.status.message;
  const bulk_rows rows = c_rows();
  const std::uint64_t before = l->round_trips();
  const outcome copied = co_await l->copy(rows);  // a Sync closes the INSERT's segment first
  EXPECT_TRUE(copied.ok()) << copied.message;
  EXPECT_EQ(l->round_trips() - before, 3U);
  const statement_result counted = co_await l->execute(count_c, no_values());
  EXPECT_TRUE(counted.ok()) << counted.status.message;
  EXPECT_EQ(counted.rows.at(0).int_at(0), 5);
  EXPECT_EQ(l->round_trips() - before, 4U);  // pipelined again: one round trip
  const bulk_rows more = c_row(60);
  const outcome second = co_await l->copy(more);  // no BEGIN or Sync pending after a statement
  EXPECT_TRUE(second.ok()) << second.message;
  const std::vector<call> calls = insert_then_count(70);
  const std::uint64_t batch_start = l->round_trips();
  std::vector<statement_result> results = co_await l->execute_batch(calls, then::commit);
  EXPECT_EQ(l->round_trips() - batch_start, 1U);
  EXPECT_EQ(results.size(), 3U);
  for (const statement_result& r : results) EXPECT_TRUE(r.ok()) << r.status.message;
  EXPECT_EQ(results.at(1).rows.at(0).int_at(0), 7);
}

TEST_F(postgres_copy, StatementsAfterACopyRunPipelinedInTheSameTransaction) {
  run(execute_after_copy);
  EXPECT_EQ(server_->sql("SELECT string_agg(id::text, ',' ORDER BY id) FROM c"),
            "1,2,3,4,50,60,70\n");
}

task<void> copy_twenty_thousand(database& db, const postgres_server& /*server*/) {
  lease l = co_await db.acquire();
  const outcome begun = co_await l->begin();
  EXPECT_TRUE(begun.ok());
  const bulk_rows rows = s_rows(20000);
  const outcome copied = co_await l->copy(rows);
  EXPECT_TRUE(copied.ok()) << copied.message;
  const outcome committed = co_await l->commit();
  EXPECT_TRUE(committed.ok()) << committed.message;
  const statement_result r = co_await l->execute(sum_s, no_values());
  EXPECT_TRUE(r.ok()) << r.status.message;
  EXPECT_EQ(r.rows.at(0).int_at(0), 20000);
  EXPECT_EQ(r.rows.at(0).int_at(1), sum_of_quantities(20000));
  EXPECT_EQ(r.rows.at(0).int_at(2), 20000);
  const outcome done = co_await l->commit();
  EXPECT_TRUE(done.ok());
}

TEST_F(postgres_copy, TwentyThousandRowsInOneCopy) {
  run(copy_twenty_thousand);
  EXPECT_EQ(server_->sql("SELECT s_dist_01 FROM s WHERE s_i_id = 27"), std::string(24, 'b') + "\n");
  EXPECT_EQ(server_->sql("SELECT s_data FROM s WHERE s_i_id = 12345"),
            "data-12345" + std::string(40, 'z') + "\n");
}

// A second session holds the table locked; the copy waits for it until stopped. The stop is
// requested once the server shows the copy waiting for the lock, and the lock is held until
// after the copy returned: the copy can end only by the stop.
task<void> cancel_a_waiting_copy(database& db, const postgres_server& server) {
  lease holder = co_await db.acquire();
  lease l = co_await db.acquire();
  const outcome held = co_await holder->begin();
  const statement_result locked = co_await holder->execute(lock_c, no_values());
  EXPECT_TRUE(held.ok() && locked.ok()) << locked.status.message;
  const outcome begun = co_await l->begin();
  EXPECT_TRUE(begun.ok());
  std::stop_source stop;
  std::jthread stopper([&stop, &server] {
    const bool waiting = shoal::testing::eventually(
        [&] { return server.sql("SELECT count(*) FROM pg_locks WHERE NOT granted") != "0\n"; });
    EXPECT_TRUE(waiting) << "the copy never waited for the lock";
    stop.request_stop();
  });
  const bulk_rows rows = c_rows();
  const outcome copied = co_await shoal::with_stop_token(stop.get_token(), l->copy(rows));
  EXPECT_EQ(copied.kind, outcome_kind::connection_lost) << copied.message;
  EXPECT_FALSE(l->healthy());
  const outcome refused = co_await shoal::with_stop_token(stop.get_token(), l->copy(rows));
  EXPECT_EQ(refused.message, "cancelled");
  const outcome released = co_await holder->rollback();
  EXPECT_TRUE(released.ok());
}

TEST_F(postgres_copy, StopRequestedWhileTheServerMakesTheCopyWaitClosesTheConnection) {
  run(cancel_a_waiting_copy, 2);
}

task<void> copy_on_a_killed_connection(database& db, const postgres_server& server) {
  lease l = co_await db.acquire();
  const outcome begun = co_await l->begin();
  EXPECT_TRUE(begun.ok());
  const statement_result pid = co_await l->execute(backend_pid, no_values());
  EXPECT_TRUE(pid.ok()) << pid.status.message;
  const std::string backend = std::to_string(pid.rows.at(0).int_at(0));
  server.sql("SELECT pg_terminate_backend(" + backend + ")");
  for (int i = 0; i < 500; ++i) {  // until the backend is gone
    if (server.sql("SELECT count(*) FROM pg_stat_activity WHERE pid = " + backend) == "0\n") break;
    std::this_thread::sleep_for(10ms);
  }
  const bulk_rows rows = s_rows(3000);
  const outcome copied = co_await l->copy(rows);
  EXPECT_EQ(copied.kind, outcome_kind::connection_lost) << copied.message;
  EXPECT_FALSE(l->healthy());
}

TEST_F(postgres_copy, CopyOnAKilledConnectionReportsConnectionLost) {
  run(copy_on_a_killed_connection);
  EXPECT_EQ(server_->sql("SELECT count(*) FROM s"), "0\n");
}

task<void> refuse_malformed_rows(database& db, const postgres_server& /*server*/) {
  lease l = co_await db.acquire();
  const outcome begun = co_await l->begin();
  EXPECT_TRUE(begun.ok());
  const std::uint64_t before = l->round_trips();
  bulk_rows bad_name = c_rows();
  bad_name.table = "c; DROP TABLE s";
  const outcome named = co_await l->copy(bad_name);
  EXPECT_EQ(named.kind, outcome_kind::failed);
  EXPECT_NE(named.message.find("not a plain name"), std::string::npos) << named.message;
  bulk_rows ragged = c_rows();
  ragged.values.pop_back();
  const outcome partial = co_await l->copy(ragged);
  EXPECT_NE(partial.message.find("whole rows"), std::string::npos) << partial.message;
  EXPECT_EQ(l->round_trips(), before);  // nothing was sent
  const outcome rolled = co_await l->rollback();
  EXPECT_TRUE(rolled.ok());
}

TEST_F(postgres_copy, MalformedRowsAreRefusedBeforeAnythingIsSent) {
  run(refuse_malformed_rows);
  EXPECT_EQ(server_->sql("SELECT count(*) FROM s"), "0\n");
}

}  // namespace
