// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/config.hpp: everything the command line sets, validated once by parse().
//
// What: one plain struct; zero in a numeric field means "choose for me" (resolved by
// resolve_defaults() once the database kind is known). Thread-safety: a plain value.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "driver/isolation.hpp"
#include "driver/target.hpp"

namespace tpcc::cli {

enum class command : std::uint8_t {
  all,
  init,
  load,
  run,
  check,
  clean,
  help,
  version,
  merge,
  compare
};

// --metrics-addr HOST:PORT: where the run serves its Prometheus endpoint (a numeric IPv4
// address; port 0 picks a free one).
struct listen_address {
  std::string host;        // numeric IPv4: "127.0.0.1", "0.0.0.0"
  std::uint16_t port = 0;  // 0: any free port
};

// --rate: the most one terminal may be asked to offer (a mean gap of 1 ms, the timers'
// accuracy); terminal/pace.hpp's max_tpm_per_terminal, which commands/ checks is the same.
inline constexpr double max_rate_per_terminal = 60'000.0;

// One step of --schedule / --sweep (cli/schedule.hpp): an offered rate for a duration.
struct schedule_step {
  double rate_tpm = 0;                  // transactions per minute, every type
  std::chrono::nanoseconds duration{};  // > 0
  std::int64_t analytic_streams = -1;   // `streams=N`: CH-benCHmark streams run; -1 all of them
};

struct config {
  command cmd = command::all;
  driver::target db{.text = "sqlite:shoal-tpcc.db", .kind = driver::engine::sqlite};  // --db
  // Every --db given, in order (cli/endpoints.hpp): more than one is a run over several
  // endpoints of one database; `db` is the first (what init, check and the metadata read use).
  std::vector<driver::target> endpoints;
  std::int64_t warehouses = 0;        // 0: 2 for the default job, "as loaded" for run and check
  std::int64_t terminals = 10;        // per warehouse (clause 4.2.2's 10 unless --terminals)
  std::int64_t analytic_streams = 0;  // --analytic-streams: CH-benCHmark's query streams
  std::size_t connections = 0;        // 0: 16 for PostgreSQL, 1 for SQLite, 4096 simulated
  std::size_t workers = 0;            // 0: one per hardware thread
  std::chrono::nanoseconds warmup = std::chrono::seconds(30);
  std::chrono::nanoseconds duration = std::chrono::minutes(2);
  std::chrono::nanoseconds drain = std::chrono::seconds(30);
  double wait_scale = 1.0;        // 1: the spec's keying and think times
  bool waits_given = false;       // --wait-scale or --no-wait was given (--rate refuses both)
  double rate_tpm = 0;            // --rate TPM: paced Poisson arrivals instead of waits; 0: none
  std::size_t deliverers = 0;     // 0: one per 8 connections, at least 1
  std::size_t load_parallel = 0;  // 0: as many as connections, at most 8
  std::uint64_t seed = 0;         // 0: from the clock
  driver::isolation isolation = driver::isolation::read_committed;
  std::int64_t check_chunk = 10;
  bool keep = false;     // the default job: keep the data at the end (skip clean)
  bool dry_run = false;  // load: print what it would write, write nothing
  bool ch = false;       // init, load, the default job: CH-benCHmark's three tables too (--ch)
  // --procedures: init creates the stored procedures, run calls them (PostgreSQL, MySQL only).
  bool procedures = false;
  // run: exit 0 even when the verdict fails or transactions fail with non-retryable errors
  // (the report is the same).
  bool tolerate_errors = false;
  bool progress = true;
  // Measurement and scale-out (run/run.hpp's run_config).
  std::chrono::nanoseconds interval = std::chrono::seconds(1);
  std::chrono::nanoseconds client_lag_limit = std::chrono::milliseconds(50);
  std::int64_t shard_index = 0, shard_count = 1;                  // --shard i/n
  std::optional<std::chrono::system_clock::time_point> start_at;  // --start-at
  std::string html_path;            // --html FILE: the HTML report (run)
  std::string delivery_log_path;    // --delivery-log FILE: clause 2.7.2.3's result file (run)
  std::string hdr_log_path;         // --hdr-log FILE: the series as an HdrHistogram interval log
  std::string csv_path;             // --csv FILE: the series as CSV
  std::string config_path;          // --config FILE: options read from a TOML file first
  std::string json_path;            // --json FILE: the result as JSON (run, merge)
  std::vector<std::string> inputs;  // merge: the result files to add up; compare: to compare
  // compare --fail-if-slower PCT: exit 4 when a later file is slower beyond noise by more.
  std::optional<double> fail_if_slower;
  bool tui = true;  // the dashboard when stdout and stderr are terminals; false: plain lines
  std::optional<command> help_topic;  // `help run`, `run --help`: that command's help
  // --metrics-addr HOST:PORT: the Prometheus endpoint served while the run runs (run only).
  std::optional<listen_address> metrics_addr;
  // --schedule / --sweep: rate steps over the measurement interval instead (cli/schedule.hpp).
  std::vector<schedule_step> schedule;
  // --duration was given (a schedule refuses it).
  bool duration_given = false;
  // --knee-p90: a step whose worst p90 is past it is the knee; zero: none.
  std::chrono::nanoseconds knee_p90{};

  [[nodiscard]] bool is_sqlite() const { return db.is_sqlite(); }
  // The capacity mode's simulated database (driver/sim/sim.hpp): not a database.
  [[nodiscard]] bool is_sim() const { return db.is_sim(); }
  [[nodiscard]] bool tpc_c_waits() const {
    return wait_scale == 1.0 && rate_tpm == 0 && schedule.empty();
  }
};

// Fills the "choose for me" fields.
void resolve_defaults(config& c);

}  // namespace tpcc::cli
