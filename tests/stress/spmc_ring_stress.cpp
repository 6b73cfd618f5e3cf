// SPDX-License-Identifier: Apache-2.0
// spmc_ring under real concurrency: the owner pushes and pops while thieves pop and steal
// halves; every item must be taken exactly once.
#include "pool/spmc_ring.hpp"
#include "support/fake_handle.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace {

using shoal::detail::spmc_ring;
using shoal::testing::as_handle;
using shoal::testing::as_index;

TEST(SpmcRingStress, EveryItemIsTakenExactlyOnceUnderStealing) {
  constexpr std::uintptr_t items = 200'000;
  spmc_ring owner(64);
  std::vector<std::atomic<int>> taken(items + 1);
  std::atomic<bool> producing{true};
  auto take = [&](std::coroutine_handle<> h) { taken[as_index(h)].fetch_add(1); };

  auto thief = [&] {
    spmc_ring mine(64);
    while (producing.load() || !owner.empty()) {
      if (auto h = owner.steal_into(mine)) {
        take(h);
        while (auto more = mine.pop()) take(more);
      }
      if (auto h = owner.pop()) take(h);
    }
  };
  std::thread t1(thief), t2(thief);
  for (std::uintptr_t i = 1; i <= items; ++i) {
    while (!owner.push(as_handle(i))) {
      if (auto h = owner.pop()) take(h);
    }
    if (i % 7 == 0) {
      if (auto h = owner.pop()) take(h);
    }
  }
  producing.store(false);
  t1.join();
  t2.join();
  while (auto h = owner.pop()) take(h);
  for (std::uintptr_t i = 1; i <= items; ++i) ASSERT_EQ(taken[i].load(), 1) << "item " << i;
}

TEST(SpmcRing, IsFifoForItsOwnerAndRefusesWhenFull) {
  spmc_ring ring(4);
  for (std::uintptr_t i = 1; i <= 4; ++i) EXPECT_TRUE(ring.push(as_handle(i)));
  EXPECT_FALSE(ring.push(as_handle(5)));
  for (std::uintptr_t i = 1; i <= 4; ++i) EXPECT_EQ(as_index(ring.pop()), i);
  EXPECT_FALSE(ring.pop());
}

TEST(SpmcRing, StealTakesTheOlderHalf) {
  spmc_ring victim(16), thief(16);
  for (std::uintptr_t i = 1; i <= 10; ++i) victim.push(as_handle(i));
  EXPECT_EQ(as_index(victim.steal_into(thief)), 1u);
  EXPECT_EQ(thief.size(), 4u);
  EXPECT_EQ(victim.size(), 5u);
  EXPECT_EQ(as_index(thief.pop()), 2u);
  EXPECT_EQ(as_index(victim.pop()), 6u);
}

}  // namespace
