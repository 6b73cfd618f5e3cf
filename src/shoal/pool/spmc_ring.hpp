// SPDX-License-Identifier: Apache-2.0
// spmc_ring.hpp: a worker's local run queue. One producer (the owning worker), many consumers
// (the owner and thieves). Bounded, FIFO, lock-free.
//
// Layout: a power-of-two array of atomic slots, `head_` (next to take, advanced by CAS by any
// consumer) and `tail_` (next free, written only by the owner). Indices grow without wrapping
// (64-bit) and are masked into the array.
//
// Why no item is lost or taken twice: an item is taken only by the CAS that moves head_ past it,
// and exactly one CAS can move head_ from a given value. The owner writes slot `t` only when
// `t - head < capacity`, i.e. only over a slot whose item was already taken (its head_ CAS
// succeeded); a consumer that read such a slot after it was reused necessarily fails its CAS
// (head_ moved on) and discards what it read. Slots are atomics, so those discarded reads are
// not data races. A push is published by the release store of tail_, which the consumers'
// acquire loads of tail_ pair with, so a consumer that sees the new tail_ sees the slot.
//
// steal_into takes half of the victim's items into the thief's own (empty) ring: it copies them
// into the thief's slots first, claims them with one CAS on the victim's head_, and only then
// publishes them by moving the thief's tail_; a failed CAS leaves nothing published.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace shoal::detail {

class spmc_ring {
 public:
  explicit spmc_ring(std::size_t capacity)
      : mask_(std::bit_ceil(std::max<std::size_t>(capacity, 2)) - 1),
        slots_(std::make_unique<std::atomic<void*>[]>(mask_ + 1)) {}

  [[nodiscard]] std::size_t capacity() const noexcept { return mask_ + 1; }

  // Owner only. False when full.
  bool push(std::coroutine_handle<> h) noexcept {
    const std::uint64_t t = tail_.load(std::memory_order_relaxed);
    const std::uint64_t h0 = head_.load(std::memory_order_acquire);  // pairs with consumers' CAS
    if (t - h0 > mask_) return false;
    slots_[t & mask_].store(h.address(), std::memory_order_relaxed);
    tail_.store(t + 1, std::memory_order_release);  // pairs with consumers' acquire of tail_
    return true;
  }

  // Owner: the oldest item, without taking it (nullptr when empty or when a thief races).
  [[nodiscard]] void* peek() const noexcept {
    const std::uint64_t h0 = head_.load(std::memory_order_relaxed);
    const std::uint64_t t = tail_.load(std::memory_order_relaxed);
    return h0 < t ? slots_[h0 & mask_].load(std::memory_order_relaxed) : nullptr;
  }

  // Owner or thief: takes the oldest item.
  std::coroutine_handle<> pop() noexcept {
    std::uint64_t h0 = head_.load(std::memory_order_acquire);
    for (;;) {
      const std::uint64_t t = tail_.load(std::memory_order_acquire);  // pairs with push
      if (h0 >= t) return nullptr;
      void* item = slots_[h0 & mask_].load(std::memory_order_relaxed);
      // acq_rel: pairs with the owner's acquire of head_ in push (slot reuse) and other CAS.
      if (head_.compare_exchange_weak(h0, h0 + 1, std::memory_order_acq_rel,
                                      std::memory_order_acquire)) {
        return std::coroutine_handle<>::from_address(item);
      }
    }
  }

  // Thief: moves about half of this ring's items into `dst` (owned by the caller and empty) and
  // returns one of them to run now, or nullptr when there was nothing to take.
  std::coroutine_handle<> steal_into(spmc_ring& dst) noexcept {
    std::uint64_t h0 = head_.load(std::memory_order_acquire);
    const std::uint64_t dst_tail = dst.tail_.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint64_t t = tail_.load(std::memory_order_acquire);  // pairs with push
      if (h0 >= t) return nullptr;
      std::uint64_t n = std::min<std::uint64_t>(t - h0, capacity());
      n = std::min<std::uint64_t>(n - n / 2, dst.capacity());
      for (std::uint64_t i = 1; i < n; ++i) {
        void* item = slots_[(h0 + i) & mask_].load(std::memory_order_relaxed);
        dst.slots_[(dst_tail + i - 1) & dst.mask_].store(item, std::memory_order_relaxed);
      }
      void* first = slots_[h0 & mask_].load(std::memory_order_relaxed);
      // acq_rel: same pairing as pop.
      if (head_.compare_exchange_weak(h0, h0 + n, std::memory_order_acq_rel,
                                      std::memory_order_acquire)) {
        dst.tail_.store(dst_tail + n - 1, std::memory_order_release);  // publish to dst's thieves
        return std::coroutine_handle<>::from_address(first);
      }
    }
  }

  // Any thread; exact only on the owner's thread.
  [[nodiscard]] std::size_t size() const noexcept {
    const std::uint64_t h0 = head_.load(std::memory_order_acquire);
    const std::uint64_t t = tail_.load(std::memory_order_acquire);
    return t > h0 ? static_cast<std::size_t>(t - h0) : 0;
  }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }

 private:
  const std::size_t mask_;
  std::unique_ptr<std::atomic<void*>[]> slots_;
  alignas(64) std::atomic<std::uint64_t> head_{0};
  alignas(64) std::atomic<std::uint64_t> tail_{0};
};

}  // namespace shoal::detail
