// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/memory_room.hpp: how much memory this process may still take, and whether a
// run of N terminals fits in it, so that a size that cannot fit is refused up front with the
// estimate and the limit, never met as std::bad_alloc or a kill an hour in.
//
// What: memory_room() is the tightest of: the memory the kernel says is available
// (/proc/meminfo MemAvailable), the cgroup v2 limit less what the cgroup uses
// (/sys/fs/cgroup/memory.max - memory.current), and the address-space limit (RLIMIT_AS, `ulimit
// -v`) less this process's virtual size; nullopt when none can be read. Each names its source.
// too_big_for(terminals, room) compares a run's estimate (bytes_per_terminal each, measured
// at 408 B by scripts/capacity.sh at a million terminals (issue 30; 669-747 B before), kept at
// 800 B for the transactions in flight, plus a fixed allowance for the pool, the driver and the
// reports) with the room; it returns the refusal's text, or nullopt.
// Thread-safety: any thread; memory_room() reads the OS anew.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace tpcc::stats {

struct memory_limit {
  std::uint64_t bytes = 0;  // what may still be taken
  std::string source;       // e.g. "cgroup memory.max"
};

inline constexpr std::uint64_t bytes_per_terminal = 800;
inline constexpr std::uint64_t fixed_allowance = 64ULL << 20;

[[nodiscard]] std::optional<memory_limit> memory_room();
[[nodiscard]] std::optional<std::string> too_big_for(std::int64_t terminals,
                                                     const std::optional<memory_limit>& room);

}  // namespace tpcc::stats
