// SPDX-License-Identifier: Apache-2.0
// shoal/async_mutex.hpp: a mutual-exclusion lock coroutines wait on, fair (FIFO).
//
// What: at most one coroutine holds an async_mutex at a time. `co_await m.lock()` takes it,
// suspending the coroutine (no thread blocked) while another holds it; unlock() hands it
// directly to the oldest waiter, so waiters are served in arrival order and a newcomer never
// barges past them. `co_await m.scoped_lock()` gives a mutex_guard that unlocks when destroyed.
// It is an async_semaphore with one permit (shoal/async_semaphore.hpp) and behaves as one.
// A coroutine may suspend while holding the lock and be resumed on another thread; the lock is
// the chain's, not the thread's. It is not recursive.
//
// Lifetime: destroy the mutex unlocked, once every co_await on it has returned (asserted in debug
// builds).
// Thread-safety: every member may be called from any thread, concurrently; unlock() only by
// the holder (anything else is undefined behaviour).
// Memory ordering: what the holder did before unlock() happens-before the next holder's lock
// (or try_lock) returns.
#pragma once

#include <cassert>

#include "shoal/async_semaphore.hpp"
#include "shoal/detail/unique_hold.hpp"
#include "shoal/detail/wait_queue.hpp"

namespace shoal {

class async_mutex;

/// The lock of an async_mutex, unlocked on destruction. Move-only; false when empty.
using mutex_guard = detail::unique_hold<async_mutex>;
/// What lock() and scoped_lock() return: awaitables (see the header comment), awaited at once.
using mutex_lock_awaiter = semaphore_acquire_awaiter;
using mutex_scoped_lock_awaiter = detail::scoped_waiter<async_mutex>;

/// A mutual-exclusion lock for coroutines, fair (FIFO), not recursive: see the header.
class async_mutex {
 public:
  /// An unlocked mutex.
  async_mutex() noexcept = default;
  async_mutex(const async_mutex&) = delete;
  async_mutex& operator=(const async_mutex&) = delete;
  /// Asserts (debug builds) that the mutex is unlocked.
  ~async_mutex() { assert(sem_.available() == 1 && "shoal: async_mutex destroyed while locked"); }

  /// Takes the lock, waiting (in arrival order) while another coroutine holds it.
  ///   Result: bool, true when the lock is held, false when the wait was cancelled (not held).
  ///   Errors: std::logic_error when it must suspend with no executor running on this thread.
  ///   Cancellation: the chain's stop token (shoal/stop.hpp): a stop requested before the lock
  ///                 returns false at once without locking, even when the mutex is free; one
  ///                 requested while it waits unlinks it and wakes it promptly with false. If the
  ///                 lock was handed over before the stop arrived, it is held: true, and the
  ///                 caller must unlock.
  ///   Resumes on: its own executor, never inline on the unlocking thread: the chain's home
  ///               worker when it is bound (pinned); else, when the unlocker runs as a worker of
  ///               the pool the waiter suspended on a worker of, that worker (the lock it was
  ///               handed waits for no cross-thread wake-up, so contention does not turn into a
  ///               convoy); else the executor it suspended on. Inside a sync_wait nested on a
  ///               worker the executor is that sync_wait's loop, not the worker: a waiter suspended
  ///               there resumes there, and one unlocked from there goes to the executor it
  ///               suspended on. When the mutex is free it continues at once on the same thread.
  ///   Thread-safety: any number of coroutines may wait at once, on any threads.
  ///   Example: if (!co_await m.lock()) co_return;  // cancelled; else unlock() when done
  [[nodiscard]] mutex_lock_awaiter lock() noexcept { return sem_.acquire(); }
  /// lock(), giving a mutex_guard that unlocks when destroyed.
  ///   Result: a mutex_guard, empty (false) when cancelled.
  ///   Errors, Cancellation, Resumes on, Thread-safety: as lock().
  ///   Example:
  ///     shoal::async_mutex m;
  ///     auto guard = co_await m.scoped_lock();
  ///     if (!guard) co_return;     // cancelled
  ///     co_await write(log, line);  // may suspend while holding it
  [[nodiscard]] mutex_scoped_lock_awaiter scoped_lock() noexcept { return {*this, sem_.acquire()}; }
  /// Takes the lock if it is free and nobody waits (no barging); never suspends.
  [[nodiscard]] bool try_lock() noexcept { return sem_.try_acquire(); }
  /// Hands the lock to the oldest waiter, or frees it. Only by the holder.
  void unlock() noexcept { sem_.release(); }

 private:
  friend void release_hold(async_mutex& m) noexcept { m.unlock(); }

  async_semaphore sem_{1};
};

}  // namespace shoal
