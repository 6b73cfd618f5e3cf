// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/config.cpp: the "choose for me" defaults (see config.hpp).
#include "cli/config.hpp"

#include <algorithm>

namespace tpcc::cli {
namespace {

// Simulated sessions cost a few bytes: enough that the pool never limits a capacity run
// (15,000 warehouses keep about 100 busy at 5 ms a round trip).
constexpr std::size_t sim_connections = 4096;

std::size_t default_connections(const config& c) {
  if (c.is_sim()) return sim_connections;
  return c.is_sqlite() ? 1 : 16;
}

}  // namespace

void resolve_defaults(config& c) {
  if (c.connections == 0) c.connections = default_connections(c);
  if (c.deliverers == 0) c.deliverers = std::max<std::size_t>(1, c.connections / 8);
  if (c.load_parallel == 0) c.load_parallel = std::min<std::size_t>(c.connections, 8);
  // load: 0 resumes a broken load with the count it recorded (1 for a fresh one).
  if (c.warehouses == 0 && c.cmd == command::all) c.warehouses = 2;
}

}  // namespace tpcc::cli
