// SPDX-License-Identifier: Apache-2.0
// shoal/detail/timer_heap.hpp: the per-executor timer structure.
//
// What: an intrusive 4-ary min-heap ordered by (deadline, sequence), so timers with equal
// deadlines fire in the order they were added. Each entry keeps its key next to the node pointer,
// so comparisons never leave the heap's own array; only moves write the node's index back.
// push and erase are O(log n), the next deadline O(1); a million pending timers cost 24 MB.
//
// Thread-safety: none. One executor owns a heap and touches it only from its own thread.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "shoal/detail/timer_node.hpp"

namespace shoal::detail {

class timer_heap {
 public:
  void push(timer_node& node);
  // Removes a queued node; returns false when it was not queued (already fired or never added).
  bool erase(timer_node& node) noexcept;
  // Removes and returns the earliest node whose deadline is at or before `now`, or nullptr.
  timer_node* pop_expired(time_point now) noexcept;

  [[nodiscard]] std::optional<time_point> next_deadline() const noexcept;
  [[nodiscard]] std::size_t size() const noexcept { return nodes_.size(); }
  [[nodiscard]] bool empty() const noexcept { return nodes_.empty(); }

 private:
  struct entry {
    time_point deadline;
    std::uint64_t sequence;
    timer_node* node;
  };
  static constexpr std::size_t arity = 4;
  static bool before(const entry& a, const entry& b) noexcept;
  void place(std::size_t index, const entry& e) noexcept;
  void sift_up(std::size_t index) noexcept;
  void sift_down(std::size_t index) noexcept;
  void remove_at(std::size_t index) noexcept;

  std::vector<entry> nodes_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace shoal::detail
