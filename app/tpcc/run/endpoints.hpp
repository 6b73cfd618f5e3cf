// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/endpoints.hpp: a run over several endpoints of one database (--db given more
// than once): their warehouse ranges, recorders and results.
//
// What: endpoint k of n takes range k of n of this process's warehouses, split as shards split
// the warehouses (run/shard.hpp: contiguous, sizes differing by at most one), and its own
// recorder over the run's window; its terminals and deliverers send that range's transactions
// to it (terminal/routes.hpp). Each endpoint is a database of its own (driver/database.hpp):
// its own connection pool, its own reconnect and back-off.
// Lifetime: an endpoint_set outlives the terminals (the routes point into it).
// Thread-safety: built and read by the run's coroutine; the recorders are thread-safe.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "driver/database.hpp"
#include "run/run.hpp"
#include "run/shard.hpp"
#include "run_result/result.hpp"
#include "stats/recorder.hpp"
#include "stats/series.hpp"
#include "terminal/routes.hpp"

namespace tpcc::run {

struct endpoint_set {
  std::vector<std::unique_ptr<stats::recorder>> recorders;
  std::vector<terminal::endpoint_route> routes;  // empty with one endpoint
};

/// Why `endpoints` endpoints cannot share `range` (fewer warehouses than endpoints); nullopt
/// when they can.
[[nodiscard]] std::optional<std::string> endpoints_refused(std::size_t endpoints,
                                                           warehouse_range range);

/// The routes of `dbs` (in --db order) over `range`, each with its recorder of the window
/// [start, end); none when there is one database. `dbs` must pass endpoints_refused().
[[nodiscard]] endpoint_set route_endpoints(std::span<driver::database* const> dbs,
                                           warehouse_range range, stats::clock::time_point start,
                                           stats::clock::time_point end);

/// Each endpoint's target, recorder and database, for run_control::publish_endpoints.
[[nodiscard]] std::vector<live_endpoint> live_endpoints(const endpoint_set& set);

/// The endpoints' pools added up (sessions, lent, waiting, replaced).
[[nodiscard]] driver::pool_stats pools_of(const endpoint_set& set);

/// Each endpoint's part of the result (run_result::endpoints), from its recorder and pool now,
/// with its series (run/endpoint_series.hpp: one per endpoint, in --db order).
[[nodiscard]] std::vector<endpoint_result> endpoint_results(
    const endpoint_set& set, std::vector<std::vector<stats::endpoint_interval>> series);

}  // namespace tpcc::run
