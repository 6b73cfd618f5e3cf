// SPDX-License-Identifier: Apache-2.0
// shoal/detail/mutex.hpp: std::mutex as a capability clang's thread-safety analysis knows.
//
// What: `mutex` is a std::mutex whose lock and unlock are annotated (libstdc++'s are not), and
// `mutex_lock` holds one for a scope, like std::unique_lock: it can wait on a
// std::condition_variable and release the mutex early. Fields a mutex guards are declared
// SHOAL_GUARDED_BY(that_mutex_), so an access without it fails to compile with clang.
// For the runtime's slow paths (remote posts, the global queue, stopping); the fast paths use
// atomics or detail::spin_lock.
//
// Thread-safety: as std::mutex. Memory ordering: everything done under the mutex happens-before
// the next holder's critical section; a wait releases it and reacquires it before returning.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

#include "shoal/detail/thread_annotations.hpp"

namespace shoal::detail {

class SHOAL_CAPABILITY("mutex") mutex {
 public:
  void lock() SHOAL_ACQUIRE() { native_.lock(); }
  void unlock() SHOAL_RELEASE() { native_.unlock(); }

 private:
  friend class mutex_lock;
  std::mutex native_;
};

class SHOAL_SCOPED_CAPABILITY mutex_lock {
 public:
  explicit mutex_lock(mutex& m) SHOAL_ACQUIRE(m) : lock_(m.native_) {}
  mutex_lock(const mutex_lock&) = delete;
  mutex_lock& operator=(const mutex_lock&) = delete;
  ~mutex_lock() SHOAL_RELEASE() = default;

  // Releases the mutex before the scope ends.
  void unlock() SHOAL_RELEASE() { lock_.unlock(); }

  // Blocks until `cv` is notified (or spuriously); the mutex is released meanwhile and held
  // again on return. Callers loop on their condition, read under the lock.
  void wait(std::condition_variable& cv) { cv.wait(lock_); }
  template <class Clock, class Duration>
  void wait_until(std::condition_variable& cv,
                  const std::chrono::time_point<Clock, Duration>& deadline) {
    cv.wait_until(lock_, deadline);
  }

 private:
  std::unique_lock<std::mutex> lock_;
};

}  // namespace shoal::detail
