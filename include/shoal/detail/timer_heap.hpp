// shoal/detail/timer_heap.hpp: the per-executor timer structure.
//
// What: an intrusive binary min-heap of timer_node pointers ordered by (deadline, sequence), so
// timers with equal deadlines fire in the order they were added. push and erase are O(log n),
// the next deadline O(1); a million pending timers cost 8 MB of pointers and nothing else.
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
  static bool before(const timer_node* a, const timer_node* b) noexcept;
  void place(std::size_t index, timer_node* node) noexcept;
  void sift_up(std::size_t index) noexcept;
  void sift_down(std::size_t index) noexcept;
  void remove_at(std::size_t index) noexcept;

  std::vector<timer_node*> nodes_;
  std::uint64_t next_sequence_ = 0;
};

}  // namespace shoal::detail
