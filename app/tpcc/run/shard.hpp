// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/shard.hpp: which warehouses' terminals this client process runs (--shard i/n).
//
// What: shard i of n takes a contiguous range of the warehouses 1..W: [i*W/n + 1, (i+1)*W/n]
// (integer division), so the n ranges cover every warehouse exactly once and their sizes
// differ by at most one. A shard with more shards than warehouses may be empty (last < first).
// Thread-safety: pure functions.
#pragma once

#include <cstdint>

#include "run/run.hpp"

namespace tpcc::run {

struct warehouse_range {
  std::int64_t first = 1, last = 0;  // inclusive; empty when last < first
  [[nodiscard]] std::int64_t count() const noexcept { return last >= first ? last - first + 1 : 0; }
};

// `shard` must satisfy 0 <= index < count (the command line checks it).
[[nodiscard]] warehouse_range shard_range(std::int64_t warehouses, shard_spec shard) noexcept;

}  // namespace tpcc::run
