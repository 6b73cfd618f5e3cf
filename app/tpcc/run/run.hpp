// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/run.hpp: one measured run: terminals, deliverers, phases, drain (clause 5.5).
//
// What: checks that the database is fully loaded and agrees with the requested warehouse
// count, draws the run's NURand constants against the load's (clause 2.1.6.1), then starts 10
// terminals per warehouse (each bound to a worker, home warehouse w, Stock-Level district
// 1..10, started at a random moment of the first half of the warm-up so they do not stampede)
// and the deliverers. Phases: warm-up, measurement interval (only transactions ending inside it
// count), then the end: stop issuing, let transactions in flight finish for at most
// `drain`, abandon what is left, let the deliverers empty the queue under the same bound.
// An interrupt (Ctrl-C: run_control::interrupt) ends the measurement interval early and takes
// the same graceful path; the result says so and covers what was measured.
//
// Awaiting run_benchmark:
//   Result: the run's result, or an outcome when it could not start (schema missing or only
//           partly loaded, warehouse mismatch, database unreachable, or bad input found
//           only now: refused_input).
//   Errors: std::bad_alloc.
//   Cancellation: run_control::interrupt (not the chain's token).
//   Resumes on: a worker of `pool` (await it from the pool).
//   Thread-safety: one run at a time; run_control is shared with the console thread.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "driver/database.hpp"
#include "run_result/result.hpp"
#include "server_stats/collector.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "stats/client.hpp"
#include "stats/phase.hpp"
#include "stats/recorder.hpp"
#include "stats/series.hpp"
#include "txn/execute.hpp"

namespace tpcc::run {

// What a live display shows: immutable copies, taken under run_control's lock.
struct live_view {
  phase now = phase::starting;
  double elapsed_seconds = 0;                      // since the terminals started
  double warmup_seconds = 0, measure_seconds = 0;  // as planned
  std::int64_t warehouses = 0, terminals = 0;
  stats::snapshot window;                      // cumulative, the measurement interval so far
  std::optional<stats::interval_sample> last;  // the latest complete interval
  bool simulated = false;  // the database is the capacity mode's simulation: label it
};

// One endpoint's counts so far (a run over several: run/endpoints.hpp), for the metrics
// endpoint: every phase (`totals.kinds`) and the measurement interval (`totals.window`).
struct endpoint_totals {
  std::string target;  // as the user should see it (password redacted)
  stats::cumulative totals;
  driver::pool_stats pool;  // its session pool now
};

// One server's figures so far (server_stats/collector.hpp), for the metrics endpoint: `target`
// names it (its collector's target, password redacted) when the run reads several servers
// (endpoints reaching distinct servers), and is empty when it reads one.
struct server_totals {
  std::string target;
  server_stats::live_figures figures;
};

// An endpoint as the run publishes it: its target, its recorder, its database (for its pool).
struct live_endpoint {
  std::string target;
  const stats::recorder* recorder = nullptr;
  const driver::database* db = nullptr;
};

class analytic_streams;  // run/analytic.hpp

// Shared between the run and whoever watches it (main's console thread).
class run_control {
 public:
  std::stop_source interrupt;  // request_stop(): end the run now, gracefully

  [[nodiscard]] phase current_phase() const noexcept { return phase_.load(); }
  // Live figures for a progress line; nullopt before the terminals start.
  [[nodiscard]] std::optional<stats::snapshot> snapshot() const;
  // Everything a dashboard shows; nullopt before the terminals start.
  [[nodiscard]] std::optional<live_view> live() const;
  // Every transaction ended so far in every phase (cumulative, as the interval series is cut
  // from), for the metrics endpoint; nullopt before the terminals start.
  [[nodiscard]] std::optional<stats::cumulative> totals() const;

  // For the run itself.
  void enter(phase p) noexcept { phase_.store(p); }
  // `view` carries the fixed fields (planned durations, sizes); `started` is when the
  // terminals started. Publish nullptr when the recorder goes away.
  void publish(const stats::recorder* r, const live_view& view = {},
               std::chrono::steady_clock::time_point started = {});
  void publish_interval(const stats::interval_sample& sample);
  // The database's own figures (server_stats/collector.hpp), for the metrics endpoint: the run
  // publishes its first server's collector, then nullptr before it goes.
  void publish_server(const server_stats::collector* c);
  // Every server's figures so far: the first's (publish_server), then the other servers'
  // (publish_more_servers), those with a reading only; empty when none are read.
  [[nodiscard]] std::vector<server_totals> servers() const;
  // The run's other servers' collectors (run_result::more_servers), then an empty list before
  // they go.
  void publish_more_servers(std::vector<const server_stats::collector*> list);
  // Each endpoint's counts so far, in --db order; empty with one endpoint or when none are
  // published. The run publishes its endpoints' recorders, then an empty list before they go.
  [[nodiscard]] std::vector<endpoint_totals> endpoints() const;
  void publish_endpoints(std::vector<live_endpoint> list);
  // CH-benCHmark's figures so far (run/analytic.hpp: completed inside the measurement
  // interval, failed and cancelled in any phase), for the metrics endpoint; nullopt when no
  // stream runs. The run publishes its streams, then nullptr before they go.
  [[nodiscard]] std::optional<ch_totals> analytic() const;
  void publish_analytic(const analytic_streams* streams);

 private:
  std::atomic<phase> phase_{phase::starting};
  mutable std::mutex mutex_;
  const stats::recorder* recorder_ = nullptr;
  live_view fixed_;
  std::chrono::steady_clock::time_point started_;
  const server_stats::collector* server_ = nullptr;
  std::vector<const server_stats::collector*> more_servers_;
  std::vector<live_endpoint> endpoints_;
  const analytic_streams* analytic_ = nullptr;
};

using run_outcome = std::variant<run_result, driver::outcome>;

// The sqlstate of a refusal that is the command line's fault, found only once the loaded
// database is known (a --rate or a --schedule step more than the loaded warehouses' terminals
// can offer): bad input, exit 2 like the command line's own checks, not a database error.
inline constexpr std::string_view bad_input = "input";

// True when `refused` (run_benchmark's outcome) refuses the command line's input (bad_input).
[[nodiscard]] inline bool refused_input(const driver::outcome& refused) noexcept {
  return refused.kind == driver::outcome_kind::failed && refused.sqlstate == bad_input;
}

// `server`, when given (started, read and stopped by the run), reads the database's own figures
// at the run's cuts into run_result::server. `more_endpoints`: the other endpoints of `db`'s
// database (--db given more than once, run/endpoints.hpp), opened and closed by the caller; the
// warehouses are split among `db` and them, and run_result::endpoints has each one's figures.
// `more_servers`: collectors of the other distinct servers among the endpoints (read as
// `server` is, into run_result::more_servers in order; a null one is skipped).
// `analytic`: one database per CH-benCHmark stream (config.analytic_streams of them, opened and
// closed by the caller with connections of their own, run/analytic.hpp): they start with the
// terminals and end with the measurement interval; run_result::ch has what they measured.
shoal::task<run_outcome> run_benchmark(shoal::thread_pool& pool, driver::database& db,
                                       run_config config, run_control& control,
                                       server_stats::collector* server = nullptr,
                                       std::vector<driver::database*> more_endpoints = {},
                                       std::vector<server_stats::collector*> more_servers = {},
                                       std::vector<driver::database*> analytic = {});

}  // namespace tpcc::run
