// SPDX-License-Identifier: Apache-2.0
// shoal/subpool.hpp: named subpools with a capacity, and priorities, as hints on one thread_pool.
//
// What: a subpool is a name, a capacity and a queue in front of a thread_pool. Its jobs run on
// the pool's workers like any other work; the subpool only caps how many of them are in
// progress at once (a job holds its slot from admission until it ends, suspended or not) and
// decides, when a slot frees, which waiting job goes in. asynqro's "custom subpools" (a subpool
// sized for I/O-like jobs beside the intensive one) map here; the pool itself is the intensive
// subpool (sized to the cores), and run_blocking's threads the blocking one.
//
// Priorities (emergency, high, regular, low, background), and the starvation rule:
//   - emergency is admitted at once, even beyond the capacity, and never waits;
//   - otherwise a job waits while the capacity is used (or others wait); a freed slot goes to the
//     oldest waiter of the highest priority, FIFO within a priority;
//   - except a starving waiter: one that has watched `starvation_limit` admissions go past it
//     since it started waiting goes next, whatever its priority (the oldest such one first).
//     So a background job waits at most starvation_limit admissions per waiter ahead of it.
//
// Lifetime: the subpool must outlive every job and slot of it (destroy it after they end).
// Thread-safety: every member may be called from any thread, concurrently. Memory ordering:
// what a job did before its slot was released happens-before the next admitted job resumes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "shoal/detail/spin_lock.hpp"
#include "shoal/detail/subpool.hpp"
#include "shoal/detail/thread_annotations.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal {

/// A job's priority in a subpool's queue (see the header's starvation rule).
enum class priority : std::uint8_t { emergency, high, regular, low, background };

/// A subpool's name, capacity and starvation limit.
struct subpool_options {
  std::string name;
  std::size_t capacity = 0;           // 0: the pool's worker count
  std::size_t starvation_limit = 16;  // admissions a waiter watches go by before it goes next
};

/// A job's slot in a subpool: move-only; released when destroyed, or by reset().
using subpool_slot = detail::subpool_slot;
/// What enter() returns: an awaitable, awaited at once.
using subpool_enter_awaiter = detail::subpool_waiter;

/// A name, a capacity and a priority queue in front of a thread_pool (see the header).
class subpool {
 public:
  /// A subpool of `pool`; capacity 0 is the pool's worker count.
  subpool(thread_pool& pool, subpool_options options);
  subpool(const subpool&) = delete;
  subpool& operator=(const subpool&) = delete;
  ~subpool() = default;

  /// Waits for a slot at priority `p` (emergency: admitted at once, even beyond the capacity).
  ///   Result: a subpool_slot (move-only; released when destroyed, or by reset()).
  ///   Errors: std::bad_alloc only in a bound when_all/when_any child, the first time it unbinds
  ///           (as thread_pool::schedule()).
  ///   Cancellation: none: a waiting job waits for its slot.
  ///   Resumes on: some worker of the subpool's pool, unbound (like pool.schedule()), also when a
  ///     slot was free at once.
  ///   Thread-safety: any thread.
  ///   Example:
  ///     shoal::subpool io(pool, {.name = "io", .capacity = 4});
  ///     auto slot = co_await io.enter(shoal::priority::high);  // at most 4 in here at once
  ///     co_await fetch(url);
  [[nodiscard]] subpool_enter_awaiter enter(priority p = priority::regular) noexcept {
    return subpool_enter_awaiter(*this, p);
  }
  /// Starts `t` detached on the pool as a job of this subpool: it waits for a slot (at `p`), runs,
  /// and gives the slot back when it ends. As thread_pool::spawn otherwise (an escaping exception
  /// terminates; errors: std::bad_alloc).
  void spawn(task<void> t, priority p = priority::regular);

  /// The name given in the options.
  [[nodiscard]] const std::string& name() const noexcept { return name_; }
  /// Jobs admitted at most at once (beyond it only emergency ones).
  [[nodiscard]] std::size_t capacity() const noexcept { return capacity_; }
  /// The pool the jobs run on.
  [[nodiscard]] thread_pool& pool() const noexcept { return *pool_; }
  /// Jobs admitted and not ended; jobs waiting for a slot. Any thread (a snapshot).
  [[nodiscard]] std::size_t running() const noexcept;
  /// Jobs waiting for a slot. Any thread (a snapshot).
  [[nodiscard]] std::size_t waiting() const noexcept;

 private:
  friend class detail::subpool_waiter;
  friend class detail::subpool_slot;
  static constexpr std::size_t levels = 5;
  struct fifo {
    detail::subpool_waiter* head = nullptr;
    detail::subpool_waiter* tail = nullptr;
  };

  void enter(detail::subpool_waiter& w) noexcept;
  void release() noexcept;
  detail::subpool_waiter* pick() noexcept SHOAL_REQUIRES(lock_);

  thread_pool* pool_;
  std::string name_;
  std::size_t capacity_;
  std::size_t starvation_limit_;
  mutable detail::spin_lock lock_;
  std::size_t running_ SHOAL_GUARDED_BY(lock_) = 0;
  std::size_t waiting_ SHOAL_GUARDED_BY(lock_) = 0;
  std::uint64_t admissions_ SHOAL_GUARDED_BY(lock_) = 0;
  std::uint64_t tickets_ SHOAL_GUARDED_BY(lock_) = 0;
  fifo queues_[levels] SHOAL_GUARDED_BY(lock_);
};

}  // namespace shoal
