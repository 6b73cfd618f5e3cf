// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/client.hpp: the client measuring itself, so that a result limited by the
// client, not the database, is never published as the database's.
//
// What: per worker, per interval: the fraction of the interval its thread spent on the CPU
// (busy), coroutines resumed per second, and a probe's timer lateness (how late a sleep woke
// after its deadline) and ready-queue delay (how long a coroutine made ready waited before it
// ran). The process: CPU seconds (user + system) and resident set size. The session pool:
// size, sessions in use, callers waiting. client_totals sums the measurement interval and
// carries the client-bound verdict: lateness or queueing beyond the configured limit, or
// workers saturated, marks the result as client-bound.
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "stats/histogram.hpp"

namespace tpcc::stats {

struct worker_sample {
  double busy = 0;                // 0..1 of the interval on the CPU
  double resumed_per_second = 0;  // coroutines resumed
  std::uint64_t lateness_max_us = 0;
  std::uint64_t queue_delay_max_us = 0;
};

struct client_sample {
  std::vector<worker_sample> workers;
  std::uint64_t lateness_p99_us = 0;     // over all workers' probes in the interval
  std::uint64_t queue_delay_p99_us = 0;  // idem
  std::size_t pool_size = 0, pool_in_use = 0, pool_waiting = 0;  // at the end of the interval
  std::size_t deliveries_queued = 0;  // deferred Deliveries waiting for a deliverer, then
  double cpu_seconds = 0;             // process, in the interval
  std::uint64_t rss_bytes = 0;        // at the end of the interval
};

struct client_totals {
  histogram timer_lateness;  // probe samples during the measurement interval, all workers
  histogram queue_delay;
  std::vector<double> worker_busy;  // mean busy fraction per worker, measurement interval
  double cpu_seconds = 0;           // process user + system, whole run
  double measure_cpu_seconds = 0;   // during the measurement interval
  std::uint64_t peak_rss_bytes = 0;
  std::uint64_t rss_before_terminals = 0;  // just before the terminals were started
  std::uint64_t rss_with_terminals = 0;    // once all terminals were running
  double bytes_per_terminal = 0;           // (with - before) / terminals
  bool client_bound = false;
  std::string client_bound_reason;  // empty unless client_bound
};

}  // namespace tpcc::stats
