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
//           partly loaded, warehouse mismatch, database unreachable).
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
#include <variant>
#include <vector>

#include "driver/database.hpp"
#include "random/nurand.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "stats/client.hpp"
#include "stats/phase.hpp"
#include "stats/recorder.hpp"
#include "stats/series.hpp"
#include "txn/execute.hpp"

namespace tpcc::run {

// This process's part of a run split over several client processes (--shard i/n): shard
// `index` (0-based) of `count` takes a contiguous range of the warehouses' terminals; remote
// warehouses are still drawn from all of them.
struct shard_spec {
  std::int64_t index = 0;
  std::int64_t count = 1;
};

struct run_config {
  std::int64_t warehouses = 0;  // 0: as many as were loaded
  std::chrono::nanoseconds warmup = std::chrono::seconds(30);
  std::chrono::nanoseconds measure = std::chrono::minutes(2);
  std::chrono::nanoseconds drain = std::chrono::seconds(30);
  double wait_scale = 1.0;  // multiplies keying and think times; 0 is --no-wait (not TPC-C)
  // As opened (--isolation): recorded in every output, not applied here (driver/open.hpp).
  driver::isolation isolation = driver::isolation::read_committed;
  // --delivery-log FILE: the deferred Delivery result file of clause 2.7.2.3; empty: none.
  std::string delivery_log;
  std::size_t deliverers = 1;
  std::uint64_t seed = 0;
  txn::retry_policy retry{};
  shard_spec shard{};
  // The warm-up starts at this wall-clock time (shards agree on it); nullopt: at once.
  std::optional<std::chrono::system_clock::time_point> start_at;
  std::chrono::nanoseconds interval = std::chrono::seconds(1);  // of the series and displays
  // Probe lateness or ready-queue delay (p99 over the measurement interval) beyond this marks
  // the result client-bound.
  std::chrono::nanoseconds client_lag_limit = std::chrono::milliseconds(50);
};

using stats::phase;
using stats::to_string;

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

// Shared between the run and whoever watches it (main's console thread).
class run_control {
 public:
  std::stop_source interrupt;  // request_stop(): end the run now, gracefully

  [[nodiscard]] phase current_phase() const noexcept { return phase_.load(); }
  // Live figures for a progress line; nullopt before the terminals start.
  [[nodiscard]] std::optional<stats::snapshot> snapshot() const;
  // Everything a dashboard shows; nullopt before the terminals start.
  [[nodiscard]] std::optional<live_view> live() const;

  // For the run itself.
  void enter(phase p) noexcept { phase_.store(p); }
  // `view` carries the fixed fields (planned durations, sizes); `started` is when the
  // terminals started. Publish nullptr when the recorder goes away.
  void publish(const stats::recorder* r, const live_view& view = {},
               std::chrono::steady_clock::time_point started = {});
  void publish_interval(const stats::interval_sample& sample);

 private:
  std::atomic<phase> phase_{phase::starting};
  mutable std::mutex mutex_;
  const stats::recorder* recorder_ = nullptr;
  live_view fixed_;
  std::chrono::steady_clock::time_point started_;
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
  run_config config;                                     // as effective
  std::chrono::system_clock::time_point started, ended;  // wall clock: terminals start, run end
  std::vector<stats::interval_sample> series;            // every interval of the run, in order
  stats::client_totals client;
  // The database was the capacity mode's simulation (database::simulated()): the figures
  // measure the client, not a database; every output must say so.
  bool simulated = false;
};

using run_outcome = std::variant<run_result, driver::outcome>;

shoal::task<run_outcome> run_benchmark(shoal::thread_pool& pool, driver::database& db,
                                       run_config config, run_control& control);

}  // namespace tpcc::run
