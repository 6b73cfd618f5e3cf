// SPDX-License-Identifier: Apache-2.0
// load_bench: the loader's write path, COPY against 100-row INSERTs, on PostgreSQL.
//
// Starts its own throwaway PostgreSQL (app/tpcc/testing/postgres_server.hpp: Unix socket, fsync
// off), then for each method: drops and re-creates the schema and loads the same warehouses
// (same seed, so the same rows) with `parallel` loading coroutines, without the secondary
// indexes (built after the data either way, and not part of the write path measured).
// Reported per method: rows, seconds, rows/s, MiB/s of generated values (loader/progress.hpp)
// and client CPU seconds (getrusage of this process: population and driver; the server's CPU is
// not counted), then the ratio copy / insert. Not a test and never fails on a time.
// Run: build/release/app/tpcc/bench/load_bench [warehouses=2] [parallel=2] [rows-per-copy=2000]
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "driver/database.hpp"
#include "driver/open.hpp"
#include "loader/loader.hpp"
#include "loader/progress.hpp"
#include "schema/apply.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "testing/postgres_server.hpp"

namespace {

using shoal::task;
using tpcc::driver::outcome;
using tpcc::loader::load_method;

struct measured {
  tpcc::loader::progress_snapshot progress;
  double cpu_seconds = 0;
};

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](timeval t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void check(const outcome& o, const char* what) {
  if (!o.ok()) throw std::runtime_error(std::string(what) + ": " + o.message);
}

// The command line: [warehouses=2] [parallel=2] [rows per copy=2000].
struct settings {
  std::int64_t warehouses = 2;
  std::size_t parallel = 2;
  std::size_t rows_per_copy = 2000;
};

tpcc::loader::load_options options_for(load_method method, const settings& s) {
  return {.warehouses = s.warehouses,
          .parallel = s.parallel,
          .seed = 2024,
          .rows_per_copy = s.rows_per_copy,
          .build_indexes = false,
          .method = method};
}

tpcc::driver::database_options database_for(std::string conninfo, std::size_t parallel) {
  return {.target = std::move(conninfo), .connections = parallel};
}

task<measured> run_one(std::string conninfo, load_method method, settings s) {
  const tpcc::driver::database_options db_options = database_for(std::move(conninfo), s.parallel);
  tpcc::driver::open_result opened = co_await tpcc::driver::open_database(db_options);
  if (auto* failure = std::get_if<outcome>(&opened)) check(*failure, "open");
  std::unique_ptr<tpcc::driver::database> db =
      std::move(std::get<std::unique_ptr<tpcc::driver::database>>(opened));
  const outcome dropped = co_await tpcc::schema::drop_schema(*db);
  check(dropped, "drop");
  tpcc::schema::init_report report;
  const outcome created = co_await tpcc::schema::create_schema(*db, report);
  check(created, "init");
  tpcc::loader::load_progress progress;
  const tpcc::loader::load_options options = options_for(method, s);
  const double cpu_before = cpu_seconds();
  const outcome loaded = co_await tpcc::loader::load(*db, options, progress);
  measured m;
  m.cpu_seconds = cpu_seconds() - cpu_before;
  m.progress = progress.snapshot();
  co_await db->close();
  check(loaded, "load");
  co_return m;
}

task<measured> on_pool(shoal::thread_pool& pool, task<measured> body) {
  co_await pool.schedule();
  co_return co_await std::move(body);
}

void print(const char* name, const measured& m) {
  const auto& p = m.progress;
  std::printf("%-7s rows %9lld  %7.2f s  %9.0f rows/s  %6.2f MiB/s  client CPU %6.2f s\n", name,
              static_cast<long long>(p.rows), p.elapsed_seconds, p.rows_per_second,
              p.mib_per_second, m.cpu_seconds);
}

settings parse(int argc, char** argv) {
  settings s;
  if (argc > 1) s.warehouses = std::atoll(argv[1]);
  if (argc > 2) s.parallel = std::strtoull(argv[2], nullptr, 10);
  if (argc > 3) s.rows_per_copy = std::strtoull(argv[3], nullptr, 10);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const settings s = parse(argc, argv);
  tpcc::testing::postgres_server server;
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  std::printf("load_bench: %lld warehouses, %zu loading coroutines, %zu rows per copy, %s\n",
              static_cast<long long>(s.warehouses), s.parallel, s.rows_per_copy,
              server.bin_dir().c_str());
  const measured copy =
      shoal::sync_wait(on_pool(pool, run_one(server.conninfo(), load_method::copy, s)));
  print("copy", copy);
  const measured insert =
      shoal::sync_wait(on_pool(pool, run_one(server.conninfo(), load_method::insert, s)));
  print("insert", insert);
  std::printf("copy / insert: %.2fx rows/s\n",
              copy.progress.rows_per_second / insert.progress.rows_per_second);
  shoal::sync_wait(pool.stop());
  return 0;
}
