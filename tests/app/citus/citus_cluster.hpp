// SPDX-License-Identifier: Apache-2.0
// tests/app/citus/citus_cluster.hpp: a throwaway Citus cluster for one test process.
//
// What: three PostgreSQL servers (app/tpcc/testing/postgres_server.hpp) with citus preloaded, each
// on its own Unix socket directory: a coordinator and two workers. The constructor creates the
// extension on each, names the coordinator (citus_set_coordinator_host) and adds the workers
// (citus_add_node) by socket directory and port. Nodes reach each other over those sockets.
// unavailable_reason() says why no cluster can be made here (no PostgreSQL binaries, no
// citus.so: build it with scripts/citus.sh); the tests skip with that text. The constructor
// throws std::runtime_error when a step fails (with the command's output).
// The destructor stops the three servers and removes their directories.
//
// Thread-safety: one thread; stop_worker()/start_worker() may be called from a thread other
// than the one running the binary, never concurrently with each other.
#pragma once

#include <array>
#include <memory>
#include <string>

#include "testing/postgres_server.hpp"

namespace tpcc::testing {

class citus_cluster {
 public:
  // Empty when a cluster can be made; else why not.
  [[nodiscard]] static std::string unavailable_reason();

  citus_cluster();
  citus_cluster(const citus_cluster&) = delete;
  citus_cluster& operator=(const citus_cluster&) = delete;
  ~citus_cluster() = default;

  // The coordinator as a --db target (postgresql://postgres@/postgres?host=DIR&port=5432).
  [[nodiscard]] std::string target() const;
  [[nodiscard]] postgres_server& coordinator() { return *coordinator_; }
  [[nodiscard]] postgres_server& worker(std::size_t k) { return *workers_.at(k); }

 private:
  std::unique_ptr<postgres_server> coordinator_;
  std::array<std::unique_ptr<postgres_server>, 2> workers_;
};

}  // namespace tpcc::testing
