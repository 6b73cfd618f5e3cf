// SPDX-License-Identifier: Apache-2.0
// counted.hpp: a value type that counts its constructions, copies, moves and destructions, so a
// test can assert that a task neither copies nor leaks what it returns.
#pragma once

namespace shoal::testing {

struct counted {
  static inline int alive = 0;
  static inline int copies = 0;
  static inline int moves = 0;
  static void reset() noexcept { alive = copies = moves = 0; }

  int value = 0;
  explicit counted(int v = 0) noexcept : value(v) { ++alive; }
  counted(const counted& o) noexcept : value(o.value) {
    ++alive;
    ++copies;
  }
  counted(counted&& o) noexcept : value(o.value) {
    ++alive;
    ++moves;
  }
  counted& operator=(const counted&) = default;
  counted& operator=(counted&&) = default;
  ~counted() { --alive; }
};

}  // namespace shoal::testing
