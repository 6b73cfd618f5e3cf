// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/analytic.hpp: CH-benCHmark's analytic streams beside the terminals.
//
// What: `analytic_streams` runs one stream per database of its plan (each opened by the caller
// with connections of its own, never the terminals' pool). Stream i starts at query i mod 22 + 1
// and runs the 22 in the paper's order, round and round, each query one coroutine on the pool
// (ch::run_query: a transaction of its own). A query counts as completed when it ends ok inside
// the measurement window [window_start, window_end]; failures and cancellations count in any
// phase (nothing is lost; the first error of each query is printed once on stderr).
// Ending: end() stops issuing and cancels the queries in flight with the driver's cancel
// request (session::cancel(): PostgreSQL's PQcancel); a driver without one (SQLite, whose stop
// token interrupts, and MySQL/MariaDB) is stopped by its stop token at once. stop() waits for
// the streams for at most `grace`, then stops every call by its stop token (a PostgreSQL
// connection is then closed). A query that ends after end() counts as cancelled: not as
// failed, nor as completed when the server finished it all the same.
// Paused streams (set_active, a --schedule step's streams=N): stream i runs while i < N; a
// paused stream finishes the query in flight, then waits (no query, no cancel) until resumed.
// Lifetime: start() once; stop() (or join()) awaited before destruction.
// Thread-safety: end(), set_active(), take() and progress() from any thread; the rest from
// the owner.
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <stop_token>
#include <vector>

#include "driver/database.hpp"
#include "driver/statement.hpp"
#include "driver/target.hpp"
#include "run/ch_series.hpp"
#include "run_result/ch_result.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "stats/recorder.hpp"

namespace tpcc::run {

struct analytic_plan {
  std::vector<driver::database*> databases;  // one per stream; outlive the streams
  driver::engine dialect = driver::engine::postgres;
  stats::clock::time_point window_start, window_end;  // completed queries count inside
  std::chrono::nanoseconds grace = std::chrono::milliseconds(500);  // cancel, then hard stop
  std::size_t passes = 0;  // 0: until end(); else each stream ends after this many rounds
  // Tests only: run this statement for every query number instead of the query's text.
  const driver::statement* only = nullptr;
};

class analytic_streams {
 public:
  analytic_streams(shoal::thread_pool& pool, analytic_plan plan);
  analytic_streams(const analytic_streams&) = delete;
  analytic_streams& operator=(const analytic_streams&) = delete;
  ~analytic_streams();

  /// Spawns the streams on the pool. Call once.
  void start();
  /// Stops issuing queries and cancels those in flight (see the header). Idempotent, any thread.
  void end() noexcept;
  /// end(), then waits for every stream for at most plan.grace, then stops what is left by its
  /// stop token and waits for it.
  ///   Result: none. Errors: std::bad_alloc. Cancellation: none (it is the cancellation).
  ///   Resumes on: a worker of the pool. Thread-safety: the owner only.
  shoal::task<void> stop();
  /// Waits for the streams to end by themselves (plan.passes rounds each), without ending them.
  ///   Resumes on: a worker of the pool. Thread-safety: the owner only.
  shoal::task<void> join();
  /// Lets streams 0..n-1 run and pauses the others (see the header); all run until called.
  /// Any thread.
  void set_active(std::size_t n);
  /// The figures so far, with the streams set_active() lets run. Any thread.
  [[nodiscard]] ch_totals take() const;
  /// What has ended so far in every phase, for the series (run/ch_series.hpp). Any thread.
  [[nodiscard]] ch_progress progress() const;
  /// Queries ended by the hard stop after the grace (not by the driver's cancel request).
  [[nodiscard]] std::size_t hard_stopped() const;

  struct shared;

 private:
  shoal::thread_pool& pool_;
  std::unique_ptr<shared> shared_;
};

}  // namespace tpcc::run
