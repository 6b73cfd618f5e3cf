// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/more_servers.cpp: the other servers' collectors (see more_servers.hpp).
#include "run/more_servers.hpp"

#include <utility>

namespace tpcc::run {

void read_servers_beside(shoal::thread_pool& pool, monitor& watch,
                         const std::vector<server_stats::collector*>& servers) {
  for (server_stats::collector* c : servers) {
    if (c == nullptr) continue;
    watch.on_cut([c](double end, phase ended, phase next) {
      c->cut({end, stats::to_string(ended), stats::to_string(next)});
    });
    c->start(pool);
  }
}

shoal::task<std::vector<server_stats::server_figures>> finish_servers(
    std::vector<server_stats::collector*> servers) {
  std::vector<server_stats::server_figures> out;
  for (server_stats::collector* c : servers) {
    if (c == nullptr) continue;
    co_await c->stop();  // reads the last cut
    out.push_back(c->finish());
  }
  co_return out;
}

}  // namespace tpcc::run
