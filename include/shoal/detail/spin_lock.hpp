// SPDX-License-Identifier: Apache-2.0
// shoal/detail/spin_lock.hpp: the lock of a synchronisation primitive's state.
//
// What: a one-byte test-and-test-and-set lock for critical sections of a few dozen instructions
// (link or unlink a waiter, count a permit, move one channel value). An uncontended lock and
// unlock is one exchange and one store. A contended lock spins reading the byte (no cache-line
// ping-pong), with a pause hint, and yields the core every few dozen rounds, so a holder that
// was preempted on a shared machine gets it back. Nothing ever blocks while holding one: no
// allocation, no resumption, no user code other than T's move constructor (which must not throw).
//
// Clang's thread-safety analysis knows it as a capability: fields it guards are declared
// SHOAL_GUARDED_BY(lock_), and `guard` holds it for a scope (shoal/detail/thread_annotations.hpp).
//
// Thread-safety: any thread. Memory ordering: everything done under the lock happens-before the
// next holder's critical section (release on unlock, acquire on lock).
#pragma once

#include <atomic>
#include <cassert>

#include "shoal/detail/thread_annotations.hpp"

namespace shoal::detail {

class SHOAL_CAPABILITY("spin_lock") spin_lock {
 public:
  void lock() noexcept SHOAL_ACQUIRE() {
    // acquire: pairs with the release store in unlock(), so we see the last holder's writes.
    if (!locked_.exchange(true, std::memory_order_acquire)) return;
    lock_contended();
  }
  void unlock() noexcept SHOAL_RELEASE() {
    // release: pairs with the acquire exchange in lock() / lock_contended().
    locked_.store(false, std::memory_order_release);
  }

  // Tells the analysis that the caller holds this lock where it cannot see it taken: in the
  // attempt callbacks wait_queue.cpp runs under `*wait_site::lock` (a pointer the analysis cannot
  // relate to the primitive's own lock_). Checks nothing at run time beyond the debug assert.
  void assert_held() const noexcept SHOAL_ASSERT_CAPABILITY(this) {
    // relaxed: a debug check of this thread's own earlier acquire, no ordering needed.
    assert(locked_.load(std::memory_order_relaxed) && "shoal: spin_lock not held");
  }

  // Holds the lock for the scope.
  class SHOAL_SCOPED_CAPABILITY guard {
   public:
    explicit guard(spin_lock& lock) noexcept SHOAL_ACQUIRE(lock) : lock_(&lock) { lock_->lock(); }
    guard(const guard&) = delete;
    guard& operator=(const guard&) = delete;
    ~guard() SHOAL_RELEASE() { lock_->unlock(); }

   private:
    spin_lock* lock_;
  };

 private:
  void lock_contended() noexcept;

  std::atomic<bool> locked_{false};
};

}  // namespace shoal::detail
