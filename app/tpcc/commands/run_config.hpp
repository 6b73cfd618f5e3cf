// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/run_config.hpp: the command line's settings of a run, as the run takes them.
// Thread-safety: plain functions.
#pragma once

#include "cli/config.hpp"
#include "run_result/result.hpp"

namespace tpcc::commands {

/// The run's settings from the command line's: sizes, phases, waits, isolation, deliveries,
/// the interval, the client-lag limit, --shard and --start-at; the seed is drawn from the time
/// when --seed is not given. The one place a cli::config becomes a run::run_config (the run
/// records it in its result as effective).
[[nodiscard]] run::run_config run_config_of(const cli::config& cfg);

/// Warns on stderr when --start-at is already past (the run then starts at once).
void warn_if_start_passed(const cli::config& cfg);

}  // namespace tpcc::commands
