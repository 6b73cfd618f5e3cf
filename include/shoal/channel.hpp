// SPDX-License-Identifier: Apache-2.0
// shoal/channel.hpp: a bounded multi-producer multi-consumer queue between coroutines.
//
// A channel<T> carries values from any number of senders to any number of receivers, in FIFO
// order, through a buffer of fixed capacity allocated once at construction. `co_await ch.send(v)`
// suspends while the buffer is full (or while senders that came before it wait); `co_await
// ch.receive()` suspends while it is empty. Waiting senders' values move in, oldest first, once
// the buffer is at most half full (a producer that filled it is woken once per half buffer, not
// once per slot); a waiting receiver is handed a value as soon as one is sent. Capacity 0 makes a
// rendezvous channel. Each side is served in arrival order; how, and why waiting allocates
// nothing: docs/design/sync.md.
// close(): no value is accepted afterwards. Waiting senders wake and return false (their values
// are not sent); waiting receivers wake with nullopt; values already in the buffer are still
// received, then receive() returns nullopt.
//
// Requirements: T is nothrow move constructible (values move under the channel's locks).
// Lifetime: destroy the channel only once every co_await on it has returned: a waiter woken but
// not yet resumed still counts (queued waiters are asserted in debug builds). Values still
// buffered are destroyed with it.
// Thread-safety: every member may be called from any thread, concurrently.
// Memory ordering: what a sender did before send() happens-before the receive that gets its value
// returns.
#pragma once

#include <cassert>
#include <cstddef>
#include <memory>
#include <optional>
#include <type_traits>
#include <utility>

#include "shoal/detail/channel.hpp"

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
                "shoal::channel<T> moves values under its locks: T's move must not throw");

 public:
  /// `capacity` values may wait in the buffer; 0: rendezvous. Errors: std::bad_alloc.
  explicit channel(std::size_t capacity)
      : core_(std::make_unique<detail::channel_core<T>>(capacity)) {}
  channel(const channel&) = delete;
  channel& operator=(const channel&) = delete;
  /// Asserts (debug builds) that no coroutine waits on it; buffered values are destroyed.
  ~channel() {
    assert(!core_->has_waiters() && "shoal: channel destroyed while coroutines wait on it");
  }

  /// Sends `value`, waiting while the buffer is full or senders wait before it.
  ///   Result: bool, true when v was delivered (into the buffer or to a receiver), false when the
  ///           channel is closed or the send was cancelled; v is then destroyed, not sent.
  ///   Errors: std::logic_error when it must suspend with no executor running on this thread.
  ///   Cancellation: the chain's stop token (shoal/stop.hpp): a stop requested before the send
  ///                 returns false at once; one requested while it waits unlinks it and wakes it
  ///                 promptly with false. A value taken before the stop arrived stays delivered:
  ///                 true.
  ///   Resumes on: its own executor, never inline on the receiving thread: the chain's home worker
  ///               when it is bound (pinned); else, when its waker (the receive that brings the
  ///               buffer down to half, close(), a stop) runs as a worker of the pool the sender
  ///               suspended on a worker of, that worker (a local push: no cross-thread wake-up per
  ///               hand-over; a sync_wait nested on a worker is its own executor, as for
  ///               async_mutex::lock); else the executor it suspended on. When there is room and no
  ///               sender waits, it continues at once on the same thread.
  ///   Thread-safety: any number of senders at once.
  ///   Example: if (!co_await orders.send(std::move(order))) co_return;  // closed or cancelled
  [[nodiscard]] channel_send_awaiter<T> send(T value) noexcept {
    return {core_->send_site(), std::move(value)};
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
    return channel_receive_awaiter<T>(core_->receive_site());
  }

  /// Delivers `value` if that needs no wait; false (value untouched) when full, when senders
  /// wait before it, or when closed.
  [[nodiscard]] bool try_send(T&& value) noexcept { return core_->try_send(value); }
  /// try_send of a copy of `value`. Errors: what T's copy throws.
  [[nodiscard]] bool try_send(const T& value) {
    T copy(value);
    return try_send(std::move(copy));
  }
  /// The oldest value if one is ready; nullopt when empty (or closed and drained).
  [[nodiscard]] std::optional<T> try_receive() noexcept { return core_->try_receive(); }

  /// Accepts no more values and wakes every waiter (see above). Closing twice does nothing.
  void close() noexcept { core_->close(); }

  /// True once close() was called. Thread-safety: any thread.
  [[nodiscard]] bool is_closed() const noexcept { return core_->is_closed(); }
  /// Values in the buffer now; a snapshot.
  [[nodiscard]] std::size_t size() const noexcept { return core_->size(); }
  /// The buffer's capacity, fixed at construction (0: rendezvous).
  [[nodiscard]] std::size_t capacity() const noexcept { return core_->capacity(); }

 private:
  std::unique_ptr<detail::channel_core<T>> core_;
};

}  // namespace shoal
