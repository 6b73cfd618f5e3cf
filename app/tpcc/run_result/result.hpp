// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run_result/result.hpp: what one measured run was asked to do and what it measured, as
// plain data: what every report, the JSON reader and writer, the merge and the dashboard read.
//
// What: shard_spec (--shard i/n), run_config (the run's settings as effective) and run_result
// (the statistics snapshot, the interval series, the client's own figures, the NURand
// constants, the covered warehouses). No scheduler, no driver: run/run.hpp produces these,
// report/ reads and writes them (a merged result is one too).
// Thread-safety: plain values.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "driver/isolation.hpp"
#include "random/nurand.hpp"
#include "run_result/ch_result.hpp"
#include "run_result/steps.hpp"
#include "server_stats/figures.hpp"
#include "stats/client.hpp"
#include "stats/error_list.hpp"
#include "stats/pace.hpp"
#include "stats/phase.hpp"
#include "stats/recorder.hpp"
#include "stats/series.hpp"
#include "txn/retry_policy.hpp"

namespace tpcc::run {

using stats::phase;
using stats::to_string;

// This process's part of a run split over several client processes (--shard i/n): shard
// `index` (0-based) of `count` takes a contiguous range of the warehouses' terminals; remote
// warehouses are still drawn from all of them.
struct shard_spec {
  std::int64_t index = 0;
  std::int64_t count = 1;
};

struct run_config {
  std::int64_t warehouses = 0;  // 0: as many as were loaded
  // Terminals per warehouse (--terminals): the spec's 10 (clause 4.2.2); anything else runs,
  // but the verdict says the result is not a TPC-C one.
  std::int64_t terminals_per_warehouse = 10;
  std::chrono::nanoseconds warmup = std::chrono::seconds(30);
  std::chrono::nanoseconds measure = std::chrono::minutes(2);
  std::chrono::nanoseconds drain = std::chrono::seconds(30);
  double wait_scale = 1.0;  // multiplies keying and think times; 0 is --no-wait (not TPC-C)
  // --rate TPM: the whole client offers this many transactions per minute as Poisson arrivals
  // instead of keying and think times (terminal/pace.hpp; not TPC-C); 0: not paced.
  double rate_tpm = 0;
  // --schedule / --sweep (run_result/steps.hpp): the rate steps of the measurement interval;
  // rate_tpm is then their mean (mean_rate) and the warm-up offers the first step's rate.
  std::vector<rate_step> schedule;
  // --knee-p90: a step whose worst p90 is over this is past the knee; zero: no such limit.
  std::chrono::nanoseconds knee_p90{};
  // --procedures: each transaction one stored-procedure call (txn/procedures.hpp), not the
  // client-side statements; every output names the mode (mode_name).
  bool procedures = false;
  // As opened (--isolation): recorded in every output, not applied here (driver/open.hpp).
  driver::isolation isolation = driver::isolation::read_committed;
  // --delivery-log FILE: the deferred Delivery result file of clause 2.7.2.3; empty: none.
  std::string delivery_log;
  std::size_t deliverers = 1;
  std::uint64_t seed = 0;
  // --analytic-streams: CH-benCHmark's query streams beside the terminals (run/analytic.hpp).
  std::int64_t analytic_streams = 0;
  txn::retry_policy retry{};
  shard_spec shard{};
  // The warm-up starts at this wall-clock time (shards agree on it); nullopt: at once.
  std::optional<std::chrono::system_clock::time_point> start_at;
  std::chrono::nanoseconds interval = std::chrono::seconds(1);  // of the series and displays
  // Probe lateness or ready-queue delay (p99 over the measurement interval) beyond this marks
  // the result client-bound.
  std::chrono::nanoseconds client_lag_limit = std::chrono::milliseconds(50);
};

// The mode a run's transactions ran in, as every output names it.
[[nodiscard]] inline const char* mode_name(const run_config& c) noexcept {
  return c.procedures ? "procedures" : "statements";
}

// How a result was obtained, in every output: filled in one place, commands/origin.hpp (the
// command line, the build, the host, the server's version); the run itself leaves it empty.
struct provenance {
  std::string command_line;    // as typed, any password redacted
  std::string version;         // shoal-tpcc's version
  std::string commit;          // the source commit it was built from; "unknown" outside git
  std::string server_version;  // as the database reports it
  std::string host;            // the client machine
  unsigned cores = 0;          // its hardware threads
  std::size_t workers = 0;     // worker threads of the client
  std::size_t connections = 0;
};

// The consistency check of clause 3.3.2 run on the database right after this run, when one
// was (the default job checks before it writes the reports); unknown after a bare `run`.
struct consistency_status {
  bool checked = false;              // false: unknown
  std::size_t conditions = 0;        // evaluated (applicable) conditions
  std::vector<std::string> failing;  // their clauses, "3.3.2.4"; empty when all passed
  [[nodiscard]] bool passed() const noexcept { return checked && failing.empty(); }
};

// One endpoint's part of a run over several (--db given more than once): the warehouses whose
// terminals sent it their transactions, and what those transactions measured (the same window
// as the totals, of which it is a part).
struct endpoint_result {
  std::string target;  // as the user should see it (password redacted)
  std::int64_t first_warehouse = 1, last_warehouse = 0;
  stats::snapshot results;
  // Its part of each interval of the run's series (the same cuts, every phase), in order.
  std::vector<stats::endpoint_interval> series;
  std::uint64_t sessions_replaced = 0;  // broken sessions its pool replaced (reconnects)
  // Whose figures are its server's: 0 run_result::server, k run_result::more_servers[k - 1];
  // -1 none read (SQLite, the simulation, a refused connection).
  int server = -1;
};

struct run_result {
  stats::snapshot results;
  random::nurand_constants load_constants{};
  random::nurand_constants run_constants{};
  std::int64_t warehouses = 0;
  std::int64_t terminals = 0;
  double wait_scale = 1.0;
  double measured_seconds = 0;  // the measurement interval actually covered
  bool interrupted = false;     // ended before its planned end
  bool drained = true;          // transactions in flight finished within the drain bound
  std::string fatal;            // set when an unexpected error stopped the run
  // This process's terminals cover warehouses [first_warehouse, last_warehouse] of
  // `warehouses` (all of them unless sharded).
  std::int64_t first_warehouse = 1, last_warehouse = 0;
  // The warehouses this process ran (its shard's range): efficiency is against these.
  [[nodiscard]] std::int64_t shard_warehouses() const noexcept {
    return last_warehouse >= first_warehouse ? last_warehouse - first_warehouse + 1 : 0;
  }
  run_config config;  // as effective
  provenance origin;
  std::chrono::system_clock::time_point started, ended;  // wall clock: terminals start, run end
  std::vector<stats::interval_sample> series;            // every interval of the run, in order
  stats::client_totals client;
  consistency_status consistency;
  // Every distinct error of the run (every phase), capped (stats/error_list.hpp).
  stats::error_list errors;
  // The database was the capacity mode's simulation (database::simulated()): the figures
  // measure the client, not a database; every output must say so.
  bool simulated = false;
  // The database's own figures over the run (server_stats/figures.hpp), its first endpoint's
  // server's: not collected for SQLite, the simulated database and a merged result.
  server_stats::server_figures server;
  // The figures of every other distinct server among the endpoints (endpoint_result::server),
  // in the order of their first endpoint; empty with one endpoint or one server.
  std::vector<server_stats::server_figures> more_servers;
  // --rate: offered against taken, the backlog (stats/pace.hpp); empty when not paced.
  std::optional<stats::pace_totals> pacing;
  [[nodiscard]] bool paced() const noexcept { return config.rate_tpm > 0; }
  // The spec's keying and think times applied: neither scaled nor replaced by --rate.
  [[nodiscard]] bool tpc_c_waits() const noexcept { return wait_scale == 1.0 && !paced(); }
  // Per endpoint, in --db order, when the run had more than one; empty with one endpoint.
  std::vector<endpoint_result> endpoints;
  // --schedule: each step begun, in order, with its window (the figures: report/steps.hpp);
  // empty without a schedule.
  std::vector<step_window> steps;
  // CH-benCHmark's analytic streams (--analytic-streams); ch.ran() false when none ran.
  ch_totals ch;
  // Every phase's deferred Deliveries by how they ended (their terminal part, the queueing, is
  // in `series`), for the exit status (report/hard_failures.hpp); not written to result files.
  stats::outcome_counts deferred_deliveries;
};

}  // namespace tpcc::run
