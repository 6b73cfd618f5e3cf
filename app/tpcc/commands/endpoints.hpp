// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/endpoints.hpp: opening the endpoints after the first (--db given more than
// once, `run` only: cli/endpoints.hpp).
//
// What: the first --db is opened by run_app as every command's database; the others are opened
// here, each with the same options (its own pool of --connections sessions, its own reconnect
// and back-off), and closed again after the run.
// Resumes on: the worker they were awaited on. Thread-safety: the command's coroutine only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands/app.hpp"
#include "driver/database.hpp"
#include "shoal/task.hpp"

namespace tpcc::commands {

struct other_endpoints {
  std::vector<std::unique_ptr<driver::database>> opened;  // in --db order, the first excluded
  std::string failure;  // why one could not be opened (naming it); empty when all were

  [[nodiscard]] std::vector<driver::database*> databases() const;
};

/// Opens a.cfg.endpoints after the first. Result: every one opened, or the first that could not
/// be (`failure` set, those opened before it closed again). Resumes on: the awaiting worker.
[[nodiscard]] shoal::task<other_endpoints> open_other_endpoints(const app& a);

/// Closes them (each waits for its leases first). Resumes on: the awaiting worker.
[[nodiscard]] shoal::task<void> close_endpoints(other_endpoints& endpoints);

/// The target every output names: the first endpoint's description, then the others' (each
/// password redacted), joined by ", ".
[[nodiscard]] std::string endpoints_target(const driver::database& first,
                                           const other_endpoints& others);

}  // namespace tpcc::commands
