// SPDX-License-Identifier: Apache-2.0
// pg_driver_bench: the PostgreSQL driver on a New-Order-shaped transaction, sequential vs
// pipelined, by 1, 64 and 1024 coroutines over a pool of 16 connections.
//
// Starts its own throwaway PostgreSQL (app/tpcc/testing/postgres_server.hpp: Unix socket, fsync
// off) and loads a small schema (16 warehouses). One transaction is 25 statements with
// New-Order's dependencies:
//   1. read the warehouse, the customer and the items; bump the district's next order id
//   2. (needs the order id) insert the order and the new-order row; read the stock rows
//   3. (needs the stock) update the stock rows, insert the order lines; commit
// Sequential: one execute() per statement, then commit() (26 round trips). Pipelined: the three
// steps as three execute_batch() calls, BEGIN riding with the first, COMMIT with the last.
// Reported per run: statements per second, client CPU seconds per 1000 statements (getrusage of
// this process: the server's CPU is not counted), round trips per transaction, retries.
// Not a test and never fails on a time. SHOAL_BENCH_SMOKE=1 shortens every run to 0.5 s.
// Run: build/release/app/tpcc/bench/pg_driver_bench [seconds-per-run]
#include <sys/resource.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "driver/database.hpp"
#include "driver/postgres/postgres.hpp"
#include "shoal/clock.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "testing/postgres_server.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using tpcc::driver::call;
using tpcc::driver::database;
using tpcc::driver::lease;
using tpcc::driver::outcome;
using tpcc::driver::outcome_kind;
using tpcc::driver::session;
using tpcc::driver::statement;
using tpcc::driver::statement_result;
using tpcc::driver::then;
using tpcc::driver::value;

constexpr int warehouses = 16;
constexpr int items = 1000;
constexpr int lines = 5;  // 3 + 2 + 4 * lines = 25 statements
constexpr int statements_per_txn = 5 + 4 * lines;

constexpr statement get_warehouse{"b_get_warehouse", "SELECT w_tax FROM warehouse WHERE w_id = $1"};
constexpr statement get_customer{
    "b_get_customer",
    "SELECT c_discount, c_last, c_credit FROM customer WHERE c_w_id = $1 AND c_d_id = $2 AND "
    "c_id = $3"};
constexpr statement bump_district{
    "b_bump_district",
    "UPDATE district SET d_next_o_id = d_next_o_id + 1 WHERE d_w_id = $1 AND d_id = $2 "
    "RETURNING d_tax, d_next_o_id - 1"};
constexpr statement get_item{"b_get_item",
                             "SELECT i_price, i_name, i_data FROM item WHERE i_id = $1"};
constexpr statement insert_order{
    "b_insert_order",
    "INSERT INTO orders (o_w_id, o_d_id, o_id, o_c_id, o_ol_cnt, o_entry_d) "
    "VALUES ($1, $2, $3, $4, $5, now())"};
constexpr statement insert_new_order{
    "b_insert_new_order", "INSERT INTO new_order (no_w_id, no_d_id, no_o_id) VALUES ($1, $2, $3)"};
constexpr statement get_stock{
    "b_get_stock",
    "SELECT s_quantity, s_data FROM stock WHERE s_w_id = $1 AND s_i_id = $2 FOR UPDATE"};
constexpr statement update_stock{
    "b_update_stock",
    "UPDATE stock SET s_quantity = $3, s_ytd = s_ytd + $4, s_order_cnt = s_order_cnt + 1 "
    "WHERE s_w_id = $1 AND s_i_id = $2"};
constexpr statement insert_line{
    "b_insert_line",
    "INSERT INTO order_line (ol_w_id, ol_d_id, ol_o_id, ol_number, ol_i_id, ol_quantity, "
    "ol_amount) VALUES ($1, $2, $3, $4, $5, $6, $7)"};

constexpr const char* schema = R"(
CREATE TABLE warehouse (w_id int PRIMARY KEY, w_tax numeric(4,4));
CREATE TABLE district (d_w_id int, d_id int, d_tax numeric(4,4), d_next_o_id int,
                       PRIMARY KEY (d_w_id, d_id));
CREATE TABLE customer (c_w_id int, c_d_id int, c_id int, c_discount numeric(4,4),
                       c_last varchar(16), c_credit char(2), PRIMARY KEY (c_w_id, c_d_id, c_id));
CREATE TABLE item (i_id int PRIMARY KEY, i_price numeric(5,2), i_name varchar(24),
                   i_data varchar(50));
CREATE TABLE stock (s_w_id int, s_i_id int, s_quantity int, s_ytd int, s_order_cnt int,
                    s_data varchar(50), PRIMARY KEY (s_w_id, s_i_id));
CREATE TABLE orders (o_w_id int, o_d_id int, o_id int, o_c_id int, o_ol_cnt int,
                     o_entry_d timestamp, PRIMARY KEY (o_w_id, o_d_id, o_id));
CREATE TABLE new_order (no_w_id int, no_d_id int, no_o_id int,
                        PRIMARY KEY (no_w_id, no_d_id, no_o_id));
CREATE TABLE order_line (ol_w_id int, ol_d_id int, ol_o_id int, ol_number int, ol_i_id int,
                         ol_quantity int, ol_amount numeric(6,2),
                         PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number));
INSERT INTO warehouse SELECT w, 0.1 FROM generate_series(1, 16) w;
INSERT INTO district SELECT w, d, 0.05, 1 FROM generate_series(1, 16) w, generate_series(1, 10) d;
INSERT INTO customer SELECT w, d, c, 0.1, 'BARBARBAR', 'GC'
  FROM generate_series(1, 16) w, generate_series(1, 10) d, generate_series(1, 30) c;
INSERT INTO item SELECT i, 10.5, 'item ' || i, 'data' FROM generate_series(1, 1000) i;
INSERT INTO stock SELECT w, i, 50, 0, 0, 'stock data' FROM generate_series(1, 16) w,
  generate_series(1, 1000) i;
VACUUM ANALYZE
)";

enum class mode : std::uint8_t { sequential, pipelined };

struct order_input {
  std::int64_t w, d, c;
  std::vector<std::int64_t> item_ids;  // sorted: stock rows are locked in one order
  std::vector<std::int64_t> quantities;
};

order_input draw(std::mt19937_64& rng) {
  auto pick = [&](int lo, int hi) {
    return static_cast<std::int64_t>(std::uniform_int_distribution<int>(lo, hi)(rng));
  };
  order_input in{pick(1, warehouses), pick(1, 10), pick(1, 30), {}, {}};
  while (in.item_ids.size() < lines) {
    const std::int64_t i = pick(1, items);
    if (std::find(in.item_ids.begin(), in.item_ids.end(), i) == in.item_ids.end()) {
      in.item_ids.push_back(i);
    }
  }
  std::sort(in.item_ids.begin(), in.item_ids.end());
  for (int k = 0; k < lines; ++k) in.quantities.push_back(pick(1, 10));
  return in;
}

struct plan {
  std::vector<call> first, second, third;
};

std::vector<call> first_step(const order_input& in) {
  std::vector<call> calls{{&get_warehouse, {in.w}},
                          {&get_customer, {in.w, in.d, in.c}},
                          {&bump_district, {in.w, in.d}}};
  for (std::int64_t i : in.item_ids) calls.push_back({&get_item, {i}});
  return calls;
}

std::vector<call> second_step(const order_input& in, std::int64_t order_id) {
  std::vector<call> calls{{&insert_order, {in.w, in.d, order_id, in.c, std::int64_t{lines}}},
                          {&insert_new_order, {in.w, in.d, order_id}}};
  for (std::int64_t i : in.item_ids) calls.push_back({&get_stock, {in.w, i}});
  return calls;
}

std::vector<call> third_step(const order_input& in, std::int64_t order_id,
                             const std::vector<std::int64_t>& stock) {
  std::vector<call> calls;
  for (std::size_t k = 0; k < in.item_ids.size(); ++k) {
    std::int64_t left = stock[k] - in.quantities[k];
    if (left < 10) left += 91;
    calls.push_back({&update_stock, {in.w, in.item_ids[k], left, in.quantities[k]}});
  }
  for (std::size_t k = 0; k < in.item_ids.size(); ++k) {
    calls.push_back({&insert_line,
                     {in.w, in.d, order_id, static_cast<std::int64_t>(k + 1), in.item_ids[k],
                      in.quantities[k], 10.5 * static_cast<double>(in.quantities[k])}});
  }
  return calls;
}

// Runs `calls` one at a time or as one batch; the results (with the commit's when asked).
task<std::vector<statement_result>> step(session& s, mode m, const std::vector<call>& calls,
                                         then after) {
  if (m == mode::pipelined) {
    std::vector<statement_result> results = co_await s.execute_batch(calls, after);
    co_return results;
  }
  std::vector<statement_result> out;
  for (const call& c : calls) {
    out.push_back(co_await s.execute(*c.stmt, c.params));
    if (!out.back().ok()) co_return out;
  }
  if (after == then::commit) {
    outcome committed = co_await s.commit();
    out.emplace_back().status = std::move(committed);
  }
  co_return out;
}

const outcome* first_failure(const std::vector<statement_result>& results) {
  for (const auto& r : results) {
    if (!r.ok()) return &r.status;
  }
  return nullptr;
}

task<outcome> new_order(session& s, mode m, const order_input& in) {
  outcome begun = co_await s.begin();
  if (!begun.ok()) co_return begun;
  auto one = co_await step(s, m, first_step(in), then::nothing);
  if (const outcome* f = first_failure(one)) co_return *f;
  const std::int64_t order_id = one[2].rows.at(0).int_at(1);
  auto two = co_await step(s, m, second_step(in, order_id), then::nothing);
  if (const outcome* f = first_failure(two)) co_return *f;
  std::vector<std::int64_t> stock;
  for (std::size_t k = 2; k < two.size(); ++k) stock.push_back(two[k].rows.at(0).int_at(0));
  auto three = co_await step(s, m, third_step(in, order_id, stock), then::commit);
  if (const outcome* f = first_failure(three)) co_return *f;
  co_return outcome::success();
}

struct totals {
  std::atomic<std::uint64_t> committed{0};
  std::atomic<std::uint64_t> round_trips{0};
  std::atomic<std::uint64_t> retries{0};
  std::atomic<std::uint64_t> failures{0};
  std::atomic<int> running{0};
};

task<void> terminal(database& db, mode m, shoal::time_point end, totals& t, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  while (shoal::now() < end) {
    const order_input in = draw(rng);
    lease l = co_await db.acquire();
    if (!l) {
      t.failures.fetch_add(1);
      continue;
    }
    const std::uint64_t before = l->round_trips();
    outcome o = co_await new_order(*l, m, in);
    if (!o.ok()) {
      co_await l->rollback();
    }
    t.round_trips.fetch_add(l->round_trips() - before);
    if (o.ok()) {
      t.committed.fetch_add(1);
    } else if (o.kind == outcome_kind::retryable) {
      t.retries.fetch_add(1);
    } else {
      if (t.failures.fetch_add(1) == 0) std::fprintf(stderr, "failure: %s\n", o.message.c_str());
    }
  }
  t.running.fetch_sub(1);
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto seconds = [](const timeval& tv) {
    return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void run(shoal::thread_pool& pool, database& db, mode m, int coroutines,
         std::chrono::duration<double> length) {
  totals t;
  t.running = coroutines;
  const double cpu_before = cpu_seconds();
  const auto started = shoal::now();
  const auto end = started + std::chrono::duration_cast<shoal::duration>(length);
  for (int k = 0; k < coroutines; ++k) {
    pool.spawn(terminal(db, m, end, t, static_cast<std::uint64_t>(k) * 7919 + 1));
  }
  while (t.running.load() > 0) std::this_thread::sleep_for(10ms);
  const double elapsed = std::chrono::duration<double>(shoal::now() - started).count();
  const double cpu = cpu_seconds() - cpu_before;
  const double statements = static_cast<double>(t.committed.load()) * statements_per_txn;
  const double attempts = static_cast<double>(t.committed + t.retries + t.failures);
  std::printf("%-10s %6d %10.0f %14.3f %12.2f %8llu %8llu\n",
              m == mode::pipelined ? "pipelined" : "sequential", coroutines, statements / elapsed,
              statements > 0 ? cpu / statements * 1000 : 0.0,
              attempts > 0 ? static_cast<double>(t.round_trips.load()) / attempts : 0.0,
              static_cast<unsigned long long>(t.retries.load()),
              static_cast<unsigned long long>(t.failures.load()));
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (!tpcc::testing::postgres_server::available()) {
    std::fprintf(stderr, "pg_driver_bench: PostgreSQL server binaries not found\n");
    return 1;
  }
  const bool smoke = std::getenv("SHOAL_BENCH_SMOKE") != nullptr;
  const double seconds = argc > 1 ? std::atof(argv[1]) : (smoke ? 0.5 : 5.0);
  tpcc::testing::postgres_server server;
  server.sql(schema);

  shoal::thread_pool pool({.workers = 2});
  pool.start();
  auto opened = shoal::sync_wait(
      [](shoal::thread_pool& p, std::string target) -> task<tpcc::driver::open_result> {
        co_await p.schedule();
        co_return co_await tpcc::driver::postgres::open(
            {.target = std::move(target), .connections = 16});
      }(pool, server.conninfo()));
  if (auto* failure = std::get_if<outcome>(&opened)) {
    std::fprintf(stderr, "pg_driver_bench: %s\n", failure->message.c_str());
    shoal::sync_wait(pool.stop());
    return 1;
  }
  std::unique_ptr<database> db = std::move(std::get<std::unique_ptr<database>>(opened));
  std::printf(
      "New-Order-shaped transaction, %d statements, pool of 16 connections, 2 workers, "
      "%.1f s per run\n",
      statements_per_txn, seconds);
  std::printf("%-10s %6s %10s %14s %12s %8s %8s\n", "mode", "coros", "stmts/s", "cpu s/1000stm",
              "trips/txn", "retries", "failed");
  const std::chrono::duration<double> length(seconds);
  for (int coroutines : {1, 64, 1024}) {
    for (mode m : {mode::sequential, mode::pipelined}) run(pool, *db, m, coroutines, length);
  }
  shoal::sync_wait([](shoal::thread_pool& p, database& d) -> task<void> {
    co_await p.schedule();
    co_await d.close();
  }(pool, *db));
  db.reset();
  shoal::sync_wait(pool.stop());
  return 0;
}
