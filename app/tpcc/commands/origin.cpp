// app/tpcc/commands/origin.cpp: a result's provenance (see origin.hpp).
#include "commands/origin.hpp"

#include <unistd.h>

#include <array>
#include <thread>

#include "commands/build.hpp"

namespace tpcc::commands {

void record_origin(const app& a, run::provenance& p) {
  p.command_line = a.command_line;
  p.version = build_version();
  p.commit = build_commit();
  std::array<char, 256> host{};
  if (::gethostname(host.data(), host.size() - 1) == 0) p.host = host.data();
  p.cores = std::thread::hardware_concurrency();
  p.workers = a.pool.size();
  p.connections = a.cfg.connections;
}

}  // namespace tpcc::commands
