// SPDX-License-Identifier: Apache-2.0
// shoal/detail/run_loop.hpp: the single-threaded executor inside sync_wait.
//
// What: a ready queue and a timer heap driven by the thread that calls run(), until finish().
// Thread-safety: post, defer and finish from any thread; add_timer and cancel_timer only on the
// running thread. Posts from the running thread itself (the common case: a coroutine waking
// another) go to a queue only that thread touches, without the lock; posts from other threads go
// to a mutex-guarded queue that the loop splices onto the end of its own whenever `remote_posted_`
// says it holds something (checked after each resumption, so they are not starved). finish
// happens-before run() returns.
// Lifetime: run() at most once; destroy only after run() has returned.
#pragma once

#include <atomic>
#include <condition_variable>
#include <coroutine>
#include <deque>

#include "shoal/detail/mutex.hpp"
#include "shoal/detail/timer_heap.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

class run_loop final : public executor {
 public:
  run_loop() = default;
  ~run_loop() override = default;

  void post(std::coroutine_handle<> h, bool pinned) noexcept override;
  void defer(std::coroutine_handle<> h) noexcept override;
  [[nodiscard]] time_point now() const noexcept override;
  void add_timer(timer_node& node) override;
  bool cancel_timer(timer_node& node) noexcept override;
  bool add_idle_hook(idle_hook& hook) noexcept override;

  // Runs ready coroutines and due timers on this thread until finish() is called.
  void run();
  void finish() noexcept;

 private:
  void fire_due_timers();
  // Moves what other threads posted onto the end of local_; true when there was anything.
  bool take_remote() SHOAL_EXCLUDES(mutex_);

  std::deque<std::coroutine_handle<>> local_;  // run() thread only
  std::atomic<bool> remote_posted_{false};     // remote_ is not empty (a hint; re-read under lock)
  mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::coroutine_handle<>> remote_ SHOAL_GUARDED_BY(mutex_);
  bool finished_ SHOAL_GUARDED_BY(mutex_) = false;
  bool waiting_ SHOAL_GUARDED_BY(mutex_) = false;  // run() blocked on wake_
  timer_heap timers_;                              // run() thread only
  idle_hooks idle_hooks_;                          // run when both queues are empty, before waiting
};

}  // namespace shoal::detail
