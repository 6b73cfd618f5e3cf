// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/shard.cpp: the warehouse range of a shard (see shard.hpp).
#include "run/shard.hpp"

namespace tpcc::run {

warehouse_range shard_range(std::int64_t warehouses, shard_spec shard) noexcept {
  if (shard.count <= 1) return {1, warehouses};
  // Exact in 64 bits for any warehouse and shard count the command line accepts (<= 10^6).
  return {shard.index * warehouses / shard.count + 1, (shard.index + 1) * warehouses / shard.count};
}

}  // namespace tpcc::run
