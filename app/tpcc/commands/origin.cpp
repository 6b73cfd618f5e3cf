// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/origin.cpp: a result's provenance (see origin.hpp).
#include "commands/origin.hpp"

#include <unistd.h>

#include <array>
#include <thread>

#include "commands/build.hpp"
#include "schema/server_version.hpp"

namespace tpcc::commands {

shoal::task<run::provenance> origin_of(const app& a, driver::database& db) {
  run::provenance p;
  p.command_line = a.command_line;
  p.version = build_version();
  p.commit = build_commit();
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) == 0) p.host = host.data();
  p.cores = std::thread::hardware_concurrency();
  p.workers = a.pool.size();
  p.connections = a.cfg.connections;
  p.server_version = co_await schema::server_version(db);
  co_return p;
}

}  // namespace tpcc::commands
