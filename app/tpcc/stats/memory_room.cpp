// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/memory_room.cpp: the memory left to this process (see memory_room.hpp).
#include "stats/memory_room.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <string_view>

namespace tpcc::stats {
namespace {

// The first number in `file`; nullopt when it cannot be read or says "max".
std::optional<std::uint64_t> number_in(const char* file) {
  std::ifstream in(file);
  std::uint64_t v = 0;
  if (!(in >> v)) return std::nullopt;
  return v;
}

// "Key:   12345 kB" in a /proc file, in bytes.
std::optional<std::uint64_t> kib_field(const char* file, std::string_view key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with(key)) continue;
    return std::stoull(line.substr(key.size())) * 1024;
  }
  return std::nullopt;
}

void tighten(std::optional<memory_limit>& room, std::uint64_t bytes, const char* source) {
  if (!room || bytes < room->bytes) room = memory_limit{bytes, source};
}

std::string mib(std::uint64_t bytes) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.0f MiB", static_cast<double>(bytes) / 1048576.0);
  return text.data();
}

}  // namespace

std::optional<memory_limit> memory_room() {
  std::optional<memory_limit> room;
  if (auto available = kib_field("/proc/meminfo", "MemAvailable:")) {
    tighten(room, *available, "available memory (MemAvailable)");
  }
  const auto max = number_in("/sys/fs/cgroup/memory.max");
  const auto current = number_in("/sys/fs/cgroup/memory.current");
  if (max && current) tighten(room, *max - std::min(*max, *current), "cgroup memory.max");
  rlimit as{};
  const auto size = kib_field("/proc/self/status", "VmSize:");
  if (getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY && size) {
    tighten(room, as.rlim_cur - std::min<std::uint64_t>(as.rlim_cur, *size),
            "address-space limit (ulimit -v)");
  }
  return room;
}

std::optional<std::string> too_big_for(std::int64_t terminals,
                                       const std::optional<memory_limit>& room) {
  if (!room || terminals <= 0) return std::nullopt;
  const std::uint64_t need =
      static_cast<std::uint64_t>(terminals) * bytes_per_terminal + fixed_allowance;
  if (need <= room->bytes) return std::nullopt;
  return std::to_string(terminals) + " terminals need about " + mib(need) + " (" +
         std::to_string(bytes_per_terminal) + " B each, plus " + mib(fixed_allowance) +
         "), more than the " + mib(room->bytes) + " left under the " + room->source +
         ": run fewer warehouses here, or split them with --shard over more processes";
}

}  // namespace tpcc::stats
