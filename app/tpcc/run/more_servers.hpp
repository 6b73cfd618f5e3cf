// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/more_servers.hpp: reading the other servers of a run over several endpoints
// (run_result::more_servers), beside the first endpoint's (run.hpp's `server`).
//
// What: each collector is told of every cut of the monitor, as the first server's is, so every
// server's intervals are the client's; after the run each is stopped (its last reading) and
// its figures taken, in order. A null collector is skipped. The run publishes them to the
// metrics endpoint beside the first server's (run_control::publish_more_servers).
// Lifetime: the collectors outlive the monitor's cuts (the caller's). Thread-safety: the run's
// coroutine.
//
// Awaiting finish_servers():
//   Result: each non-null collector's figures, in order. Errors: std::bad_alloc.
//   Cancellation: none (each stop is bounded: collector::stop_bound).
//   Resumes on: a worker of the pool. Thread-safety: once, after the monitor has stopped.
#pragma once

#include <vector>

#include "run/monitor.hpp"
#include "server_stats/collector.hpp"
#include "server_stats/figures.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace tpcc::run {

/// Starts `servers` and has `watch` tell each of its cuts (before watch.start()).
void read_servers_beside(shoal::thread_pool& pool, monitor& watch,
                         const std::vector<server_stats::collector*>& servers);

/// Stops `servers` and takes their figures.
[[nodiscard]] shoal::task<std::vector<server_stats::server_figures>> finish_servers(
    std::vector<server_stats::collector*> servers);

}  // namespace tpcc::run
