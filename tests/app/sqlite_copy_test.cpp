// SPDX-License-Identifier: Apache-2.0
// session::copy on the SQLite driver, against real database files in a temporary directory:
// exact values, commit and rollback, a missing table and a duplicate key, statements after a
// copy in the same transaction, a copy outside a transaction (all or nothing), a 20,000-row
// batch as one job, and a stop requested before and during the call.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include "driver/bulk.hpp"
#include "driver/sqlite/sqlite.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "support/running_pool.hpp"
#include "support/temp_dir.hpp"

namespace {

using shoal::task;
using tpcc::driver::bulk_rows;
using tpcc::driver::outcome;
using tpcc::driver::outcome_kind;
using tpcc::driver::session;
using tpcc::driver::statement;
using tpcc::driver::statement_result;
using tpcc::driver::value;
namespace sqlite = tpcc::driver::sqlite;

constexpr std::int64_t biggest = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t smallest = std::numeric_limits<std::int64_t>::min();
const std::string awkward = "tab\there\nnew line\\back\rcr";

constexpr std::array<std::string_view, 5> c_columns{"id", "label", "amount", "big", "note"};
constexpr std::array<std::string_view, 5> quoted{"id", "label", "amount", "\"big\"", "note"};
constexpr statement create_c{
    "create_c",
    "CREATE TABLE c (id INTEGER PRIMARY KEY, label TEXT, amount REAL, big INTEGER, "
    "note TEXT)"};
constexpr statement read_c{"read_c", "SELECT id, label, amount, big, note FROM c ORDER BY id"};
constexpr statement count_c{"count_c", "SELECT count(*), coalesce(sum(id), 0) FROM c"};
constexpr statement insert_c{"insert_c", "INSERT INTO c (id, label) VALUES ($1, $2)"};

// Rows and parameters are built in plain functions: g++ 12 mishandles initializer lists inside
// coroutines.
void add_row(bulk_rows& rows, std::int64_t id, value label, double amount, std::int64_t big,
             value note) {
  rows.values.emplace_back(id);
  rows.values.push_back(std::move(label));
  rows.values.emplace_back(amount);
  rows.values.emplace_back(big);
  rows.values.push_back(std::move(note));
}

bulk_rows c_rows() {
  bulk_rows rows{.table = "c", .columns = c_columns, .values = {}};
  add_row(rows, 1, std::string("plain"), -1234.5678, biggest, std::monostate{});
  add_row(rows, 2, awkward, 0.1, smallest, std::string("x"));
  add_row(rows, 3, std::string(), 1e-300, 0, std::string("\\N"));
  return rows;
}

// Ids first..last, with `label` for each.
bulk_rows numbered(std::int64_t first, std::int64_t last) {
  bulk_rows rows{.table = "c", .columns = c_columns, .values = {}};
  rows.values.reserve(static_cast<std::size_t>(last - first + 1) * c_columns.size());
  for (std::int64_t i = first; i <= last; ++i) {
    add_row(rows, i, "row " + std::to_string(i), static_cast<double>(i) / 4, i * i, value{});
  }
  return rows;
}

std::vector<value> no_values() { return {}; }

std::vector<value> id_and_label(std::int64_t id, std::string label) {
  std::vector<value> out;
  out.emplace_back(id);
  out.emplace_back(std::move(label));
  return out;
}

task<std::unique_ptr<session>> with_table(std::string path) {
  sqlite::connect_result r = co_await sqlite::connect(std::move(path));
  if (auto* failure = std::get_if<outcome>(&r)) throw std::runtime_error(failure->message);
  std::unique_ptr<session> s = std::move(std::get<std::unique_ptr<session>>(r));
  const statement_result created = co_await s->execute(create_c, no_values());
  if (!created.ok()) throw std::runtime_error(created.status.message);
  co_return s;
}

// count(*) and sum(id) of c.
task<std::pair<std::int64_t, std::int64_t>> count(session& s) {
  const statement_result r = co_await s.execute(count_c, no_values());
  if (!r.ok() || r.rows.size() != 1) throw std::runtime_error("count failed: " + r.status.message);
  co_return std::pair(r.rows[0].int_at(0), r.rows[0].int_at(1));
}

using body_fn = task<void> (*)(session&);

task<void> on_pool(shoal::thread_pool& pool, std::string path, body_fn body) {
  co_await pool.schedule();
  std::unique_ptr<session> s = co_await with_table(std::move(path));
  co_await body(*s);
}

// A temporary directory and a 2-worker pool, both gone at the end of the test.
class sqlite_copy : public ::testing::Test {
 protected:
  void run(body_fn body) { shoal::sync_wait(on_pool(workers_.pool, dir_.file("copy.db"), body)); }

  tpcc::testing::temp_dir dir_{"shoal-copy"};
  shoal::testing::running_pool workers_{2};
};

task<void> copy_then_commit(session& s) {
  const outcome begun = co_await s.begin();
  EXPECT_TRUE(begun.ok());
  const std::uint64_t before = s.round_trips();
  const bulk_rows rows = c_rows();
  const outcome copied = co_await s.copy(rows);
  EXPECT_TRUE(copied.ok()) << copied.message;
  EXPECT_EQ(s.round_trips() - before, 1U);  // one job for every row
  const outcome committed = co_await s.commit();
  EXPECT_TRUE(committed.ok()) << committed.message;
  const statement_result r = co_await s.execute(read_c, no_values());
  EXPECT_TRUE(r.ok()) << r.status.message;
  EXPECT_EQ(r.rows.size(), 3U);
  if (r.rows.size() != 3) co_return;
  EXPECT_EQ(r.rows[0].text_at(1), "plain");
  EXPECT_EQ(r.rows[0].number_at(2), -1234.5678);
  EXPECT_EQ(r.rows[0].int_at(3), biggest);
  EXPECT_TRUE(r.rows[0].null_at(4));
  EXPECT_EQ(r.rows[1].text_at(1), awkward);
  EXPECT_EQ(r.rows[1].number_at(2), 0.1);
  EXPECT_EQ(r.rows[1].int_at(3), smallest);
  EXPECT_EQ(r.rows[2].text_at(1), "");
  EXPECT_EQ(r.rows[2].number_at(2), 1e-300);
  EXPECT_EQ(r.rows[2].text_at(4), "\\N");
}

TEST_F(sqlite_copy, CopyThenCommitMakesRowsVisibleWithExactValues) { run(copy_then_commit); }

task<void> copy_then_rollback(session& s) {
  const outcome begun = co_await s.begin();
  EXPECT_TRUE(begun.ok());
  const bulk_rows rows = numbered(1, 100);
  const outcome copied = co_await s.copy(rows);
  EXPECT_TRUE(copied.ok()) << copied.message;
  const auto inside = co_await count(s);
  EXPECT_EQ(inside.first, 100);
  const outcome rolled = co_await s.rollback();
  EXPECT_TRUE(rolled.ok());
  const auto after = co_await count(s);
  EXPECT_EQ(after.first, 0);
}

TEST_F(sqlite_copy, CopyThenRollbackLeavesNothing) { run(copy_then_rollback); }

// After a failed copy: aborted until rollback, then the session copies again.
task<void> expect_usable_after(session& s) {
  const statement_result later = co_await s.execute(count_c, no_values());
  EXPECT_FALSE(later.ok());  // the transaction is aborted
  const outcome rolled = co_await s.rollback();
  EXPECT_TRUE(rolled.ok());
  EXPECT_TRUE(s.healthy());
  const outcome begun = co_await s.begin();
  EXPECT_TRUE(begun.ok());
  const bulk_rows rows = numbered(500, 509);
  const outcome copied = co_await s.copy(rows);
  EXPECT_TRUE(copied.ok()) << copied.message;
  const outcome committed = co_await s.commit();
  EXPECT_TRUE(committed.ok());
  const auto after = co_await count(s);
  EXPECT_EQ(after.first, 10);
}

task<void> copy_into_missing_table(session& s) {
  const outcome begun = co_await s.begin();
  EXPECT_TRUE(begun.ok());
  bulk_rows rows = c_rows();
  rows.table = "no_such_table";
  const outcome copied = co_await s.copy(rows);
  EXPECT_EQ(copied.kind, outcome_kind::failed);
  EXPECT_NE(copied.message.find("no such table: no_such_table"), std::string::npos)
      << copied.message;
  co_await expect_usable_after(s);
}

TEST_F(sqlite_copy, CopyIntoAMissingTableFailsAndTheSessionStaysUsable) {
  run(copy_into_missing_table);
}

task<void> copy_a_duplicate_key(session& s) {
  const outcome begun = co_await s.begin();
  EXPECT_TRUE(begun.ok());
  bulk_rows rows = numbered(1, 1000);
  add_row(rows, 7, std::string("again"), 0, 0, value{});
  const outcome copied = co_await s.copy(rows);
  EXPECT_EQ(copied.kind, outcome_kind::failed);
  EXPECT_NE(copied.message.find("UNIQUE constraint failed: c.id"), std::string::npos)
      << copied.message;
  co_await expect_usable_after(s);
}

TEST_F(sqlite_copy, DuplicateKeyFailsTheCopyAndTheSessionStaysUsable) { run(copy_a_duplicate_key); }

task<void> execute_after_copy(session& s) {
  const outcome begun = co_await s.begin();
  EXPECT_TRUE(begun.ok());
  const bulk_rows rows = numbered(1, 10);
  const outcome copied = co_await s.copy(rows);
  EXPECT_TRUE(copied.ok()) << copied.message;
  const statement_result inserted = co_await s.execute(insert_c, id_and_label(11, "after"));
  EXPECT_TRUE(inserted.ok()) << inserted.status.message;
  const bulk_rows more = numbered(12, 20);
  const outcome second = co_await s.copy(more);  // the cached INSERT, again
  EXPECT_TRUE(second.ok()) << second.message;
  const outcome committed = co_await s.commit();
  EXPECT_TRUE(committed.ok());
  const auto after = co_await count(s);
  EXPECT_EQ(after.first, 20);
  EXPECT_EQ(after.second, 210);
}

TEST_F(sqlite_copy, StatementsAndCopiesMixInOneTransaction) { run(execute_after_copy); }

task<void> copy_outside_a_transaction(session& s) {
  bulk_rows rows = numbered(1, 50);
  add_row(rows, 3, std::string("duplicate"), 0, 0, value{});
  const outcome refused = co_await s.copy(rows);
  EXPECT_EQ(refused.kind, outcome_kind::failed);
  const auto after_failure = co_await count(s);
  EXPECT_EQ(after_failure.first, 0);  // all or nothing
  const bulk_rows good = numbered(1, 50);
  const outcome copied = co_await s.copy(good);
  EXPECT_TRUE(copied.ok()) << copied.message;
  const auto after = co_await count(s);
  EXPECT_EQ(after.first, 50);
}

TEST_F(sqlite_copy, CopyOutsideATransactionIsAllOrNothing) { run(copy_outside_a_transaction); }

task<void> copy_twenty_thousand(session& s) {
  const outcome begun = co_await s.begin();
  EXPECT_TRUE(begun.ok());
  const std::uint64_t before = s.round_trips();
  const bulk_rows rows = numbered(1, 20000);
  const outcome copied = co_await s.copy(rows);
  EXPECT_TRUE(copied.ok()) << copied.message;
  EXPECT_EQ(s.round_trips() - before, 1U);
  const outcome committed = co_await s.commit();
  EXPECT_TRUE(committed.ok());
  const auto after = co_await count(s);
  EXPECT_EQ(after.first, 20000);
  EXPECT_EQ(after.second, std::int64_t{20000} * 20001 / 2);
}

TEST_F(sqlite_copy, TwentyThousandRowsInOneCopy) { run(copy_twenty_thousand); }

task<void> copy_after_stop(session& s) {
  const outcome begun = co_await s.begin();
  EXPECT_TRUE(begun.ok());
  std::stop_source stop;
  stop.request_stop();
  const std::uint64_t before = s.round_trips();
  const bulk_rows rows = numbered(1, 10);
  const outcome copied = co_await shoal::with_stop_token(stop.get_token(), s.copy(rows));
  EXPECT_EQ(copied.message, "cancelled");
  EXPECT_EQ(s.round_trips(), before);  // never handed to the thread
  const outcome rolled = co_await s.rollback();
  EXPECT_TRUE(rolled.ok());
  const auto after = co_await count(s);
  EXPECT_EQ(after.first, 0);
}

TEST_F(sqlite_copy, StopRequestedBeforeTheCallFailsAtOnce) { run(copy_after_stop); }

// Stopped while the job inserts: interrupted between rows, rolled back, the session usable.
// The stop is requested once the copy has been handed to the connection's thread (the session
// counts the hand-over as a round trip), so it reaches the job, not the call before it; the
// job's 300,000 rows take far longer than the stopper needs to see the hand-over.
task<void> stop_a_running_copy(session& s) {
  const outcome begun = co_await s.begin();
  EXPECT_TRUE(begun.ok());
  const bulk_rows rows = numbered(1, 300000);
  std::stop_source stop;
  const std::uint64_t before = s.round_trips();
  std::jthread stopper([&stop, &s, before] {
    EXPECT_TRUE(shoal::testing::eventually([&] { return s.round_trips() > before; }));
    stop.request_stop();
  });
  const outcome copied = co_await shoal::with_stop_token(stop.get_token(), s.copy(rows));
  EXPECT_EQ(copied.kind, outcome_kind::failed);
  EXPECT_EQ(copied.message, "cancelled: copy into 'c' was interrupted (transaction rolled back)");
  EXPECT_TRUE(s.healthy());
  const outcome rolled = co_await s.rollback();  // the caller's duty after any failure
  EXPECT_TRUE(rolled.ok());
  const auto after = co_await count(s);
  EXPECT_EQ(after.first, 0);
}

TEST_F(sqlite_copy, StopRequestedDuringTheCopyInterruptsAndRollsBack) { run(stop_a_running_copy); }

task<void> refuse_malformed_rows(session& s) {
  bulk_rows bad_column = c_rows();
  bad_column.columns = quoted;
  const outcome named = co_await s.copy(bad_column);
  EXPECT_NE(named.message.find("column '\"big\"' is not a plain name"), std::string::npos)
      << named.message;
  const auto after = co_await count(s);
  EXPECT_EQ(after.first, 0);
}

TEST_F(sqlite_copy, MalformedRowsAreRefusedWithTheirProblemNamed) { run(refuse_malformed_rows); }

}  // namespace
