// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/load_split.cpp: load --shard and load --csv checked (see load_split.hpp).
#include "cli/load_split.hpp"

namespace tpcc::cli {

std::optional<std::string> check_load_split(const config& cfg) {
  if (cfg.cmd != command::load || cfg.shard_count <= 1) return std::nullopt;
  if (cfg.warehouses == 0) {
    return std::string(
        "load --shard needs --warehouses N: every shard takes its range of the same count");
  }
  if (!cfg.csv_path.empty() && cfg.seed == 0) {
    return std::string(
        "load --csv with --shard needs --seed N: every shard must draw its rows from the "
        "same seed (only shard 0's tpcc_meta.csv records the NURand constants)");
  }
  return std::nullopt;
}

}  // namespace tpcc::cli
