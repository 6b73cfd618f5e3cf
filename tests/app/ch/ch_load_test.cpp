// SPDX-License-Identifier: Apache-2.0
// CH-benCHmark's added tables on a real SQLite file: the population's rows (counts, the nation
// keys of the paper's mapping, determinism whatever the chunk size), `init --ch` and `load --ch`
// (rows written once, a second load writing nothing, a cancelled load leaving nothing), and
// clean dropping them with the rest.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <memory>
#include <set>
#include <stop_token>
#include <string>
#include <vector>

#include "ch_support.hpp"
#include "driver/bulk.hpp"
#include "driver/database.hpp"
#include "loader/ch_load.hpp"
#include "loader/ch_population.hpp"
#include "schema/apply.hpp"
#include "shoal/stop.hpp"

namespace {

using shoal::task;
using tpcc::driver::bulk_rows;
using tpcc::driver::database;
using tpcc::driver::value;
using tpcc::loader::ch_load_result;
using tpcc::loader::ch_population;

// Every row of every table, as (table, normalized row) lines.
std::vector<std::string> all_rows(std::uint64_t seed, std::size_t chunk) {
  ch_population p(seed);
  bulk_rows rows;
  std::vector<std::string> out;
  while (p.next(rows, chunk)) {
    const std::size_t width = rows.columns.size();
    for (std::size_t r = 0; r < rows.rows(); ++r) {
      std::string line(rows.table);
      for (std::size_t c = 0; c < width; ++c) {
        line += '|' + tpcc::testing::normalized_value(rows.values[r * width + c]);
      }
      out.push_back(std::move(line));
    }
  }
  return out;
}

std::int64_t count_of(const std::vector<std::string>& rows, const std::string& table) {
  std::int64_t n = 0;
  for (const std::string& r : rows) n += r.starts_with(table + "|") ? 1 : 0;
  return n;
}

TEST(ch_population, GivesFiveRegionsSixtyTwoNationsAndTenThousandSuppliers) {
  const std::vector<std::string> rows = all_rows(7, 2000);
  EXPECT_EQ(count_of(rows, "region"), 5);
  EXPECT_EQ(count_of(rows, "nation"), 62);
  EXPECT_EQ(count_of(rows, "supplier"), 10000);
  EXPECT_EQ(rows.front(), "region|0|Africa|region Africa");
  EXPECT_EQ(rows[3], "region|3|Europe|region Europe");
}

TEST(ch_population, KeysEveryNationByACharacterAStateCanStartWith) {
  std::set<std::int64_t> keys;
  for (const tpcc::loader::ch_nation& n : tpcc::loader::ch_nations()) {
    keys.insert(n.key);
    EXPECT_GE(n.region, 0);
    EXPECT_LE(n.region, 4);
  }
  std::set<std::int64_t> expected;
  for (char c = '0'; c <= '9'; ++c) expected.insert(c);
  for (char c = 'A'; c <= 'Z'; ++c) expected.insert(c);
  for (char c = 'a'; c <= 'z'; ++c) expected.insert(c);
  EXPECT_EQ(keys, expected);
  // The names the queries ask for: Germany in Europe (Q5, Q8, Q11, Q20, Q21), Cambodia (Q7).
  int found = 0;
  for (const tpcc::loader::ch_nation& n : tpcc::loader::ch_nations()) {
    if (n.name == "Germany") found += n.region == 3 ? 1 : 100;
    if (n.name == "Cambodia") found += 1;
  }
  EXPECT_EQ(found, 2);
  EXPECT_EQ(tpcc::loader::ch_regions()[3], "Europe");
}

TEST(ch_population, IsTheSameWhateverTheChunkSizeAndDiffersWithTheSeed) {
  const std::vector<std::string> big = all_rows(7, 5000);
  EXPECT_EQ(all_rows(7, 13), big);
  EXPECT_NE(all_rows(8, 5000), big);
}

TEST(ch_population, DrawsSupplierKeysInOrderWithSomeComplaints) {
  const std::vector<std::string> rows = all_rows(7, 2000);
  std::int64_t bad = 0;
  std::int64_t next_key = 0;
  for (const std::string& r : rows) {
    if (!r.starts_with("supplier|")) continue;
    EXPECT_TRUE(r.starts_with("supplier|" + std::to_string(next_key) + "|Supplier#")) << r;
    ++next_key;
    bad += r.find("bad") != std::string::npos ? 1 : 0;
  }
  // One in 200 on average: 50 expected; a binomial's spread leaves 20..90 far inside.
  EXPECT_GT(bad, 20);
  EXPECT_LT(bad, 90);
}

constexpr std::array<tpcc::driver::statement, 3> ch_count_statements{{
    {"t_ch_count_region", "SELECT count(*) FROM region"},
    {"t_ch_count_nation", "SELECT count(*) FROM nation"},
    {"t_ch_count_supplier", "SELECT count(*) FROM supplier"},
}};

// Rows of REGION, NATION, SUPPLIER; -1 for a table that cannot be read.
task<std::vector<std::int64_t>> ch_counts(database& db) {
  tpcc::driver::lease l = co_await db.acquire();
  std::vector<std::int64_t> out;
  for (const tpcc::driver::statement& s : ch_count_statements) {
    const tpcc::driver::statement_result r = co_await l->execute(s, {});
    out.push_back(r.ok() && r.rows.size() == 1 ? r.rows[0].int_at(0) : -1);
  }
  co_return out;
}

// What ch_counts reads: loaded, empty, dropped. Outside the coroutines: g++ 12 miscompiles an
// initializer list inside a co_await expression ("array used as initializer").
const std::vector<std::int64_t> loaded_counts{5, 62, 10000};
const std::vector<std::int64_t> empty_counts{0, 0, 0};
const std::vector<std::int64_t> dropped_counts{-1, -1, -1};

class ch_sqlite_load : public ::testing::Test {
 protected:
  template <class T>
  T run(task<T> body) {
    return scratch_.run(std::move(body));
  }
  task<std::unique_ptr<database>> fresh(bool with_ch_tables) {
    std::unique_ptr<database> db = co_await tpcc::testing::opened(scratch_.sqlite_target(), 1);
    tpcc::schema::init_report report;
    const tpcc::driver::outcome made = co_await tpcc::schema::create_schema(*db, report);
    EXPECT_TRUE(made.ok()) << made.message;
    if (with_ch_tables) {
      const tpcc::driver::outcome ch = co_await tpcc::schema::create_ch_schema(*db, report);
      EXPECT_TRUE(ch.ok()) << ch.message;
      EXPECT_EQ(report.tables, 3u);
      EXPECT_FALSE(report.distributed);  // SQLite: nothing to place
    }
    co_return db;
  }

  tpcc::testing::loader_scratch scratch_;
};

TEST_F(ch_sqlite_load, WritesTheThreeTablesOnceAndASecondLoadWritesNothing) {
  const auto body = [this]() -> task<void> {
    std::unique_ptr<database> db = co_await fresh(true);
    const ch_load_result first = co_await tpcc::loader::load_ch(*db, 7);
    EXPECT_TRUE(first.status.ok()) << first.status.message;
    EXPECT_FALSE(first.already_loaded);
    EXPECT_EQ(first.rows, 10067);
    EXPECT_EQ(co_await ch_counts(*db), loaded_counts);
    const ch_load_result again = co_await tpcc::loader::load_ch(*db, 8);
    EXPECT_TRUE(again.status.ok()) << again.status.message;
    EXPECT_TRUE(again.already_loaded);
    EXPECT_EQ(again.rows, 0);
    EXPECT_EQ(co_await ch_counts(*db), loaded_counts);
    co_await db->close();
  };
  run(body());
}

TEST_F(ch_sqlite_load, ACancelledLoadLeavesNothingAndTheNextOneCompletes) {
  const auto body = [this]() -> task<void> {
    std::unique_ptr<database> db = co_await fresh(true);
    std::stop_source stop;
    stop.request_stop();
    const ch_load_result cancelled =
        co_await shoal::with_stop_token(stop.get_token(), tpcc::loader::load_ch(*db, 7));
    EXPECT_FALSE(cancelled.status.ok());
    EXPECT_EQ(cancelled.rows, 0);
    EXPECT_EQ(co_await ch_counts(*db), empty_counts);
    const ch_load_result done = co_await tpcc::loader::load_ch(*db, 7);
    EXPECT_TRUE(done.status.ok()) << done.status.message;
    EXPECT_FALSE(done.already_loaded);
    EXPECT_EQ(co_await ch_counts(*db), loaded_counts);
    co_await db->close();
  };
  run(body());
}

TEST_F(ch_sqlite_load, WithoutTheTablesTheLoadFailsNamingTheFirstAndWritesNothing) {
  const auto body = [this]() -> task<void> {
    std::unique_ptr<database> db = co_await fresh(false);
    const ch_load_result r = co_await tpcc::loader::load_ch(*db, 7);
    EXPECT_FALSE(r.status.ok());
    EXPECT_NE(r.status.message.find("region"), std::string::npos) << r.status.message;
    EXPECT_EQ(r.rows, 0);
    co_await db->close();
  };
  run(body());
}

TEST_F(ch_sqlite_load, CleanDropsTheThreeTablesWithTheRest) {
  const auto body = [this]() -> task<void> {
    std::unique_ptr<database> db = co_await fresh(true);
    const ch_load_result loaded = co_await tpcc::loader::load_ch(*db, 7);
    EXPECT_TRUE(loaded.status.ok()) << loaded.status.message;
    const tpcc::driver::outcome dropped = co_await tpcc::schema::drop_schema(*db);
    EXPECT_TRUE(dropped.ok()) << dropped.message;
    EXPECT_EQ(co_await ch_counts(*db), dropped_counts);
    co_await db->close();
  };
  run(body());
}

}  // namespace
