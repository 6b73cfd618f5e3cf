// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/citus_nodes.hpp: a Citus cluster's nodes, which take queries, and each as a
// ready-to-use --db endpoint of `run`.
//
// What: list_citus_nodes reads the primary nodes of pg_dist_node on the coordinator (its own
// row, when citus_set_coordinator_host gave it one, and every worker). On Citus 11 and later a
// worker takes queries on the distributed tables when it is active and its metadata is synced
// (hasmetadata and metadatasynced); the coordinator always does. endpoints_lines turns the list
// and the coordinator's own --db into what `init` prints: one line listing a --db per node that
// takes queries (the coordinator's as given, each worker's the same settings with the node's
// host and port: driver/node_target.hpp), shell-quoted and with any password as "***", then a
// line per node that takes none, saying why and what gives it them.
//
// Awaiting list_citus_nodes:
//   Result: ok and the nodes (coordinator first, then by group), or the query's failed outcome
//           (the transaction rolled back; `nodes` left empty).
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token reaches the driver calls.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session; endpoints_lines is a pure function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "shoal/task.hpp"

namespace tpcc::schema {

// One primary node as pg_dist_node lists it.
struct citus_node {
  std::string name;  // nodename: a host name, an address or a Unix socket directory
  std::int64_t port = 0;
  bool coordinator = false;  // group 0
  bool active = false;
  bool has_metadata = false, metadata_synced = false;
};

// Why `n` takes no queries on the distributed tables and what gives it them; empty when it
// takes them.
[[nodiscard]] std::string why_no_queries(const citus_node& n);

shoal::task<driver::outcome> list_citus_nodes(driver::session& s, std::vector<citus_node>& nodes);

// init's lines (each ending in '\n'): "init: every node as an endpoint of `run`: --db '...'
// --db '...'" (or "N of M nodes as endpoints of `run`: ..." when some take no queries), then
// "init: worker HOST:PORT takes no queries: WHY" for each of those. `coordinator_target` is the
// --db init was given. Empty when `nodes` is.
[[nodiscard]] std::string endpoints_lines(const std::vector<citus_node>& nodes,
                                          const std::string& coordinator_target);

}  // namespace tpcc::schema
