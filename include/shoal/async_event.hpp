// SPDX-License-Identifier: Apache-2.0
// shoal/async_event.hpp: a manual-reset event coroutines can wait for.
//
// What: an async_event is set or not. `co_await ev.wait()` continues at once when it is set and
// otherwise suspends the coroutine (no thread blocked) until set() is called. set() wakes every
// waiter and leaves the event set until reset(); a coroutine woken by set() returns true even if
// reset() came before it ran. Waiting allocates nothing: the waiter lives in the awaiting frame
// (shoal/detail/wait_queue.hpp).
//
// Lifetime: destroy the event only once every co_await on it has returned: a waiter that was
// woken but has not resumed yet still counts (queued waiters are asserted in debug builds).
// Thread-safety: every member may be called from any thread, concurrently.
// Memory ordering: what a thread did before set() happens-before every wait() that returns true
// because of that set() and every is_set() that returns true after it.
#pragma once

#include <atomic>

#include "shoal/detail/spin_lock.hpp"
#include "shoal/detail/wait_queue.hpp"

namespace shoal {

/// What wait() returns: an awaitable (see the header comment), awaited at once.
using event_wait_awaiter = detail::waiter;

/// A manual-reset event coroutines wait for (see the header). Non-copyable, non-movable.
class async_event {
 public:
  /// An event, set or not.
  explicit async_event(bool initially_set = false) noexcept : set_(initially_set) {}
  async_event(const async_event&) = delete;
  async_event& operator=(const async_event&) = delete;
  /// Asserts (debug builds) that no coroutine waits on it.
  ~async_event();

  /// Sets the event and wakes every waiter. Setting a set event does nothing.
  void set() noexcept;
  /// Clears the event; later waits suspend until the next set().
  void reset() noexcept;
  /// True while set (a snapshot). Any thread.
  [[nodiscard]] bool is_set() const noexcept {
    return set_.load(std::memory_order_acquire);  // pairs with the release store in set()
  }

  /// Continues at once when the event is set, else waits until set() is called (a coroutine
  /// woken by set() returns true even if reset() came before it ran).
  ///   Result: bool, true when the event was set, false when the wait was cancelled.
  ///   Errors: std::logic_error when it must suspend with no executor running on this thread.
  ///   Cancellation: the chain's stop token (shoal/stop.hpp): a stop requested before the wait
  ///                 returns false at once (even if the event is set); one requested while it waits
  ///                 unlinks it and wakes it promptly with false; one that comes after set() woke
  ///                 it changes nothing.
  ///   Resumes on: its own executor, never inline on the thread calling set(): the chain's home
  ///               worker when it is bound (pinned), else the executor it suspended on. When the
  ///               event is already set it continues at once on the same thread.
  ///   Thread-safety: any number of coroutines may wait at once, on any threads.
  ///   Example:
  ///     shoal::async_event ready;
  ///     // consumer:                          // producer:
  ///     if (!co_await ready.wait()) co_return;   load(); ready.set();
  [[nodiscard]] event_wait_awaiter wait() noexcept {
    return event_wait_awaiter({&lock_, &waiters_, &attempt_wait, this});
  }

 private:
  static bool attempt_wait(void* self, detail::waiter& w, detail::wake_list& woken) noexcept;

  detail::spin_lock lock_;
  std::atomic<bool> set_;  // written under lock_; read without it by is_set()
  detail::wait_list waiters_ SHOAL_GUARDED_BY(lock_);  // empty while set_
};

}  // namespace shoal
