// SPDX-License-Identifier: Apache-2.0
// shoal/channel.hpp: a bounded multi-producer multi-consumer queue between coroutines.
//
// A channel<T> carries values from any number of senders to any number of receivers, in FIFO
// order, through a buffer of fixed capacity allocated once at construction. `co_await ch.send(v)`
// suspends while the buffer is full; `co_await ch.receive()` suspends while it is empty. Capacity
// 0 makes a rendezvous channel. Both sides are served in arrival order; how, and why waiting
// allocates nothing: docs/design/sync.md.
// close(): no value is accepted afterwards. Waiting senders wake and return false (their values
// are not sent); waiting receivers wake with nullopt; values already in the buffer are still
// received, then receive() returns nullopt.
//
// Requirements: T is nothrow move constructible (values move under the channel's lock).
// Lifetime: destroy the channel only once every co_await on it has returned: a waiter woken but
// not yet resumed still counts (queued waiters are asserted in debug builds). Values still
// buffered are destroyed with it.
// Thread-safety: every member may be called from any thread, concurrently.
// Memory ordering: what a sender did before send() happens-before the receive that gets its value
// returns.
#pragma once

#include <cassert>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

#include "shoal/detail/channel.hpp"
#include "shoal/detail/spin_lock.hpp"
#include "shoal/detail/wait_queue.hpp"

namespace shoal {

/// What send() and receive() return: awaitables (see the header comment), awaited at once.
template <class T>
using channel_send_awaiter = detail::send_waiter<T>;
template <class T>
using channel_receive_awaiter = detail::receive_waiter<T>;

/// A bounded FIFO of T between coroutines (see the header); non-copyable, non-movable.
template <class T>
class channel {
  static_assert(std::is_nothrow_move_constructible_v<T>,
                "shoal::channel<T> moves values under its lock: T's move must not throw");

 public:
  /// `capacity` values may wait in the buffer; 0: rendezvous.
  explicit channel(std::size_t capacity) : buffer_(capacity) {}
  channel(const channel&) = delete;
  channel& operator=(const channel&) = delete;
  /// Asserts (debug builds) that no coroutine waits on it; buffered values are destroyed.
  ~channel() {
    assert(senders_.empty() && receivers_.empty() &&
           "shoal: channel destroyed while coroutines wait on it");
  }

  /// Sends `value`, waiting while the buffer is full.
  ///   Result: bool, true when v was delivered (into the buffer or to a receiver), false when the
  ///           channel is closed or the send was cancelled; v is then destroyed, not sent.
  ///   Errors: std::logic_error when it must suspend with no executor running on this thread.
  ///   Cancellation: the chain's stop token (shoal/stop.hpp): a stop requested before the send
  ///                 returns false at once; one requested while it waits unlinks it and wakes it
  ///                 promptly with false. A value taken before the stop arrived stays delivered:
  ///                 true.
  ///   Resumes on: its own executor, never inline on the receiving thread: the chain's home worker
  ///               when it is bound (pinned); else, when its waker (the receive that makes room,
  ///               close(), a stop) runs as a worker of the pool the sender suspended on a worker
  ///               of, that worker (a local push: no cross-thread wake-up per hand-over; a
  ///               sync_wait nested on a worker is its own executor, as for async_mutex::lock);
  ///               else the executor it suspended on. When there is room it continues at once on
  ///               the same thread.
  ///   Thread-safety: any number of senders at once.
  ///   Example: if (!co_await orders.send(std::move(order))) co_return;  // closed or cancelled
  [[nodiscard]] channel_send_awaiter<T> send(T value) noexcept {
    return {{&lock_, &senders_, &attempt_send, this, /*near_waker=*/true}, std::move(value)};
  }
  /// Receives the oldest value, waiting while the channel is empty.
  ///   Result: std::optional<T>: the oldest value, or nullopt once the channel is closed and
  ///           drained, or when the receive was cancelled.
  ///   Errors: std::logic_error when it must suspend with no executor running on this thread.
  ///   Cancellation: as send: before, nullopt at once (even if values are buffered); while
  ///                 waiting, nullopt promptly; a value handed over before the stop is returned.
  ///   Resumes on: as send (its waker: the send that hands it a value, close(), a stop), never
  ///               inline on the sending thread.
  ///   Thread-safety: any number of receivers at once.
  ///   Example: while (auto order = co_await orders.receive()) co_await process(*order);
  [[nodiscard]] channel_receive_awaiter<T> receive() noexcept {
    return channel_receive_awaiter<T>(
        {&lock_, &receivers_, &attempt_receive, this, /*near_waker=*/true});
  }

  /// Delivers `value` if that needs no wait; false (value untouched) when full or closed.
  [[nodiscard]] bool try_send(T&& value) noexcept {
    detail::wake_list woken;
    bool sent = false;
    {
      const detail::spin_lock::guard guard(lock_);
      sent = !closed_ && offer(value, woken);
    }
    woken.wake_all();
    return sent;
  }
  /// try_send of a copy of `value`. Errors: what T's copy throws.
  [[nodiscard]] bool try_send(const T& value) {
    T copy(value);
    return try_send(std::move(copy));
  }
  /// The oldest value if one is ready; nullopt when empty (or closed and drained).
  [[nodiscard]] std::optional<T> try_receive() noexcept {
    detail::wake_list woken;
    std::optional<T> value;
    {
      const detail::spin_lock::guard guard(lock_);
      take(value, woken);
    }
    woken.wake_all();
    return value;
  }

  /// Accepts no more values and wakes every waiter (see above). Closing twice does nothing.
  void close() noexcept {
    detail::wake_list woken;
    {
      const detail::spin_lock::guard guard(lock_);
      closed_ = true;
      while (detail::waiter* w = senders_.pop_front()) woken.push_back(*w);
      while (detail::waiter* w = receivers_.pop_front()) woken.push_back(*w);
    }
    woken.wake_all();
  }

  /// True once close() was called. Thread-safety: any thread.
  [[nodiscard]] bool is_closed() const noexcept {
    const detail::spin_lock::guard guard(lock_);
    return closed_;
  }
  /// Values in the buffer now; a snapshot.
  [[nodiscard]] std::size_t size() const noexcept {
    const detail::spin_lock::guard guard(lock_);
    return buffer_.size();
  }
  /// The buffer's capacity, fixed at construction (0: rendezvous).
  [[nodiscard]] std::size_t capacity() const noexcept { return buffer_.capacity(); }

 private:
  using send_waiter = detail::send_waiter<T>;
  using receive_waiter = detail::receive_waiter<T>;
  friend send_waiter;
  friend receive_waiter;

  /// The awaiters' fast paths, each one short critical section: buffers `value` when the
  /// channel is open, has room and no receiver waits; false (value untouched) otherwise.
  bool send_now(T& value) noexcept {
    const detail::spin_lock::guard guard(lock_);
    if (closed_ || buffer_.full() || !receivers_.empty()) return false;
    buffer_.push(std::move(value));
    return true;
  }
  /// Takes the oldest buffered value when no sender waits (a waiting sender's value must move
  /// into the freed slot: the full path); false otherwise.
  bool receive_now(std::optional<T>& out) noexcept {
    const detail::spin_lock::guard guard(lock_);
    if (buffer_.empty() || !senders_.empty()) return false;
    out.emplace(buffer_.pop());
    return true;
  }

  /// Under the lock: hands `value` to the oldest waiting receiver, or buffers it; false when
  /// neither is possible now (value untouched).
  bool offer(T& value, detail::wake_list& woken) noexcept SHOAL_REQUIRES(lock_) {
    if (detail::waiter* w = receivers_.pop_front()) {
      auto& receiver = static_cast<receive_waiter&>(*w);
      receiver.slot_.emplace(std::move(value));
      receiver.grant();
      woken.push_back(receiver);
      return true;
    }
    if (buffer_.full()) return false;
    buffer_.push(std::move(value));
    return true;
  }

  /// Under the lock: the oldest value (from the buffer, refilled from the oldest waiting sender,
  /// or straight from that sender when nothing is buffered); false when there is none.
  bool take(std::optional<T>& out, detail::wake_list& woken) noexcept SHOAL_REQUIRES(lock_) {
    auto* sender = static_cast<send_waiter*>(senders_.pop_front());
    if (!buffer_.empty()) {
      out.emplace(buffer_.pop());
      if (sender != nullptr) buffer_.push(std::move(sender->value_));
    } else if (sender != nullptr) {
      out.emplace(std::move(sender->value_));
    } else {
      return false;
    }
    if (sender != nullptr) {
      sender->grant();
      woken.push_back(*sender);
    }
    return true;
  }

  static bool attempt_send(void* self, detail::waiter& w, detail::wake_list& woken) noexcept {
    auto& ch = *static_cast<channel*>(self);
    ch.lock_.assert_held();       // the wait queue holds it (*wait_site::lock)
    if (ch.closed_) return true;  // done, not granted: false
    if (!ch.offer(static_cast<send_waiter&>(w).value_, woken)) return false;
    w.grant();
    return true;
  }
  static bool attempt_receive(void* self, detail::waiter& w, detail::wake_list& woken) noexcept {
    auto& ch = *static_cast<channel*>(self);
    ch.lock_.assert_held();  // the wait queue holds it (*wait_site::lock)
    if (ch.take(static_cast<receive_waiter&>(w).slot_, woken)) {
      w.grant();
      return true;
    }
    return ch.closed_;  // closed and drained: done, nullopt
  }

  mutable detail::spin_lock lock_;
  detail::value_ring<T> buffer_ SHOAL_GUARDED_BY(lock_);
  bool closed_ SHOAL_GUARDED_BY(lock_) = false;
  /// Senders wait only while the buffer is full, receivers only while it is empty and no sender
  /// waits: never both at once.
  detail::wait_list senders_ SHOAL_GUARDED_BY(lock_);
  detail::wait_list receivers_ SHOAL_GUARDED_BY(lock_);
};

}  // namespace shoal
