// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/load_split.hpp: what `load --shard` and `load --csv` need of the rest of the
// command line, checked once after parsing, before any work.
//
// What: check_load_split(cfg) returns one line naming what is missing, or nullopt:
//   - load --shard I/N needs --warehouses N: each shard computes its range from the count, and
//     shards started together on a fresh database must agree on it;
//   - load --csv DIR --shard I/N needs --seed: every shard's rows must be drawn with the NURand
//     constants of one seed, which only shard 0's tpcc_meta.csv records.
// Commands other than load pass. Thread-safety: a pure function.
#pragma once

#include <optional>
#include <string>

#include "cli/config.hpp"

namespace tpcc::cli {

[[nodiscard]] std::optional<std::string> check_load_split(const config& cfg);

}  // namespace tpcc::cli
