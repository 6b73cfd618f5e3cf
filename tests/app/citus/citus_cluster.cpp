// SPDX-License-Identifier: Apache-2.0
// A throwaway Citus cluster (citus_cluster.hpp).
#include "citus_cluster.hpp"

#include <filesystem>

namespace tpcc::testing {

namespace {

constexpr int node_port = 5432;  // every node's socket file is DIR/.s.PGSQL.5432

postgres_server_options citus_node() {
  return {.settings = {"shared_preload_libraries = 'citus'", "max_prepared_transactions = 200",
                       "max_connections = 300",
                       // a stopped worker is reported within seconds, not after a long timeout
                       "citus.node_connection_timeout = 3000",
                       // each logged error with its SQLSTATE
                       "log_line_prefix = '%m [%p] %e '",
                       // the client's connections, counted by the node-loss test
                       "log_connections = on"}};
}

std::string node_name(const postgres_server& s) { return "'" + s.socket_dir() + "'"; }

}  // namespace

std::string citus_cluster::unavailable_reason() {
  if (!postgres_server::available()) return "the PostgreSQL server binaries are not installed";
  const std::filesystem::path lib =
      std::filesystem::path(postgres_server::bin_dir()).parent_path() / "lib" / "citus.so";
  if (!std::filesystem::exists(lib)) {
    return "the citus extension is not installed (" + lib.string() +
           " absent): build it with scripts/citus.sh SRC_DIR";
  }
  return {};
}

citus_cluster::citus_cluster() {
  coordinator_ = std::make_unique<postgres_server>(citus_node());
  for (auto& w : workers_) w = std::make_unique<postgres_server>(citus_node());
  coordinator_->sql("CREATE EXTENSION citus");
  for (auto& w : workers_) w->sql("CREATE EXTENSION citus");
  coordinator_->sql("SELECT citus_set_coordinator_host(" + node_name(*coordinator_) + ", " +
                    std::to_string(node_port) + ")");
  for (auto& w : workers_) {
    coordinator_->sql("SELECT citus_add_node(" + node_name(*w) + ", " + std::to_string(node_port) +
                      ")");
  }
}

std::string citus_cluster::target() const { return coordinator_->uri("postgres", ""); }

}  // namespace tpcc::testing
