// SPDX-License-Identifier: Apache-2.0
// shoal/detail/channel_core.hpp: the state and the algorithm behind shoal/channel.hpp.
//
// What: a channel with capacity > 0 is a ring split by side, each side on cache lines of its
// own: the sender side (its lock, the tail count, the queued senders, closed) and the receiver
// side (its lock, the head count, the queued receivers). A send takes only the sender lock and a
// receive only the receiver lock; each re-reads the other side's count only when its cached copy
// says full (empty). So one producer and one consumer on two cores each keep their own line,
// and only the cells (and a count, now and then) travel between the cores.
// Waiting (why no wake-up is lost): a side that must wait announces it (`announce_`, a line
// written only when a side starts or stops waiting) and then reads the other side's count again;
// the other side stores its count, then reads the announcement. All four are sequentially
// consistent, so at least one of them sees the other (Dekker). Whoever sees a queued waiter
// serves it under that waiter's own side lock (`settle`); no thread ever holds both locks.
// Queued senders are admitted with hysteresis: their values move in once the ring is at most
// half full, so a producer that filled the ring is woken once per half ring, not once per slot.
// Receivers are served as soon as a value is there. Capacity 0 (a rendezvous) keeps one lock,
// the sender side's, over both lists. Thread-safety: any thread. Design: docs/design/sync.md.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <memory>
#include <new>
#include <optional>
#include <utility>

#include "shoal/detail/spin_lock.hpp"
#include "shoal/detail/wait_queue.hpp"

namespace shoal::detail {

template <class T>
class send_waiter;
template <class T>
class receive_waiter;

// A cache line: what each side of a channel keeps to itself (a constant: g++ warns on
// std::hardware_destructive_interference_size).
inline constexpr std::size_t channel_line_bytes = 64;

// Cells for `capacity` values, allocated once; which cells hold a value is the channel's counts'
// business. Thread-safety: none of its own.
template <class T>
class ring_cells {
 public:
  explicit ring_cells(std::size_t capacity)
      : cells_(std::make_unique_for_overwrite<cell[]>(capacity)) {}

  // Cell i is empty.
  template <class U>
  void put(std::size_t i, U&& value) noexcept {
    ::new (static_cast<void*>(cells_[i].bytes)) T(std::forward<U>(value));
  }
  // Cell i holds a value: moved into `out`, the cell left empty.
  void move_out(std::size_t i, std::optional<T>& out) noexcept {
    T* const value = at(i);
    out.emplace(std::move(*value));
    std::destroy_at(value);  // the moved-from husk
  }
  void destroy(std::size_t i) noexcept { std::destroy_at(at(i)); }

 private:
  struct cell {
    alignas(T) std::byte bytes[sizeof(T)];
  };
  T* at(std::size_t i) noexcept { return std::launder(reinterpret_cast<T*>(cells_[i].bytes)); }

  std::unique_ptr<cell[]> cells_;
};

// The state of one channel<T>, on the heap (its lines aligned even where a coroutine frame
// holds the channel). Every function says which lock it takes or needs.
template <class T>
class channel_core {
 public:
  explicit channel_core(std::size_t capacity) : cells_(capacity), capacity_(capacity) {}
  channel_core(const channel_core&) = delete;
  channel_core& operator=(const channel_core&) = delete;
  ~channel_core() {
    std::size_t pos = rx_.head_pos;
    for (std::size_t n = size(); n > 0; --n) {
      cells_.destroy(pos);
      if (++pos == capacity_) pos = 0;
    }
  }

  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  [[nodiscard]] bool is_closed() const noexcept {
    return tx_.closed.load(std::memory_order_acquire);  // pairs with close()'s store
  }
  // A snapshot: head first, so the difference is never negative.
  [[nodiscard]] std::size_t size() const noexcept {
    if (capacity_ == 0) return 0;
    const std::size_t head = rx_.head.load(std::memory_order_acquire);  // publish_head()
    const std::size_t tail = tx_.tail.load(std::memory_order_acquire);  // publish_tail()
    return std::min(tail - head, capacity_);
  }
  // For the channel's destructor's assertion: takes each lock.
  [[nodiscard]] bool has_waiters() const noexcept;

  // Where send() and receive() wait (shoal/detail/wait_queue.hpp).
  [[nodiscard]] wait_site send_site() noexcept;
  [[nodiscard]] wait_site receive_site() noexcept;

  // The fast paths (and try_send): buffers `value` when the channel is open, no sender is
  // queued and there is room; false (value untouched) otherwise. Takes the sender lock.
  // Inlined into the awaiter, so that the waiter's own state is only built when it must wait.
  [[gnu::always_inline]] inline bool send_now(T& value) noexcept;
  // Takes the oldest buffered value when no receiver is queued; false otherwise. Takes the
  // receiver lock.
  [[gnu::always_inline]] inline bool receive_now(std::optional<T>& out) noexcept;
  bool try_send(T& value) noexcept;
  std::optional<T> try_receive() noexcept;
  void close() noexcept;

 private:
  friend class send_waiter<T>;
  friend class receive_waiter<T>;

  struct alignas(channel_line_bytes) sender_side {
    mutable spin_lock lock;
    std::atomic<bool> closed{false};   // stored under the lock; receivers read it without
    std::atomic<std::size_t> tail{0};  // values ever buffered; stored under the lock
    std::size_t tail_pos SHOAL_GUARDED_BY(lock) = 0;   // tail's cell
    std::size_t head_seen SHOAL_GUARDED_BY(lock) = 0;  // a past value of the receivers' head
    wait_list waiting SHOAL_GUARDED_BY(lock);
    wait_list rendezvous_receivers SHOAL_GUARDED_BY(lock);  // capacity 0 only
  };
  struct alignas(channel_line_bytes) receiver_side {
    mutable spin_lock lock;
    std::atomic<std::size_t> head{0};                  // values ever taken; stored under the lock
    std::size_t head_pos SHOAL_GUARDED_BY(lock) = 0;   // head's cell
    std::size_t tail_seen SHOAL_GUARDED_BY(lock) = 0;  // a past value of the senders' tail
    wait_list waiting SHOAL_GUARDED_BY(lock);
  };
  // True while that side may have queued waiters (cleared, under the side's lock, when its list
  // is seen empty; a stale true costs the other side one look under the lock).
  struct alignas(channel_line_bytes) announcements {
    std::atomic<bool> senders{false};
    std::atomic<bool> receivers{false};
  };

  // The sender side, under its lock.
  std::size_t room_locked(std::size_t tail, bool fresh) noexcept SHOAL_REQUIRES(tx_.lock);
  template <class U>
  void push_locked(U&& value) noexcept SHOAL_REQUIRES(tx_.lock);
  void publish_tail(std::size_t tail) noexcept SHOAL_REQUIRES(tx_.lock);
  bool admit_locked(wake_list& woken) noexcept SHOAL_REQUIRES(tx_.lock);
  bool send_or_announce_locked(send_waiter<T>& w, wake_list& woken) noexcept
      SHOAL_REQUIRES(tx_.lock);
  bool serve_senders(wake_list& woken) noexcept SHOAL_EXCLUDES(tx_.lock);

  // The receiver side, under its lock.
  std::size_t available_locked(std::size_t head, bool fresh) noexcept SHOAL_REQUIRES(rx_.lock);
  void pop_locked(std::optional<T>& out) noexcept SHOAL_REQUIRES(rx_.lock);
  void publish_head(std::size_t head) noexcept SHOAL_REQUIRES(rx_.lock);
  bool hand_out_locked(wake_list& woken) noexcept SHOAL_REQUIRES(rx_.lock);
  bool take_locked(std::optional<T>& out) noexcept SHOAL_REQUIRES(rx_.lock);
  bool receive_or_announce_locked(receive_waiter<T>& w, wake_list& woken) noexcept
      SHOAL_REQUIRES(rx_.lock);
  bool serve_receivers(wake_list& woken) noexcept SHOAL_EXCLUDES(rx_.lock);

  // Outside both locks: serves whichever side is announced, until neither moves.
  void settle(wake_list& woken) noexcept;
  [[gnu::noinline]] void settle_now() noexcept;

  // Capacity 0, under the sender lock.
  bool hand_to_receiver_locked(T& value, wake_list& woken) noexcept SHOAL_REQUIRES(tx_.lock);
  bool take_from_sender_locked(std::optional<T>& out, wake_list& woken) noexcept
      SHOAL_REQUIRES(tx_.lock);

  static bool attempt_send(void* self, waiter& w, wake_list& woken) noexcept;
  static bool attempt_receive(void* self, waiter& w, wake_list& woken) noexcept;
  static bool attempt_send_rendezvous(void* self, waiter& w, wake_list& woken) noexcept;
  static bool attempt_receive_rendezvous(void* self, waiter& w, wake_list& woken) noexcept;
  static void settle_site(void* self, wake_list& woken) noexcept;

  ring_cells<T> cells_;
  std::size_t capacity_;
  sender_side tx_;
  receiver_side rx_;
  announcements announce_;
};

}  // namespace shoal::detail

// The member functions: shoal/detail/channel_core_impl.hpp (included by shoal/detail/channel.hpp,
// after the awaiters they use).
