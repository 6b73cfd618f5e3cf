// shoal/detail/spin_lock.hpp: the lock of a synchronisation primitive's state.
//
// What: a one-byte test-and-test-and-set lock for critical sections of a few dozen instructions
// (link or unlink a waiter, count a permit, move one channel value). An uncontended lock and
// unlock is one exchange and one store. A contended lock spins reading the byte (no cache-line
// ping-pong), with a pause hint, and yields the core every few dozen rounds, so a holder that
// was preempted on a shared machine gets it back. Nothing ever blocks while holding one: no
// allocation, no resumption, no user code other than T's move constructor (which must not throw).
//
// Thread-safety: any thread. Memory ordering: everything done under the lock happens-before the
// next holder's critical section (release on unlock, acquire on lock).
#pragma once

#include <atomic>

namespace shoal::detail {

class spin_lock {
 public:
  void lock() noexcept {
    // acquire: pairs with the release store in unlock(), so we see the last holder's writes.
    if (!locked_.exchange(true, std::memory_order_acquire)) return;
    lock_contended();
  }
  void unlock() noexcept {
    // release: pairs with the acquire exchange in lock() / lock_contended().
    locked_.store(false, std::memory_order_release);
  }

  // Holds the lock for the scope.
  class guard {
   public:
    explicit guard(spin_lock& lock) noexcept : lock_(&lock) { lock_->lock(); }
    guard(const guard&) = delete;
    guard& operator=(const guard&) = delete;
    ~guard() { lock_->unlock(); }

   private:
    spin_lock* lock_;
  };

 private:
  void lock_contended() noexcept;

  std::atomic<bool> locked_{false};
};

}  // namespace shoal::detail
