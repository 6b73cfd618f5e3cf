// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/monitor.hpp: the run watching itself: the interval series and the client's own
// cost.
//
// What: once started, a sampling coroutine wakes every `interval` (counted from `started`, the
// moment the terminals start) and at the measurement window's start and end, and cuts an
// interval_sample from the recorder's counts (stats/sampler.hpp), labelled with the phase of
// the time it covers (warm-up before the window, measuring inside, draining after), so the
// measurement intervals add up to the window's totals; fills its client part (the per-worker
// probes of client_probe.hpp, the workers' resume counts, the session pool, the process's CPU
// and RSS), keeps it and publishes it to run_control for displays. finish() adds the last,
// partial interval and computes the client totals and the client-bound verdict
// (stats/client_summary.hpp) into the result. Lifetime: construct just before the terminals
// start (it reads the RSS they add to); start(); after the terminals and deliverers have
// drained, co_await stop() (the probes and the sampling loop end promptly and have left before
// it returns: nothing of the monitor is left on the pool); then finish(). Everything given to
// the constructor must outlive it.
// Thread-safety: start, stop and finish from the run's coroutine, in that order; the sampling
// loop's state is handed over by stop() (its gate orders it before stop() returns).
//
// Awaiting stop():
//   Result: void. Errors: none. Cancellation: none (the loops end promptly once asked).
//   Resumes on: a worker of the pool. Thread-safety: once.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <stop_token>
#include <vector>

#include "driver/database.hpp"
#include "run/client_probe.hpp"
#include "run/run.hpp"
#include "shoal/gate.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "stats/process.hpp"
#include "stats/sampler.hpp"

namespace tpcc::run {

class monitor {
 public:
  monitor(shoal::thread_pool& pool, driver::database& db, const stats::recorder& rec,
          run_control& control, stats::clock::time_point started,
          std::chrono::nanoseconds interval);

  void start();
  [[nodiscard]] shoal::task<void> stop();
  // Fills result.series and result.client; `terminals` as started.
  void finish(run_result& result, std::int64_t terminals, std::chrono::nanoseconds lag_limit);

  // For the sampling loop: cuts the interval ending now; the next cut is at `grid` or at a
  // window edge before it (or within a tenth of an interval after it, in its place).
  void sample();
  // How many deferred Deliveries wait for a deliverer, read at each cut (before start()).
  void count_deliveries_with(std::function<std::size_t()> queued) { queued_ = std::move(queued); }
  // The session pool read at each cut (before start()); the database's own by default (a run
  // over several endpoints gives the sum of theirs).
  void read_pool_with(std::function<driver::pool_stats()> pool) { sessions_ = std::move(pool); }
  // Told of each cut (before start()): its end (seconds since the start), the phase of the
  // interval it ends and of the next one (the server's figures and the endpoints' series are
  // read at the same cuts). Each listener added is told, in the order added.
  using cut_listener =
      std::function<void(double end_seconds, stats::phase ended, stats::phase next)>;
  void on_cut(cut_listener listener) { on_cut_.push_back(std::move(listener)); }
  [[nodiscard]] stats::clock::time_point next_cut(stats::clock::time_point grid) const;
  [[nodiscard]] stats::clock::time_point started() const noexcept { return started_; }
  [[nodiscard]] std::chrono::nanoseconds interval() const noexcept { return interval_; }

 private:
  [[nodiscard]] stats::client_sample client_now(double seconds);
  [[nodiscard]] double since_start(stats::clock::time_point t) const;
  [[nodiscard]] stats::phase phase_from(double start_seconds) const;

  shoal::thread_pool& pool_;
  driver::database& db_;
  const stats::recorder& recorder_;
  run_control& control_;
  const stats::clock::time_point started_;
  const std::chrono::nanoseconds interval_;
  stats::clock::time_point last_cut_;
  client_probes probes_;
  stats::sampler sampler_;
  stats::process_usage at_start_, last_usage_;
  std::vector<double> last_busy_;  // carried when a probe did not wake in an interval
  std::vector<std::uint64_t> last_resumed_;
  std::vector<stats::interval_sample> series_;
  std::stop_source stop_;
  shoal::gate gate_;
  std::function<std::size_t()> queued_;
  std::function<driver::pool_stats()> sessions_;
  std::vector<cut_listener> on_cut_;
};

}  // namespace tpcc::run
