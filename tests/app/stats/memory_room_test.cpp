// SPDX-License-Identifier: Apache-2.0
// tests/app/stats/memory_room_test.cpp: a run that cannot fit in the memory left is refused
// with the estimate and the limit; one that fits, or with no limit known, is not.
#include "stats/memory_room.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using tpcc::stats::memory_limit;
using tpcc::stats::too_big_for;

TEST(memory_room, AMillionTerminalsDoNotFitIn512MiBAndTheRefusalSaysWhy) {
  const memory_limit room{512ULL << 20, "cgroup memory.max"};
  const std::string why = too_big_for(1'000'000, room).value_or("");
  EXPECT_NE(why.find("1000000 terminals need about 827 MiB"), std::string::npos) << why;
  EXPECT_NE(why.find("the 512 MiB left under the cgroup memory.max"), std::string::npos) << why;
  EXPECT_NE(why.find("--shard"), std::string::npos) << why;
}

TEST(memory_room, WhatFitsOrHasNoKnownLimitIsNotRefused) {
  EXPECT_FALSE(too_big_for(1'000'000, memory_limit{1ULL << 30, "x"}).has_value());
  EXPECT_FALSE(too_big_for(1'000'000'000, std::nullopt).has_value());
  EXPECT_FALSE(too_big_for(0, memory_limit{0, "x"}).has_value());
}

TEST(memory_room, ThisMachineReportsSomeRoomWithItsSource) {
  const auto room = tpcc::stats::memory_room();
  EXPECT_TRUE(room.has_value()) << "/proc/meminfo should be readable on Linux";
  const memory_limit limit = room.value_or(memory_limit{});
  EXPECT_GT(limit.bytes, 0U);
  EXPECT_FALSE(limit.source.empty());
}

}  // namespace
