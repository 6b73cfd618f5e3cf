// shoal/detail/run_loop.hpp: the single-threaded executor inside sync_wait.
//
// What: a ready queue and a timer heap driven by the thread that calls run(), until finish().
// Thread-safety: post, defer and finish from any thread (a mutex guards the queue; finish
// happens-before run() returns). add_timer and cancel_timer only on the running thread.
// Lifetime: run() at most once; destroy only after run() has returned.
#pragma once

#include <condition_variable>
#include <coroutine>
#include <deque>
#include <mutex>

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

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::coroutine_handle<>> ready_;  // guarded by mutex_
  bool finished_ = false;                      // guarded by mutex_
  bool waiting_ = false;                       // run() blocked on wake_; guarded by mutex_
  timer_heap timers_;                          // run() thread only
  idle_hooks idle_hooks_;                      // run when ready_ is empty, before waiting
};

}  // namespace shoal::detail
