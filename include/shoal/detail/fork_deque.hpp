// SPDX-License-Identifier: Apache-2.0
// shoal/detail/fork_deque.hpp: where a pool worker keeps the children it forked (when_all,
// when_any, task_group), taken newest-first by itself and oldest-first by thieves.
//
// What: a bounded work-stealing deque after Chase and Lev ("Dynamic circular work-stealing
// deque", SPAA 2005) with a fixed array: the owner pushes and pops at the bottom, thieves take
// one item at the top. The owner running its newest child first unfolds a fork tree depth first,
// so a worker holds at most the pending siblings along one path (memory bounded by depth, not by
// the number of tasks); a thief taking the oldest takes the biggest subtree left.
//
// Why no item is lost or taken twice: a thief takes an item only by the CAS that moves top_ past
// it. The owner's pop first publishes the smaller bottom_, then reads top_ (both seq_cst, so a
// thief that read the old bottom_ has its top_ read ordered before): when more than one item is
// left the two cannot meet on the same item; on the last one, owner and thief both CAS top_ and
// exactly one wins. The owner writes slot b only when b - top < capacity, so never over an item a
// thief may still take; a thief that read a slot overwritten after its CAS window fails its CAS.
// Slots are atomics, so those discarded reads are not data races. A push is published by the
// release store of bottom_, which a thief's acquire load pairs with (the child's frame, written
// before, is visible to the thief that runs it).
//
// fork_support is what a worker lends its executor (executor::fork_support()): its deque, the
// owner-only stack of the children of chains bound to it (detail/bound_fork_stack.hpp), how to
// wake an idle worker to steal, the pool it belongs to (workers of one pool may resume each
// other's unbound coroutines), and the budget of inline hand-offs between two turns of its loop.
// Thread-safety: push/pop, the bound stack and the budget are the owner's; steal and empty any
// thread.
#pragma once

#include <atomic>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <memory>

#include "shoal/detail/bound_fork_stack.hpp"

namespace shoal::detail {

class fork_deque {
 public:
  static constexpr std::size_t default_capacity = 1024;

  explicit fork_deque(std::size_t capacity = default_capacity)
      : mask_(capacity - 1), slots_(std::make_unique<std::atomic<void*>[]>(capacity)) {}

  [[nodiscard]] std::size_t capacity() const noexcept { return mask_ + 1; }

  // Owner. False when full (the caller posts the item the ordinary way).
  bool push(std::coroutine_handle<> h) noexcept {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    const std::int64_t t = top_.load(std::memory_order_acquire);  // pairs with steal's CAS
    if (b - t > static_cast<std::int64_t>(mask_)) return false;
    slots_[static_cast<std::size_t>(b) & mask_].store(h.address(), std::memory_order_relaxed);
    bottom_.store(b + 1, std::memory_order_release);  // pairs with steal's acquire
    return true;
  }

  // Owner: pushes item(0) .. item(n - 1) (the last one newest) if there is room for all of them,
  // with one publication, each item(i) called once; false (nothing pushed, item not called)
  // otherwise.
  template <class Item>
  bool push_all(std::size_t n, Item item) noexcept {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    const std::int64_t t = top_.load(std::memory_order_acquire);  // pairs with steal's CAS
    if (b - t + static_cast<std::int64_t>(n) > static_cast<std::int64_t>(mask_ + 1)) return false;
    for (std::size_t i = 0; i < n; ++i) {
      slots_[static_cast<std::size_t>(b + static_cast<std::int64_t>(i)) & mask_].store(
          item(i).address(), std::memory_order_relaxed);
    }
    bottom_.store(b + static_cast<std::int64_t>(n), std::memory_order_release);  // pairs with steal
    return true;
  }

  // Owner: the newest item, or nullptr.
  std::coroutine_handle<> pop() noexcept {
    return pop_or([]() noexcept { return std::coroutine_handle<>(); });
  }
  // Owner: the newest item; when the deque is empty, on_empty() (a fallback kept off the path of
  // a deque that has items: no test of the result); nullptr when a thief won the last item.
  template <class OnEmpty>
  std::coroutine_handle<> pop_or(OnEmpty on_empty) noexcept {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
    if (b < top_.load(std::memory_order_relaxed)) return on_empty();  // empty: skip the fence
    bottom_.store(b, std::memory_order_seq_cst);
    std::int64_t t = top_.load(std::memory_order_seq_cst);
    if (t > b) {  // a thief took the last one
      bottom_.store(b + 1, std::memory_order_relaxed);
      return nullptr;
    }
    void* item = slots_[static_cast<std::size_t>(b) & mask_].load(std::memory_order_relaxed);
    if (t == b) {  // the last item: race the thieves for it
      const bool won = top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                                    std::memory_order_relaxed);
      bottom_.store(b + 1, std::memory_order_relaxed);
      if (!won) return nullptr;
    }
    return std::coroutine_handle<>::from_address(item);
  }

  // Any thread but the owner: the oldest item, or nullptr (empty, or another thread won it).
  std::coroutine_handle<> steal() noexcept {
    std::int64_t t = top_.load(std::memory_order_seq_cst);
    const std::int64_t b = bottom_.load(std::memory_order_seq_cst);  // pairs with push, pop
    if (t >= b) return nullptr;
    void* item = slots_[static_cast<std::size_t>(t) & mask_].load(std::memory_order_relaxed);
    if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst,
                                      std::memory_order_relaxed)) {
      return nullptr;
    }
    return std::coroutine_handle<>::from_address(item);
  }

  // Any thread; exact only on the owner's.
  [[nodiscard]] bool empty() const noexcept {
    return bottom_.load(std::memory_order_acquire) <= top_.load(std::memory_order_acquire);
  }

 private:
  const std::size_t mask_;
  std::unique_ptr<std::atomic<void*>[]> slots_;
  alignas(64) std::atomic<std::int64_t> top_{0};
  alignas(64) std::atomic<std::int64_t> bottom_{0};
};

struct fork_support {
  // Inline hand-offs (a child's end straight into the next child or its parent) allowed between
  // two turns of the worker's loop, which fires timers, polls I/O and serves other queues.
  static constexpr unsigned handoff_budget = 128;

  fork_deque deque;
  const void* pool = nullptr;  // identity of the pool the worker belongs to
  // How many of the pool's workers are idle (read relaxed: a hint), and what wakes one of them to
  // steal (called only when some are: no call on the path of a busy pool).
  const std::atomic<std::size_t>* idle = nullptr;
  void (*notify)(void* pool) noexcept = nullptr;
  void* notify_arg = nullptr;
  unsigned handoffs = 0;   // since the loop's last turn; reset by the loop
  bound_fork_stack bound;  // children of chains bound to this worker: owner-only, never stolen

  [[nodiscard]] bool may_hand_off() noexcept { return handoffs++ < handoff_budget; }
};

}  // namespace shoal::detail
