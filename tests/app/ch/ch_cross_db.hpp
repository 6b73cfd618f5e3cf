// SPDX-License-Identifier: Apache-2.0
// ch_cross_db.hpp: one small database, made the same way on any engine, and the 22 queries'
// normalized rows on it; the PostgreSQL and MariaDB tests hold each engine's rows to SQLite's.
//
// The database: TPC-C's and CH's schema (init, init --ch), REGION, NATION and SUPPLIER from
// the real CH load (load_ch, seed 42), and a small hand-sized TPC-C population drawn from a
// fixed seed: 2 warehouses, 2 districts each, 15 customers per district (3 of them without
// orders), 300 items, all their stock, 30 orders per district (8 undelivered, with NEW-ORDER
// rows) of 3..8 lines. Far smaller than one warehouse (about 660 lines instead of 300,000) so
// that three loads stay cheap under ASan, and drawn so that every query's conditions meet rows
// (item data ending in b, BB, a, c; starting with co, PR, zz; states starting with A, L
// (Germany), 8 (Cambodia); dates on both sides of every window).
// Rows are compared as sorted lists: the queries' ORDER BY is checked by ch_semantics_test on
// hand-made rows; here it may leave ties that engines break differently.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ch/citus_joins.hpp"
#include "ch/queries.hpp"
#include "ch_support.hpp"
#include "driver/database.hpp"
#include "driver/target.hpp"
#include "loader/ch_load.hpp"
#include "random/rng.hpp"

namespace tpcc::testing {

inline constexpr std::uint64_t cross_db_ch_seed = 42;

// Dates in order; a delivery is drawn at or after its order's entry, or one step before it.
inline constexpr std::array<const char*, 6> cross_db_dates{
    "2006-05-06 07:08:09", "2008-03-04 05:06:07", "2010-07-08 09:10:11",
    "2011-11-12 13:14:15", "2013-02-03 04:05:06", "2019-06-07 08:09:10"};

inline std::string cross_db_item_data(random::rng& r) {
  static constexpr std::array<const char*, 6> starts{"co", "PR", "zz", "Co", "pr", "xy"};
  static constexpr std::array<const char*, 6> ends{"b", "BB", "a", "c", "B", "x"};
  const auto start = static_cast<std::size_t>(r.uniform(0, 5));
  const auto end = static_cast<std::size_t>(r.uniform(0, 5));
  return std::string(starts[start]) + "mid" + ends[end];
}

inline std::string cross_db_state(random::rng& r) {
  static constexpr std::string_view firsts = "AAL8L8Ka8z";
  static constexpr std::string_view seconds = "ABCxyz019";
  return {firsts[static_cast<std::size_t>(r.uniform(0, 9))],
          seconds[static_cast<std::size_t>(r.uniform(0, 8))]};
}

inline double cross_db_money(random::rng& r, std::int64_t lo_cents, std::int64_t hi_cents) {
  return static_cast<double>(r.uniform(lo_cents, hi_cents)) / 100.0;
}

inline void cross_db_order(ch_dataset& d, random::rng& r, std::int64_t w, std::int64_t dist,
                           std::int64_t o) {
  // Every draw in a statement of its own: the order of a call's arguments is unspecified.
  const bool delivered = o <= 22;
  const auto entry = static_cast<std::size_t>(r.uniform(1, 5));
  const std::int64_t lines = r.uniform(3, 8);
  const std::int64_t customer = r.uniform(1, 12);
  const std::int64_t carrier = r.uniform(1, 10);
  d.order(w, dist, o, customer, cross_db_dates[entry],
          delivered ? ch_dataset::value(carrier) : ch_dataset::null(), lines);
  if (!delivered) d.new_order(w, dist, o);
  for (std::int64_t n = 1; n <= lines; ++n) {
    const std::int64_t supply_w = r.uniform(1, 10) == 1 ? 3 - w : w;
    const auto when = static_cast<std::size_t>(r.uniform(static_cast<std::int64_t>(entry) - 1, 5));
    const std::int64_t item = r.uniform(1, 300);
    const std::int64_t quantity = r.uniform(1, 10);
    const double amount = cross_db_money(r, 1, 9999);
    d.line(w, dist, o, n, item, supply_w,
           delivered ? ch_dataset::value(cross_db_dates[when]) : ch_dataset::null(), quantity,
           amount);
  }
}

inline ch_dataset cross_db_dataset() {
  random::rng r(20111027);
  ch_dataset d;
  for (std::int64_t i = 1; i <= 300; ++i) {
    const double price = cross_db_money(r, 100, 10000);
    d.item(i, "item-" + std::to_string(i), price, cross_db_item_data(r));
  }
  for (std::int64_t w = 1; w <= 2; ++w) {
    for (std::int64_t i = 1; i <= 300; ++i) {
      const std::int64_t quantity = r.uniform(10, 100);
      d.stock(w, i, quantity, r.uniform(0, 30));
    }
    for (std::int64_t dist = 1; dist <= 2; ++dist) {
      for (std::int64_t c = 1; c <= 15; ++c) {
        const std::string state = cross_db_state(r);
        const std::string phone = std::to_string(r.uniform(0, 9)) + "555000111222333";
        const double balance = cross_db_money(r, -1000, 500000);
        d.customer(w, dist, c, state, phone, balance, "LAST" + std::to_string(c % 4),
                   "city" + std::to_string(c));
      }
      for (std::int64_t o = 1; o <= 30; ++o) cross_db_order(d, r, w, dist, o);
    }
  }
  return d;
}

// The database made on `db`, then every query's rows, sorted; throws on any failure.
inline task<std::vector<std::vector<std::string>>> cross_db_answers(driver::database& db,
                                                                    driver::engine dialect) {
  co_await create_ch_everything(db);
  const loader::ch_load_result loaded = co_await loader::load_ch(db, cross_db_ch_seed);
  if (!loaded.status.ok()) throw std::runtime_error("load_ch: " + loaded.status.message);
  const ch_dataset data = cross_db_dataset();
  co_await data.write_all(db);
  // What the analytic streams run first in each query's transaction (on Citus, its
  // repartition joins; elsewhere nothing), probed as they probe it.
  const driver::statement* setup = nullptr;
  {
    driver::lease l = co_await db.acquire();
    if (!l) throw std::runtime_error("acquire: " + l.status().message);
    setup = co_await ch::setup_for(*l, dialect);
  }
  std::vector<std::vector<std::string>> answers;
  for (int q = 1; q <= ch::query_count; ++q) {
    std::vector<std::string> rows = co_await ch_rows(db, dialect, q, setup);
    std::sort(rows.begin(), rows.end());
    answers.push_back(std::move(rows));
  }
  co_return answers;
}

// The answers on the database at `target` (fresh), after checking that init --ch and load --ch
// run again change nothing: the schema call succeeds, the load writes nothing.
inline task<std::vector<std::vector<std::string>>> server_cross_db_answers(std::string target,
                                                                           driver::engine dialect) {
  std::unique_ptr<driver::database> db = co_await opened(std::move(target), 1);
  auto answers = co_await cross_db_answers(*db, dialect);
  schema::init_report report;
  const driver::outcome again = co_await schema::create_ch_schema(*db, report);
  EXPECT_TRUE(again.ok()) << again.message;
  const loader::ch_load_result reloaded = co_await loader::load_ch(*db, cross_db_ch_seed + 1);
  EXPECT_TRUE(reloaded.status.ok()) << reloaded.status.message;
  EXPECT_TRUE(reloaded.already_loaded);
  EXPECT_EQ(reloaded.rows, 0);
  co_await db->close();
  co_return answers;
}

// The answers on a fresh SQLite file (`target`: sqlite:PATH).
inline task<std::vector<std::vector<std::string>>> sqlite_cross_db_answers(std::string target) {
  std::unique_ptr<driver::database> db = co_await opened(std::move(target), 1);
  auto answers = co_await cross_db_answers(*db, driver::engine::sqlite);
  co_await db->close();
  co_return answers;
}

// Each query's rows on `other` equal SQLite's; and the comparison is not empty-handed: every
// query returns rows on SQLite.
inline void expect_same_answers(const std::vector<std::vector<std::string>>& sqlite,
                                const std::vector<std::vector<std::string>>& other,
                                const char* engine) {
  ASSERT_EQ(sqlite.size(), static_cast<std::size_t>(ch::query_count));
  ASSERT_EQ(other.size(), sqlite.size());
  for (std::size_t q = 0; q < sqlite.size(); ++q) {
    EXPECT_FALSE(sqlite[q].empty()) << "Q" << q + 1 << " returns no rows: the data misses it";
    EXPECT_EQ(other[q], sqlite[q]) << "Q" << q + 1 << " on " << engine << " differs from SQLite";
  }
}

}  // namespace tpcc::testing
