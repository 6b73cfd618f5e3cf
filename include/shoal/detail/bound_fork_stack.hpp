// SPDX-License-Identifier: Apache-2.0
// shoal/detail/bound_fork_stack.hpp: where a pool worker keeps the children forked by a chain
// bound to it (when_all, when_any, task_group under schedule_on, spawn_on, a fiber): an
// owner-only LIFO, never stolen.
//
// What: a fixed array used as a stack. A bound chain's children may run only on its worker
// (binding is a promise), so they cannot go into the fork deque, which thieves take from; before
// this stack they were posted to the worker's pinned FIFO, and a fork tree in a bound chain
// unfolded breadth first with every waiting parent alive. The worker serves this stack newest
// first, with its fork deque and before its pinned queue, so a bound fork tree unfolds depth first
// too and needs memory for its depth, not its size. Full (more pending siblings than `capacity`
// along one path, or a task_group spawning that many at once): push fails and the caller posts
// the child the ordinary way (pinned), so nothing allocates after construction.
//
// Thread-safety: the owner's thread only, every member (no atomics: no other thread ever looks).
#pragma once

#include <coroutine>
#include <cstddef>
#include <memory>

namespace shoal::detail {

class bound_fork_stack {
 public:
  static constexpr std::size_t default_capacity = 1024;

  explicit bound_fork_stack(std::size_t capacity = default_capacity)
      : capacity_(capacity), slots_(std::make_unique<void*[]>(capacity)) {}

  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }
  [[nodiscard]] bool empty() const noexcept { return size_ == 0; }

  // False when full (the caller posts `h` pinned instead).
  bool push(std::coroutine_handle<> h) noexcept {
    if (size_ == capacity_) return false;
    slots_[size_++] = h.address();
    return true;
  }

  // Pushes item(0) .. item(n - 1) (the last one newest, popped first) if there is room for all of
  // them, each item(i) called once; false (nothing pushed, item not called) otherwise.
  template <class Item>
  bool push_all(std::size_t n, Item item) noexcept {
    if (capacity_ - size_ < n) return false;
    for (std::size_t i = 0; i < n; ++i) slots_[size_ + i] = item(i).address();
    size_ += n;
    return true;
  }

  // The newest item, or nullptr.
  std::coroutine_handle<> pop() noexcept {
    if (size_ == 0) return nullptr;
    return std::coroutine_handle<>::from_address(slots_[--size_]);
  }

 private:
  std::size_t capacity_;
  std::size_t size_ = 0;
  std::unique_ptr<void*[]> slots_;
};

}  // namespace shoal::detail
