// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/servers.cpp: naming a run's servers (see servers.hpp).
#include "report/servers.hpp"

namespace tpcc::report {

std::vector<std::string> server_endpoints(const run::run_result& r, std::size_t index) {
  std::vector<std::string> out;
  for (const run::endpoint_result& e : r.endpoints) {
    if (e.server >= 0 && static_cast<std::size_t>(e.server) == index) out.push_back(e.target);
  }
  return out;
}

std::vector<named_server> servers_of(const run::run_result& r) {
  std::vector<named_server> out;
  for (std::size_t k = 0; k <= r.more_servers.size(); ++k) {
    const std::vector<std::string> targets = server_endpoints(r, k);
    out.push_back({k, targets.empty() ? std::string() : targets.front(),
                   k == 0 ? &r.server : &r.more_servers[k - 1]});
  }
  return out;
}

}  // namespace tpcc::report
