// SPDX-License-Identifier: Apache-2.0
// mpmc_ring.hpp: the lock-free front of a thread_pool's global injection queue. Many producers
// (any thread posting from outside the pool, workers spilling), many consumers (workers taking a
// share). Bounded, FIFO, no allocation after construction. An entry is an opaque non-null address
// (pool_state.hpp says what its global queue stores: a coroutine, or a tagged spawned task).
//
// Layout (a bounded queue with a sequence number per cell, after D. Vyukov): a power-of-two
// array of cells, each holding a coroutine address and `seq`; `tail_` is the next position to
// fill, `head_` the next to take. Positions grow without wrapping (64-bit). Cell i of lap L is
// free for the producer of position p = L * capacity + i when seq == p, holds that producer's
// item when seq == p + 1, and is free again for position p + capacity once its consumer stores
// seq = p + capacity.
//
// Why no item is lost or taken twice: a producer claims position p by the CAS that moves tail_
// from p (exactly one can), writes the cell, then publishes it by the release store seq = p + 1,
// which a consumer's acquire load of seq pairs with. A consumer claims positions [p, p + n) by
// the CAS that moves head_ from p, after it saw each of those cells published; no other
// consumer can take them (head_ moved on, so their CAS from p fails) and no producer can reuse
// them before this consumer stores their next-lap seq (release, paired with the producer's
// acquire load of seq). A full ring refuses the push (the caller keeps the item elsewhere).
//
// Emptiness seen by a worker about to park: `empty()` reads head_ and tail_; a producer moves
// tail_ by a seq_cst CAS before it reads the idle count (pool_state::notify_work_after_rmw), the
// worker reads tail_ after its seq_cst increment of that count and its fence (worker::park), so
// one of the two sees the other. A position claimed and not yet published reads as non-empty,
// yet nothing can be taken from it (`front_published()` tells the two apart): the producer
// finishes its two stores in a few instructions, unless it is preempted between them, for a
// time slice or more. The worker then must not park without a deadline (the producer's read of
// the idle count may have missed it), nor retry at once (it would spin for as long as the
// producer is descheduled): it parks with a short timeout that doubles each time it finds only
// such a claim (worker::park), and the producer's notification after publishing wakes it.
#pragma once

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace shoal::detail {

// Test seam: when set, push() calls it between claiming a cell and publishing it (a producer
// preempted there, on demand). Null in every program but that test; set it only while no other
// thread pushes.
extern void (*mpmc_push_claimed_probe)() noexcept;

class mpmc_ring {
 public:
  explicit mpmc_ring(std::size_t capacity)
      : mask_(std::bit_ceil(std::max<std::size_t>(capacity, 2)) - 1),
        cells_(std::make_unique<cell[]>(mask_ + 1)) {
    // relaxed: before the ring is shared (the pool publishes itself by starting its threads).
    for (std::size_t i = 0; i <= mask_; ++i) cells_[i].seq.store(i, std::memory_order_relaxed);
  }

  [[nodiscard]] std::size_t capacity() const noexcept { return mask_ + 1; }

  // Any thread. `item` is non-null. False when full.
  bool push(void* item) noexcept {
    std::uint64_t pos = tail_.load(std::memory_order_relaxed);
    for (;;) {
      cell& c = cells_[pos & mask_];
      // acquire: pairs with the consumer's release of the cell for this lap.
      const std::uint64_t seq = c.seq.load(std::memory_order_acquire);
      if (seq == pos) {
        // seq_cst: the cell's seq store below publishes the item; the claim is also the
        // poster's half of the no-lost-wake-up argument (pool_state::notify_work_after_rmw).
        if (tail_.compare_exchange_weak(pos, pos + 1, std::memory_order_seq_cst,
                                        std::memory_order_relaxed)) {
          if (mpmc_push_claimed_probe != nullptr) mpmc_push_claimed_probe();
          c.item.store(item, std::memory_order_relaxed);
          c.seq.store(pos + 1, std::memory_order_release);  // pairs with the consumers' acquire
          return true;
        }
      } else if (seq < pos) {
        return false;  // the cell still holds the item of the previous lap: full
      } else {
        pos = tail_.load(std::memory_order_relaxed);  // another producer took pos
      }
    }
  }

  // Any thread: pushes the first items of `items[0, n)`, as many as there are free cells in a
  // row (claimed with one CAS, as pop_some claims); returns how many (0 when full).
  std::size_t push_some(void* const* items, std::size_t n) noexcept {
    std::uint64_t pos = tail_.load(std::memory_order_relaxed);
    for (;;) {
      std::uint64_t k = 0;
      // acquire: pairs with the consumers' release of each cell for this lap.
      while (k < n && cells_[(pos + k) & mask_].seq.load(std::memory_order_acquire) == pos + k) {
        ++k;
      }
      if (k == 0) {
        // acquire: as above. A cell of the previous lap still full: the ring is full.
        if (cells_[pos & mask_].seq.load(std::memory_order_acquire) < pos) return 0;
        pos = tail_.load(std::memory_order_relaxed);  // another producer took pos
        continue;
      }
      // seq_cst: as in push.
      if (tail_.compare_exchange_weak(pos, pos + k, std::memory_order_seq_cst,
                                      std::memory_order_relaxed)) {
        for (std::uint64_t i = 0; i < k; ++i) {
          cell& c = cells_[(pos + i) & mask_];
          c.item.store(items[i], std::memory_order_relaxed);
          c.seq.store(pos + i + 1, std::memory_order_release);  // pairs with the consumers
        }
        return static_cast<std::size_t>(k);
      }
    }
  }

  // Any thread: takes up to `most` (>= 1) of the oldest items; calls `sink(item)` for each but
  // the first, which it returns (nullptr when there was nothing published to take).
  template <class Sink>
  void* pop_some(std::size_t most, Sink&& sink) noexcept {
    std::uint64_t pos = head_.load(std::memory_order_relaxed);
    for (;;) {
      const std::uint64_t n = published_from(pos, most);
      if (n == 0) {
        // acquire: as in published_from. Not yet published (or empty) at pos: nothing to take;
        // already taken (a later lap's seq): pos is stale, read head_ again.
        if (cells_[pos & mask_].seq.load(std::memory_order_acquire) <= pos + 1) return nullptr;
        pos = head_.load(std::memory_order_relaxed);
        continue;
      }
      // relaxed: the cells' acquire loads in published_from ordered their contents.
      if (head_.compare_exchange_weak(pos, pos + n, std::memory_order_relaxed)) {
        void* first = take(pos);
        for (std::uint64_t i = 1; i < n; ++i) sink(take(pos + i));
        return first;
      }
    }
  }

  // Any thread; approximate while others push or pop.
  [[nodiscard]] std::size_t size() const noexcept {
    const std::uint64_t h0 = head_.load(std::memory_order_acquire);
    const std::uint64_t t = tail_.load(std::memory_order_acquire);
    return t > h0 ? static_cast<std::size_t>(t - h0) : 0;
  }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  // Any thread: true when the oldest item is published (a pop_some would take it); false when
  // empty, and while the oldest position is claimed and not yet published (then empty() is
  // false and pop_some returns nothing until its producer's second store).
  [[nodiscard]] bool front_published() const noexcept {
    for (;;) {
      const std::uint64_t pos = head_.load(std::memory_order_acquire);
      // acquire: pairs with the producer's release of seq, as in published_from.
      const std::uint64_t seq = cells_[pos & mask_].seq.load(std::memory_order_acquire);
      if (seq == pos + 1) return true;
      if (seq <= pos) return false;  // free for its producer: empty, or claimed, unpublished
      // A later lap's seq: another consumer took pos and moved head_ on; read it again.
    }
  }

 private:
  struct cell {
    std::atomic<std::uint64_t> seq{0};
    std::atomic<void*> item{nullptr};
  };

  // How many cells from `pos` on (at most `most`) are published.
  std::uint64_t published_from(std::uint64_t pos, std::size_t most) const noexcept {
    std::uint64_t n = 0;
    // acquire: pairs with each producer's release of seq (its item is then visible).
    while (n < most &&
           cells_[(pos + n) & mask_].seq.load(std::memory_order_acquire) == pos + n + 1) {
      ++n;
    }
    return n;
  }

  // The item at claimed position `pos`; frees its cell for the producer of the next lap.
  void* take(std::uint64_t pos) noexcept {
    cell& c = cells_[pos & mask_];
    void* item = c.item.load(std::memory_order_relaxed);
    c.seq.store(pos + mask_ + 1, std::memory_order_release);  // pairs with push's acquire
    return item;
  }

  const std::size_t mask_;
  std::unique_ptr<cell[]> cells_;
  alignas(64) std::atomic<std::uint64_t> head_{0};
  alignas(64) std::atomic<std::uint64_t> tail_{0};
};

}  // namespace shoal::detail
