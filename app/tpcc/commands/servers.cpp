// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/servers.cpp: one collector per distinct server (see servers.hpp).
#include "commands/servers.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

namespace tpcc::commands {
namespace {

constexpr std::chrono::milliseconds server_connect_timeout{5000};

// The index in `made` of the collector whose server is `identity`; -1 when none is (an empty
// identity, unknown, matches none).
int server_known(const std::vector<std::string>& identities, const std::string& identity) {
  if (identity.empty()) return -1;
  const auto at = std::find(identities.begin(), identities.end(), identity);
  return at == identities.end() ? -1 : static_cast<int>(at - identities.begin());
}

}  // namespace

server_stats::collector* server_collectors::first() const {
  return made.empty() ? nullptr : made.front().get();
}

std::vector<server_stats::collector*> server_collectors::more() const {
  std::vector<server_stats::collector*> out;
  for (std::size_t i = 1; i < made.size(); ++i) out.push_back(made[i].get());
  return out;
}

shoal::task<server_collectors> open_server_collectors(const cli::config& cfg,
                                                      std::function<void(const std::string&)> say) {
  server_collectors out;
  std::vector<std::string> identities;  // of `made`, by index
  for (std::size_t i = 0; i < std::max<std::size_t>(1, cfg.endpoints.size()); ++i) {
    const driver::target& t = cfg.endpoints.empty() ? cfg.db : cfg.endpoints[i];
    server_stats::opened_collector opened =
        co_await server_stats::open_collector(t, server_connect_timeout, say);
    if (!opened.made) {
      if (i == 0) {
        out.why_not = opened.why_not;
        out.made.emplace_back();  // [0] stays the first endpoint's
        identities.emplace_back();
      }
      if (!opened.why_not.empty()) {
        say(i == 0 ? opened.why_not : "endpoint " + std::to_string(i + 1) + ": " + opened.why_not);
      }
      out.of_endpoint.push_back(-1);
      continue;
    }
    std::string identity;  // not asked with one endpoint: nothing to tell apart
    if (cfg.endpoints.size() > 1) identity = co_await opened.made->identify();
    const int known = server_known(identities, identity);
    if (known >= 0) {
      co_await opened.made->stop();  // never started: closes its connection
      out.of_endpoint.push_back(known);
      continue;
    }
    out.of_endpoint.push_back(static_cast<int>(out.made.size()));
    out.made.push_back(std::move(opened.made));
    identities.push_back(identity);
  }
  co_return out;
}

shoal::task<void> stop_server_collectors(server_collectors& servers) {
  for (const auto& c : servers.made) {
    if (c) co_await c->stop();
  }
}

}  // namespace tpcc::commands
