// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/servers.hpp: each distinct server of a run as the reports name it.
//
// What: a result holds the database's own figures of its first endpoint's server
// (run_result::server, server 0) and of every other distinct server among its endpoints
// (run_result::more_servers, server k at [k - 1]); each endpoint says whose (endpoint_result's
// `server`). A server is named by the target of the first endpoint that reached it (password
// redacted, as every output shows targets); with one endpoint the name is empty.
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "run_result/result.hpp"
#include "server_stats/figures.hpp"

namespace tpcc::report {

struct named_server {
  std::size_t index = 0;  // 0: run_result::server; k: run_result::more_servers[k - 1]
  std::string name;       // its first endpoint's target; empty with one endpoint
  const server_stats::server_figures* figures = nullptr;  // into the result
};

/// The targets of `r`'s endpoints whose server is `index`, in --db order; empty with one
/// endpoint.
[[nodiscard]] std::vector<std::string> server_endpoints(const run::run_result& r,
                                                        std::size_t index);
/// Every server whose figures `r` holds: server 0 (collected or not), then each of
/// more_servers, in order.
[[nodiscard]] std::vector<named_server> servers_of(const run::run_result& r);

}  // namespace tpcc::report
