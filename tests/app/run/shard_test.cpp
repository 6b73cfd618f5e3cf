// SPDX-License-Identifier: Apache-2.0
// tests/app/run/shard_test.cpp: --shard ranges cover every warehouse exactly once, contiguous
// and as even as possible; --start-at reads ISO 8601 UTC times and epoch seconds.
#include "run/shard.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <vector>

#include "cli/start_at.hpp"

namespace {

using tpcc::cli::parse_start_at;
using tpcc::run::shard_range;
using tpcc::run::warehouse_range;

TEST(shard_range, ShardsCoverEveryWarehouseExactlyOnceInContiguousEvenRanges) {
  for (const std::int64_t warehouses : {1, 2, 3, 7, 10, 100, 15000}) {
    for (std::int64_t n = 1; n <= std::min<std::int64_t>(warehouses, 13); ++n) {
      std::vector<int> seen(static_cast<std::size_t>(warehouses) + 1, 0);
      std::int64_t next = 1, smallest = warehouses, largest = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const warehouse_range r = shard_range(warehouses, {.index = i, .count = n});
        ASSERT_EQ(r.first, next) << warehouses << " " << i << "/" << n;  // contiguous, in order
        for (std::int64_t w = r.first; w <= r.last; ++w) ++seen[static_cast<std::size_t>(w)];
        smallest = std::min(smallest, r.count());
        largest = std::max(largest, r.count());
        next = r.last + 1;
      }
      EXPECT_EQ(next, warehouses + 1);
      EXPECT_LE(largest - smallest, 1) << warehouses << " / " << n;
      EXPECT_GE(smallest, 1);
      for (std::int64_t w = 1; w <= warehouses; ++w) {
        ASSERT_EQ(seen[static_cast<std::size_t>(w)], 1) << "warehouse " << w;
      }
    }
  }
}

TEST(shard_range, OneShardTakesEverythingAndTooManyShardsLeaveSomeEmpty) {
  const warehouse_range all = shard_range(5, {});
  EXPECT_EQ(all.first, 1);
  EXPECT_EQ(all.last, 5);
  EXPECT_EQ(shard_range(2, {.index = 0, .count = 3}).count(), 0);
  EXPECT_EQ(shard_range(2, {.index = 2, .count = 3}).count(), 1);
}

std::int64_t epoch_of(const char* text) {
  const auto t = parse_start_at(text);
  EXPECT_TRUE(t.has_value()) << text;
  if (!t) return -1;
  return std::chrono::duration_cast<std::chrono::seconds>(t->time_since_epoch()).count();
}

std::int64_t millis_of(const char* text) {
  const auto t = parse_start_at(text);
  EXPECT_TRUE(t.has_value()) << text;
  if (!t) return -1;
  return std::chrono::duration_cast<std::chrono::milliseconds>(t->time_since_epoch()).count();
}

TEST(start_at, ReadsIsoUtcTimesAndEpochSeconds) {
  EXPECT_EQ(epoch_of("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(epoch_of("2026-11-21T10:00:00Z"), 1795255200);
  EXPECT_EQ(epoch_of("2024-02-29T23:59:59Z"), 1709251199);
  EXPECT_EQ(epoch_of("1795255200"), 1795255200);
  EXPECT_EQ(millis_of("2026-11-21T10:00:00.25Z"), 1795255200250);
  EXPECT_EQ(millis_of("1795255200.5"), 1795255200500);
}

TEST(start_at, RefusesMalformedOrImpossibleTimes) {
  for (const char* bad :
       {"", "now", "tomorrow", "2026-11-21", "2026-11-21T10:00:00", "2026-11-21T10:00:00+01:00",
        "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2026-11-21T24:00:00Z",
        "2026-11-21T10:60:00Z", "2026-11-21T10:00:00.Z", "2026-11-21 10:00:00Z", "-5", "+5",
        "12abc", "1e9", "99999999999999", "2026-1-21T10:00:00Z", "0000-01-01T00:00:00Z"}) {
    EXPECT_FALSE(parse_start_at(bad).has_value()) << bad;
  }
}

}  // namespace
