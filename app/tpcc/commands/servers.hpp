// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/servers.hpp: the collectors of the database's own figures for `run`, one per
// distinct server among its endpoints (server_stats/collector.hpp).
//
// What: with one --db, one collector on a connection of its own, as before. With several, one
// is opened per endpoint and asked which server it reached (collector::identify: PostgreSQL's
// postmaster start time and port, MySQL's and MariaDB's host name, port and data directory);
// an endpoint whose server an earlier endpoint already reached shares that one's collector and
// its own is closed at once, so each server is sampled once however many endpoints reach it.
// A refused collector is said once (through `say`) and the run goes on without it.
// Resumes on: the worker it was awaited on. Thread-safety: the command's coroutine only.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/config.hpp"
#include "server_stats/collector.hpp"
#include "shoal/task.hpp"

namespace tpcc::commands {

struct server_collectors {
  // [0] the first endpoint's server's (null when it has none), then each other distinct server,
  // in the order of its first endpoint.
  std::vector<std::unique_ptr<server_stats::collector>> made;
  std::vector<int> of_endpoint;  // per endpoint, in --db order: its index in `made`; -1: none
  std::string why_not;  // why the first endpoint's has none; empty for SQLite and the simulation

  [[nodiscard]] server_stats::collector* first() const;
  [[nodiscard]] std::vector<server_stats::collector*> more() const;  // made[1...]
};

/// Opens the collectors of cfg.endpoints (see above). Resumes on: the awaiting worker.
[[nodiscard]] shoal::task<server_collectors> open_server_collectors(
    const cli::config& cfg, std::function<void(const std::string&)> say);

/// Stops every collector (those the run did not stop: a run refused before it started).
/// Resumes on: the awaiting worker.
[[nodiscard]] shoal::task<void> stop_server_collectors(server_collectors& servers);

}  // namespace tpcc::commands
