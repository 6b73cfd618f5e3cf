// shoal/detail/readiness.hpp: one direction (read or write) of a watched file descriptor.
//
// The slot holds one word: `idle` (no edge since the last wait), `ready` (an edge arrived and
// nobody consumed it), or the address of the one waiter suspended on it. The reactor's thread
// signals edges; a waiter, on any thread, either consumes `ready` without suspending or parks its
// address in the slot. Whoever takes the waiter's address out of the slot (the edge, or the
// waiter's stop callback) decides its outcome and posts it back to its own executor; the other
// finds the slot changed and does nothing. So an edge is never lost and never given twice.
//
// Thread-safety: signal() on the reactor's thread; the awaiter on its coroutine's thread; the
// stop callback on any thread. At most one waiter per direction at a time.
#pragma once

#include <atomic>
#include <coroutine>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <stop_token>

#include "shoal/detail/task_env.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

class readiness_waiter;

class readiness {
 public:
  static constexpr std::uintptr_t idle = 0;
  static constexpr std::uintptr_t ready = 1;

  // An edge: wake the waiter, or remember it for the next wait. Reactor thread.
  void signal() noexcept;
  // Consumes a remembered edge; true when there was one.
  bool take_ready() noexcept {
    std::uintptr_t expected = ready;
    return slot_.compare_exchange_strong(expected, idle, std::memory_order_acquire);
  }
  // Parks `w`; false when an edge is remembered (consumed instead: do not suspend).
  bool park(readiness_waiter& w);
  // Takes `w` back out; false when an edge already took it.
  bool unpark(readiness_waiter& w) noexcept {
    auto expected = reinterpret_cast<std::uintptr_t>(&w);
    return slot_.compare_exchange_strong(expected, idle, std::memory_order_acq_rel);
  }

 private:
  std::atomic<std::uintptr_t> slot_{idle};
};

// The awaiter of fd_watch::readable() / writable(). Result: true when the direction became
// ready, false when the wait was cancelled by the chain's stop token.
class readiness_waiter {
 public:
  explicit readiness_waiter(readiness& slot) noexcept : slot_(&slot) {}
  readiness_waiter(readiness_waiter&& other) noexcept : slot_(other.slot_) {}
  readiness_waiter(const readiness_waiter&) = delete;
  readiness_waiter& operator=(readiness_waiter&&) = delete;
  readiness_waiter& operator=(const readiness_waiter&) = delete;
  ~readiness_waiter() = default;

  bool await_ready() noexcept { return slot_->take_ready(); }
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) {
    const task_env* env = env_of(h);
    if (env != nullptr && env->stop.stop_requested()) {
      cancelled_ = true;
      return false;
    }
    handle_ = h;
    target_ = wake_target::of(h);
    if (target_.where == nullptr) throw std::logic_error("shoal: I/O awaited outside an executor");
    if (!slot_->park(*this)) return false;  // an edge arrived meanwhile: consumed
    if (env != nullptr && env->stop.stop_possible())
      stop_callback_.emplace(env->stop.token(), on_stop{this});
    return true;
  }
  bool await_resume() noexcept {
    stop_callback_.reset();  // waits for a callback running concurrently
    return !cancelled_;
  }

  // Called by whoever took this waiter out of its slot.
  void wake(bool cancelled) noexcept {
    cancelled_ = cancelled;
    target_.post(handle_);  // publishes cancelled_ to await_resume
  }

 private:
  struct on_stop {
    readiness_waiter* self;
    void operator()() const noexcept {
      if (self->slot_->unpark(*self)) self->wake(true);
    }
  };

  readiness* slot_;
  std::coroutine_handle<> handle_;
  wake_target target_;
  bool cancelled_ = false;
  std::optional<std::stop_callback<on_stop>> stop_callback_;
};

inline void readiness::signal() noexcept {
  std::uintptr_t current = slot_.load(std::memory_order_acquire);
  for (;;) {
    if (current == ready) return;
    if (current == idle) {
      if (slot_.compare_exchange_weak(current, ready, std::memory_order_acq_rel)) return;
      continue;
    }
    if (slot_.compare_exchange_weak(current, idle, std::memory_order_acq_rel)) {
      // The word is a state or the address parked by park(): it is that address here.
      // NOLINTNEXTLINE(performance-no-int-to-ptr)
      reinterpret_cast<readiness_waiter*>(current)->wake(false);
      return;
    }
  }
}

inline bool readiness::park(readiness_waiter& w) {
  std::uintptr_t expected = idle;
  // release: publishes the waiter's fields to the thread that takes it out.
  if (slot_.compare_exchange_strong(expected, reinterpret_cast<std::uintptr_t>(&w),
                                    std::memory_order_acq_rel)) {
    return true;
  }
  if (expected == ready) {
    slot_.store(idle, std::memory_order_relaxed);  // only the reactor sets ready; we own it now
    return false;
  }
  throw std::logic_error("shoal: two coroutines waiting on one direction of one descriptor");
}

}  // namespace shoal::detail
