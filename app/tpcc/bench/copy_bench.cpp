// SPDX-License-Identifier: Apache-2.0
// copy_bench: loading STOCK rows into PostgreSQL with session::copy (COPY FROM STDIN) against
// multi-row INSERTs of 100 rows per statement.
//
// Starts its own throwaway PostgreSQL (app/tpcc/testing/postgres_server.hpp: Unix socket, fsync
// off) with a table shaped like TPC-C's STOCK (clause 1.3.1: 17 columns, the same types and key
// as app/tpcc/schema). Rows are generated in batches of 10,000 (one warehouse's tenth), the
// same rows for both methods (a fixed seed); generating the rows (and, for INSERT, splitting them
// into the statements' parameter lists) is not timed. Each batch is one transaction:
//   copy:   begin(); copy(10,000 rows); commit()                      (4 round trips)
//   insert: begin(); execute_batch(100 x INSERT of 100 rows, then::commit)  (1 round trip)
// The INSERT statement (1,700 parameters) is built once at startup. The table is truncated
// before each run; the two methods alternate, twice. Reported: rows per second of wall time
// spent in the driver calls, and the client's CPU seconds per 100,000 rows (getrusage of this
// process: the server's CPU is not counted), then the copy / insert ratio of the best runs.
// Not a test and never fails on a time. SHOAL_BENCH_SMOKE=1 loads 20,000 rows instead.
// Run: build/release/app/tpcc/bench/copy_bench [rows]   (default 200000)
#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "driver/bulk.hpp"
#include "driver/database.hpp"
#include "driver/postgres/postgres.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "testing/postgres_server.hpp"

namespace {

using shoal::task;
using tpcc::driver::bulk_rows;
using tpcc::driver::call;
using tpcc::driver::database;
using tpcc::driver::lease;
using tpcc::driver::outcome;
using tpcc::driver::statement;
using tpcc::driver::statement_result;
using tpcc::driver::then;
using tpcc::driver::value;

constexpr std::size_t batch_rows = 10000;
constexpr std::size_t rows_per_insert = 100;
constexpr std::int64_t items_per_warehouse = 100000;

constexpr std::array<std::string_view, 17> stock_columns{
    "s_i_id",    "s_w_id",    "s_quantity",  "s_dist_01",    "s_dist_02", "s_dist_03",
    "s_dist_04", "s_dist_05", "s_dist_06",   "s_dist_07",    "s_dist_08", "s_dist_09",
    "s_dist_10", "s_ytd",     "s_order_cnt", "s_remote_cnt", "s_data"};

constexpr const char* stock_ddl =
    "CREATE TABLE stock (s_i_id INTEGER NOT NULL, s_w_id INTEGER NOT NULL, s_quantity INTEGER, "
    "s_dist_01 CHAR(24), s_dist_02 CHAR(24), s_dist_03 CHAR(24), s_dist_04 CHAR(24), "
    "s_dist_05 CHAR(24), s_dist_06 CHAR(24), s_dist_07 CHAR(24), s_dist_08 CHAR(24), "
    "s_dist_09 CHAR(24), s_dist_10 CHAR(24), s_ytd INTEGER, s_order_cnt INTEGER, "
    "s_remote_cnt INTEGER, s_data VARCHAR(50), PRIMARY KEY (s_w_id, s_i_id))";

// "INSERT INTO stock (...) VALUES ($1, ..., $17), ..., (..., $1700)"
std::string multi_row_insert() {
  std::string sql = "INSERT INTO stock (";
  for (std::size_t c = 0; c < stock_columns.size(); ++c) {
    sql += (c == 0 ? "" : ", ") + std::string(stock_columns[c]);
  }
  sql += ") VALUES ";
  std::size_t n = 1;
  for (std::size_t r = 0; r < rows_per_insert; ++r) {
    sql += r == 0 ? "(" : ", (";
    for (std::size_t c = 0; c < stock_columns.size(); ++c, ++n) {
      sql += (c == 0 ? "$" : ", $") + std::to_string(n);
    }
    sql += ')';
  }
  return sql;
}

const std::string insert_sql = multi_row_insert();
const statement insert_stock{"bench_insert_stock_100", insert_sql};

std::string random_text(std::mt19937_64& rng, std::size_t min, std::size_t max) {
  std::uniform_int_distribution<std::size_t> length(min, max);
  std::uniform_int_distribution<int> letter('a', 'z');
  std::string s(length(rng), ' ');
  for (char& c : s) c = static_cast<char>(letter(rng));
  return s;
}

// Rows first .. first + count - 1 of the load (row k: warehouse k / 100000 + 1).
bulk_rows stock_batch(std::int64_t first, std::size_t count, std::mt19937_64& rng) {
  bulk_rows rows{.table = "stock", .columns = stock_columns, .values = {}};
  rows.values.reserve(count * stock_columns.size());
  std::uniform_int_distribution<std::int64_t> quantity(10, 100);
  for (std::int64_t k = first; k < first + static_cast<std::int64_t>(count); ++k) {
    rows.values.emplace_back(k % items_per_warehouse + 1);
    rows.values.emplace_back(k / items_per_warehouse + 1);
    rows.values.emplace_back(quantity(rng));
    for (int d = 0; d < 10; ++d) rows.values.emplace_back(random_text(rng, 24, 24));
    for (int z = 0; z < 3; ++z) rows.values.emplace_back(std::int64_t{0});
    rows.values.emplace_back(random_text(rng, 26, 50));
  }
  return rows;
}

// The same rows as 100-row INSERT calls.
std::vector<call> insert_calls(const bulk_rows& rows) {
  const std::size_t width = stock_columns.size() * rows_per_insert;
  std::vector<call> calls;
  for (std::size_t at = 0; at < rows.values.size(); at += width) {
    const auto from = rows.values.begin() + static_cast<std::ptrdiff_t>(at);
    const auto to =
        rows.values.begin() + static_cast<std::ptrdiff_t>(std::min(at + width, rows.values.size()));
    calls.push_back({&insert_stock, std::vector<value>(from, to)});
  }
  return calls;
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

struct timing {
  double wall = 0;  // seconds inside the driver calls
  double cpu = 0;   // this process's CPU seconds over the same spans
  bool failed = false;
};

// One batch as one transaction, timed: `rows` by copy, or `calls` (the same rows) by INSERT.
task<void> load_batch(database& db, const bulk_rows& rows, std::span<const call> calls, timing& t) {
  lease l = co_await db.acquire();
  const auto started = std::chrono::steady_clock::now();
  const double cpu_before = cpu_seconds();
  outcome result = co_await l->begin();
  if (calls.empty()) {
    if (result.ok()) result = co_await l->copy(rows);
    if (result.ok()) result = co_await l->commit();
  } else {
    std::vector<statement_result> results = co_await l->execute_batch(calls, then::commit);
    for (const statement_result& r : results) {
      if (!r.ok() && result.ok()) result = r.status;
    }
  }
  t.cpu += cpu_seconds() - cpu_before;
  t.wall += std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!result.ok()) {
    std::fprintf(stderr, "copy_bench: %s\n", result.message.c_str());
    t.failed = true;
    co_await l->rollback();
  }
}

task<timing> load(shoal::thread_pool& pool, database& db, bool by_copy, std::int64_t total) {
  co_await pool.schedule();
  timing t;
  std::mt19937_64 rng(20240229);
  for (std::int64_t first = 0; first < total && !t.failed;) {
    const auto count = static_cast<std::size_t>(
        std::min<std::int64_t>(static_cast<std::int64_t>(batch_rows), total - first));
    const bulk_rows rows = stock_batch(first, count, rng);
    std::vector<call> calls;
    if (!by_copy) calls = insert_calls(rows);  // untimed, like the generation
    co_await load_batch(db, rows, calls, t);
    first += static_cast<std::int64_t>(count);
  }
  co_return t;
}

// A plain function: g++ 12 destroys an aggregate temporary in a co_await expression twice.
task<tpcc::driver::open_result> open_target(std::string target) {
  return tpcc::driver::postgres::open({.target = std::move(target), .connections = 1});
}

task<tpcc::driver::open_result> open_on(shoal::thread_pool& pool, std::string target) {
  co_await pool.schedule();
  co_return co_await open_target(std::move(target));
}

task<void> close_on(shoal::thread_pool& pool, database& db) {
  co_await pool.schedule();
  co_await db.close();
}

// Runs the two methods alternately; returns the best rows/s of each (copy, insert).
std::pair<double, double> compare(shoal::thread_pool& pool, database& db,
                                  const tpcc::testing::postgres_server& server,
                                  std::int64_t total) {
  double best_copy = 0;
  double best_insert = 0;
  for (int round = 0; round < 2; ++round) {
    for (const bool by_copy : {false, true}) {
      server.sql("TRUNCATE stock");
      const timing t = shoal::sync_wait(load(pool, db, by_copy, total));
      const double rate = t.failed ? 0.0 : static_cast<double>(total) / t.wall;
      (by_copy ? best_copy : best_insert) = std::max(by_copy ? best_copy : best_insert, rate);
      std::printf("%-8s %9lld %10.2f %12.0f %14.3f\n", by_copy ? "copy" : "insert",
                  static_cast<long long>(total), t.wall, rate,
                  t.cpu / static_cast<double>(total) * 100000);
      std::fflush(stdout);
    }
  }
  return {best_copy, best_insert};
}

}  // namespace

int main(int argc, char** argv) {
  if (!tpcc::testing::postgres_server::available()) {
    std::fprintf(stderr, "copy_bench: PostgreSQL server binaries not found\n");
    return 1;
  }
  const bool smoke = std::getenv("SHOAL_BENCH_SMOKE") != nullptr;
  const std::int64_t total = argc > 1 ? std::atoll(argv[1]) : (smoke ? 20000 : 200000);
  tpcc::testing::postgres_server server;
  server.sql(stock_ddl);
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  auto opened = shoal::sync_wait(open_on(pool, server.conninfo()));
  if (auto* failure = std::get_if<outcome>(&opened)) {
    std::fprintf(stderr, "copy_bench: %s\n", failure->message.c_str());
    shoal::sync_wait(pool.stop());
    return 1;
  }
  std::unique_ptr<database> db = std::move(std::get<std::unique_ptr<database>>(opened));
  std::printf("STOCK-shaped rows (17 columns), %zu rows per transaction, 1 connection\n",
              batch_rows);
  std::printf("%-8s %9s %10s %12s %14s\n", "method", "rows", "seconds", "rows/s",
              "cpu s/100k rows");
  const auto [copy_rate, insert_rate] = compare(pool, *db, server, total);
  std::printf("copy / insert (best runs): %.2f\n", insert_rate > 0 ? copy_rate / insert_rate : 0.0);
  shoal::sync_wait(close_on(pool, *db));
  db.reset();
  shoal::sync_wait(pool.stop());
  return 0;
}
