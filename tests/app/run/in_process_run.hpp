// SPDX-License-Identifier: Apache-2.0
// tests/app/run/in_process_run.hpp: a real run inside the test process, on one SQLite file:
// open it, init and load it, run the benchmark (measure_test, audit_test).
//
// What: open_sqlite() opens a target with one connection (throws naming the refusal);
// init_and_load() creates the schema and loads `warehouses` warehouses (seed 5); measure() runs
// the benchmark with `config`, interrupted before it starts when asked (Ctrl-C before the run).
// Each hops onto `pool` first and closes what it opened. Thread-safety: one call per pool.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

#include "driver/open.hpp"
#include "loader/loader.hpp"
#include "loader/progress.hpp"
#include "run/run.hpp"
#include "schema/apply.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace tpcc::testing {

inline shoal::task<std::unique_ptr<driver::database>> open_sqlite(std::string target) {
  driver::database_options options;
  options.target = std::move(target);
  options.connections = 1;
  auto opened = co_await driver::open_database(options);
  if (auto* failure = std::get_if<driver::outcome>(&opened)) {
    throw std::runtime_error(failure->message);
  }
  co_return std::move(std::get<0>(opened));
}

inline shoal::task<driver::outcome> init_and_load(shoal::thread_pool& pool, std::string target,
                                                  std::int64_t warehouses) {
  co_await pool.schedule();
  auto db = co_await open_sqlite(std::move(target));
  schema::init_report report;
  driver::outcome done = co_await schema::create_schema(*db, report);
  if (done.ok()) {
    loader::load_options options;
    options.warehouses = warehouses;
    options.seed = 5;
    loader::load_progress progress;
    done = co_await loader::load(*db, options, progress);
  }
  co_await db->close();
  co_return done;
}

inline shoal::task<run::run_outcome> measure(shoal::thread_pool& pool, std::string target,
                                             run::run_config config, bool interrupted = false) {
  co_await pool.schedule();
  auto db = co_await open_sqlite(std::move(target));
  auto control = std::make_unique<run::run_control>();
  if (interrupted) control->interrupt.request_stop();  // Ctrl-C before the run
  run::run_outcome out = co_await run::run_benchmark(pool, *db, config, *control);
  co_await db->close();
  co_return out;
}

}  // namespace tpcc::testing
