// SPDX-License-Identifier: Apache-2.0
// shoal/async_semaphore.hpp: a counting semaphore coroutines wait on, fair (FIFO).
//
// What: an async_semaphore holds a number of permits. `co_await sem.acquire()` takes one,
// suspending the coroutine (no thread blocked) while none is free; release(n) gives n back.
// Fairness: waiters are served strictly in arrival order. release() hands each permit directly
// to the oldest waiter (it never becomes free in between), and an acquirer that arrives while
// others wait queues behind them, even if it could have taken a permit being released: no
// barging. So permits are free only while nobody waits. Waiting allocates nothing: the waiter
// lives in the awaiting frame (shoal/detail/wait_queue.hpp).
// `co_await sem.scoped_acquire()` gives a semaphore_permit that releases its permit when
// destroyed.
//
// Lifetime: destroy the semaphore only once every co_await on it has returned: a waiter that
// was woken but has not resumed yet still counts (queued waiters are asserted in debug builds).
// Thread-safety: every member may be called from any thread, concurrently.
// Memory ordering: what a thread did before release() happens-before the acquire that receives
// that permit returns.
#pragma once

#include <cstddef>

#include "shoal/detail/spin_lock.hpp"
#include "shoal/detail/unique_hold.hpp"
#include "shoal/detail/wait_queue.hpp"

namespace shoal {

class async_semaphore;

/// One permit of an async_semaphore, released on destruction. Move-only; false when empty.
using semaphore_permit = detail::unique_hold<async_semaphore>;
/// What acquire() and scoped_acquire() return: awaitables (see the header comment), awaited at
/// once.
using semaphore_acquire_awaiter = detail::waiter;
using semaphore_scoped_acquire_awaiter = detail::scoped_waiter<async_semaphore>;

/// A counting semaphore, fair (FIFO): see the header. Non-copyable, non-movable.
class async_semaphore {
 public:
  /// A semaphore holding `initial_permits` free permits.
  explicit async_semaphore(std::size_t initial_permits) noexcept : permits_(initial_permits) {}
  async_semaphore(const async_semaphore&) = delete;
  async_semaphore& operator=(const async_semaphore&) = delete;
  /// Asserts (debug builds) that no coroutine waits on it.
  ~async_semaphore();

  /// Takes one permit, waiting (in arrival order) while none is free.
  ///   Result: bool, true when a permit was acquired, false when the wait was cancelled (no permit
  ///           taken).
  ///   Errors: std::logic_error when it must suspend with no executor running on this thread.
  ///   Cancellation: the chain's stop token (shoal/stop.hpp): a stop requested before the acquire
  ///                 returns false at once, taking nothing, even when permits are free; one
  ///                 requested while it waits unlinks it and wakes it promptly with false. A permit
  ///                 handed over before the stop arrived is kept: the acquire returns true (and the
  ///                 caller must release it). So a permit is never lost and never granted twice.
  ///   Resumes on: its own executor, never inline on the releasing thread: the chain's home worker
  ///               when it is bound (pinned); else, when the releaser runs as a worker of the pool
  ///               the waiter suspended on a worker of, that worker (a permit handed over waits for
  ///               no cross-thread wake-up: no convoy under contention); else the executor it
  ///               suspended on. Inside a sync_wait nested on a worker the executor is that
  ///               sync_wait's loop, not the worker: a waiter suspended there resumes there, and
  ///               one released from there goes to the executor it suspended on. When a permit is
  ///               free it continues at once on the same thread.
  ///   Thread-safety: any number of coroutines may wait at once, on any threads.
  ///   Example: if (!co_await sem.acquire()) co_return;  // cancelled; else release() when done
  [[nodiscard]] semaphore_acquire_awaiter acquire() noexcept {
    return semaphore_acquire_awaiter({&lock_, &waiters_, &attempt_acquire, this, true});
  }
  /// acquire(), giving a semaphore_permit that releases its permit when destroyed.
  ///   Result: a semaphore_permit, empty (false) when cancelled.
  ///   Errors, Cancellation, Resumes on, Thread-safety: as acquire().
  ///   Example:
  ///     shoal::async_semaphore connections(8);
  ///     auto permit = co_await connections.scoped_acquire();
  ///     if (!permit) co_return;  // cancelled
  ///     co_await query();        // at most 8 at a time; the permit goes back at scope exit
  [[nodiscard]] semaphore_scoped_acquire_awaiter scoped_acquire() noexcept {
    return {*this, acquire()};
  }
  /// Takes a permit if one is free and nobody waits (no barging); never suspends.
  [[nodiscard]] bool try_acquire() noexcept;
  /// Gives n permits back: to the oldest waiters first, the rest become free.
  void release(std::size_t n = 1) noexcept;
  /// Free permits now (0 while anyone waits); a snapshot.
  [[nodiscard]] std::size_t available() const noexcept;

 private:
  friend void release_hold(async_semaphore& s) noexcept { s.release(); }
  static bool attempt_acquire(void* self, detail::waiter& w, detail::wake_list& woken) noexcept;

  mutable detail::spin_lock lock_;
  std::size_t permits_ SHOAL_GUARDED_BY(lock_);  // 0 while waiters_ is not empty
  detail::wait_list waiters_ SHOAL_GUARDED_BY(lock_);
};

}  // namespace shoal
