// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/run.cpp: `shoal-tpcc run`: one measured run with its live display and
// --metrics-addr's endpoint, then its reports (see commands.hpp, steps.hpp).
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include "commands/analytic.hpp"
#include "commands/commands.hpp"
#include "commands/display.hpp"
#include "commands/endpoints.hpp"
#include "commands/origin.hpp"
#include "commands/run_config.hpp"
#include "commands/servers.hpp"
#include "commands/steps.hpp"
#include "metrics/render.hpp"
#include "metrics/server.hpp"
#include "metrics/view.hpp"
#include "run/run.hpp"
#include "schema/procedures.hpp"
#include "server_stats/collector.hpp"
#include "shoal/task_group.hpp"
#include "ui/live_display.hpp"

namespace tpcc::commands {
namespace {

// What the run's display shows besides the live view; `target`: every endpoint's description.
ui::run_screen run_settings(const run::run_config& rc, const driver::database& db,
                            const std::string& target) {
  ui::run_screen s;
  s.wait_scale = rc.wait_scale;
  s.rate_tpm = rc.rate_tpm;
  s.schedule = rc.schedule;
  s.client_lag_limit = rc.client_lag_limit;
  s.target = target;
  if (db.simulated()) s.note = "SIMULATED database: client capacity, not a database result";
  return s;
}

// The run, with the metrics endpoint (--metrics-addr) served beside it for as long as it runs:
// a child of the run's scope, stopped (and awaited) when the run ends.
shoal::task<run::run_outcome> serving_metrics(app& a, const run::run_control& control,
                                              ui::run_screen settings,
                                              shoal::task<run::run_outcome> run) {
  if (a.metrics == nullptr) co_return co_await std::move(run);
  co_return co_await shoal::with_task_group<void>(
      [&](shoal::task_group<void>& group) -> shoal::task<run::run_outcome> {
        group.spawn(metrics::serve(*a.metrics, [&control, &settings] {
          return metrics::render(metrics::take_view(control, settings));
        }));
        co_return co_await std::move(run);
      });
}

void say_server_refusal(const std::string& line) {
  std::fprintf(stderr, "shoal-tpcc: server figures: %s (the run goes on without them)\n",
               line.c_str());
}

// --procedures: every routine init --procedures creates must exist before a terminal starts.
// Result: exit_ok, exit_usage naming the first one missing, exit_failed when the lookup failed.
shoal::task<int> procedures_ready(app& a, driver::database& db) {
  if (!a.cfg.procedures) co_return exit_ok;
  const schema::procedure_check found = co_await schema::missing_procedure(db);
  if (!found.status.ok()) co_return fail("run --procedures", found.status.message);
  if (found.missing.empty()) co_return exit_ok;
  std::fprintf(stderr,
               "shoal-tpcc: run --procedures: the database has no stored procedure %s; create "
               "them with `shoal-tpcc init --procedures`\n",
               found.missing.c_str());
  co_return exit_usage;
}

}  // namespace

shoal::task<int> run_step(app& a, driver::database& db, std::optional<run::run_result>& ran,
                          std::vector<driver::database*> more_endpoints) {
  const run::run_config rc = run_config_of(a.cfg);
  const int ready = co_await procedures_ready(a, db);
  if (ready != exit_ok) co_return ready;
  analytic_databases analytic;  // --analytic-streams: a database per stream
  const int streams_ready = co_await open_analytic(a, db, analytic);
  if (streams_ready != exit_ok) co_return streams_ready;
  warn_if_start_passed(a.cfg);
  auto control = std::make_unique<run::run_control>();
  if (db.simulated()) {
    std::printf("run: %s: the figures measure the client's own cost\n", db.describe().c_str());
    std::fflush(stdout);
  }
  run::provenance origin = co_await origin_of(a, db);
  std::string target = db.describe();
  for (const driver::database* more : more_endpoints) target.append(", ").append(more->describe());
  auto shown = std::make_unique<shown_display>(a.console, a.cfg);
  shown->report(ui::run_reporter(shown->display(), *control, run_settings(rc, db, target)));
  a.console.set_interrupt([c = control.get(), &a] {
    c->interrupt.request_stop();
    a.interrupt.request_stop();  // and the commands after the run do not start
  });
  server_collectors servers = co_await open_server_collectors(a.cfg, say_server_refusal);
  auto outcome = co_await serving_metrics(
      a, *control, run_settings(rc, db, target),
      run::run_benchmark(a.pool, db, rc, *control, servers.first(), std::move(more_endpoints),
                         servers.more(), analytic.databases()));
  co_await close_analytic(analytic);
  co_await stop_server_collectors(servers);  // when the run was refused before it started
  shown->close();
  a.console.set_interrupt([&a] { a.interrupt.request_stop(); });
  if (auto* refused = std::get_if<driver::outcome>(&outcome)) {
    int status = fail("run", refused->message);
    if (run::refused_input(*refused)) status = exit_usage;  // the command line's, found late
    co_return a.console.interrupted() ? a.console.interrupt_status() : status;  // before the start
  }
  run::run_result& result = ran.emplace(std::move(std::get<run::run_result>(outcome)));
  result.origin = std::move(origin);
  if (servers.first() == nullptr) {
    result.server.not_collected =
        servers.why_not.empty() ? server_stats::not_collected_here : servers.why_not;
  }
  for (std::size_t i = 0; i < result.endpoints.size() && i < servers.of_endpoint.size(); ++i) {
    result.endpoints[i].server = servers.of_endpoint[i];
  }
  if (!result.fatal.empty()) co_return exit_failed;
  if (result.interrupted || a.console.interrupted()) co_return a.console.interrupt_status();
  co_return exit_ok;
}

shoal::task<int> run_command(app& a, driver::database& db) {
  other_endpoints others = co_await open_other_endpoints(a);
  if (!others.failure.empty()) co_return fail("run", others.failure);
  std::optional<run::run_result> ran;
  const int status = co_await run_step(a, db, ran, others.databases());
  const std::string target = endpoints_target(db, others);
  co_await close_endpoints(others);
  co_return ran ? finish_run(a, *ran, target, status) : status;
}

}  // namespace tpcc::commands
