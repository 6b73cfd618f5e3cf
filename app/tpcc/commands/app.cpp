// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/app.cpp: the process around a command (see app.hpp).
#include "commands/app.hpp"

#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <optional>
#include <utility>
#include <variant>

#include "driver/open.hpp"
#include "metrics/server.hpp"
#include "shoal/sync_wait.hpp"

namespace tpcc::commands {

driver::database_options database_options_of(const cli::config& cfg) {
  driver::database_options options;
  options.target = cfg.db.text;
  options.connections = cfg.connections;
  options.level = cfg.isolation;
  options.warehouses = cfg.warehouses;
  // Only init and the default job make a database; check, run, load and clean never create
  // an empty SQLite file where a path was mistyped.
  options.create_sqlite_file = cfg.cmd == cli::command::init || cfg.cmd == cli::command::all;
  return options;
}

namespace {

// --metrics-addr: listens now, before any work, on a worker (the listener's reactor); says
// where on stderr. False, saying why, when the address cannot be listened on.
bool listen_for_metrics(app& a, std::optional<shoal::stream_listener>& listener) {
  if (!a.cfg.metrics_addr) return true;
  const cli::listen_address& at = *a.cfg.metrics_addr;
  auto bound = metrics::listen(at.host, at.port);
  if (auto* why = std::get_if<std::string>(&bound)) {
    std::fprintf(stderr, "shoal-tpcc: --metrics-addr %s:%u: %s (checked before starting)\n",
                 at.host.c_str(), static_cast<unsigned>(at.port), why->c_str());
    return false;
  }
  listener.emplace(std::move(std::get<shoal::stream_listener>(bound)));
  a.metrics = &*listener;
  std::fprintf(stderr, "metrics: http://%s:%u/metrics\n", at.host.c_str(),
               static_cast<unsigned>(listener->port()));
  std::fflush(stderr);
  return true;
}

shoal::task<int> app_main(app& a, command run) {
  co_await a.pool.schedule();
  std::optional<shoal::stream_listener> metrics_listener;  // closed here, on a worker
  if (!listen_for_metrics(a, metrics_listener)) co_return exit_usage;
  auto opened = co_await driver::open_database(database_options_of(a.cfg));
  if (auto* refused = std::get_if<driver::outcome>(&opened)) {
    co_return fail("cannot open " + driver::redact(a.cfg.db.text), refused->message);
  }
  std::unique_ptr<driver::database> db = std::move(std::get<0>(opened));
  a.console.set_interrupt([&a] { a.interrupt.request_stop(); });
  const int status = co_await run(a, *db);
  co_await db->close();
  a.metrics = nullptr;
  co_return status;
}

}  // namespace

int fail(std::string_view step, const std::string& message) {
  std::fprintf(stderr, "shoal-tpcc: %.*s: %s\n", static_cast<int>(step.size()), step.data(),
               message.c_str());
  return exit_failed;
}

int run_app(const cli::config& cfg, std::string command_line, command run) {
  cli::block_signals();
  shoal::thread_pool_options options;
  options.workers = cfg.workers;
  shoal::thread_pool pool(options);
  pool.start();
  cli::console console(std::chrono::seconds(1), cfg.progress);
  console.start();
  app a{cfg, std::move(command_line), pool, console, {}, nullptr};
  int status = exit_failed;
  try {
    status = shoal::sync_wait(app_main(a, run));
  } catch (const std::exception& e) {
    status = fail("error", e.what());
  }
  console.stop();  // its handlers refer to `a`
  shoal::sync_wait(pool.stop());
  return status;
}

}  // namespace tpcc::commands
