// SPDX-License-Identifier: Apache-2.0
// shoal/detail/timer_node.hpp: one pending timer, embedded in the awaiter that waits for it.
//
// Lifetime: the node lives in the suspended coroutine's frame (inside its awaiter) from
// add_timer until it fires or is cancelled; the timer structure only points at it.
// Thread-safety: a node belongs to one executor and is touched only on that executor's thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "shoal/clock.hpp"

namespace shoal::detail {

struct timer_node {
  static constexpr std::size_t not_queued = std::numeric_limits<std::size_t>::max();

  time_point deadline{};
  // Called on the owning executor's thread once the deadline has passed.
  void (*fire)(timer_node& self) noexcept = nullptr;
  std::size_t heap_index = not_queued;  // maintained by timer_heap
  std::uint64_t sequence = 0;           // FIFO among equal deadlines

  [[nodiscard]] bool queued() const noexcept { return heap_index != not_queued; }
};

}  // namespace shoal::detail
