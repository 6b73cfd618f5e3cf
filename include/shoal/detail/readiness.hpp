// SPDX-License-Identifier: Apache-2.0
// shoal/detail/readiness.hpp: one direction (read or write) of a watched file descriptor.
//
// The slot holds one word: `idle` (no edge since the last wait), `ready` (an edge arrived and
// nobody consumed it), or the address of the one waiter suspended on it. The reactor's thread
// signals edges; a waiter, on any thread, either consumes `ready` without suspending or parks its
// address in the slot. Whoever takes the waiter's address out of the slot (the edge, or the
// waiter's stop callback) decides its outcome; the other finds the slot changed and does
// nothing. So an edge is never lost and never given twice.
//
// Resumption (the handshake of shoal/detail/wait_queue.hpp): the waiter is in its slot, so it
// can be taken, before await_suspend has registered its stop callback; and a stop requested
// meanwhile runs that callback inside the registration. The taker must then not resume the
// coroutine: another worker could run it and destroy the callback (and the frame) while it is
// still being constructed. `handshake_` has two bits: await_suspend sets `suspended` once it
// has finished touching the waiter, the taker sets `woken` once the outcome is recorded. Both
// use one fetch_or, so exactly one of them sees the other's bit: a taker that comes second posts
// the coroutine to its wake target; an await_suspend that comes second returns false and the
// coroutine continues at once on its own thread. Nobody resumes it inline.
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
    // The token before parking (a fork scope's is made on first use and may throw).
    const std::stop_token* token =
        env != nullptr && env->stop.stop_possible() ? &env->stop.token() : nullptr;
    if (!slot_->park(*this)) return false;  // an edge arrived meanwhile: consumed
    // From here an edge or a stop may take the waiter; one already requested runs on_stop
    // inline, here, which then finds `suspended` unset and leaves the resumption to us.
    if (token != nullptr) stop_callback_.emplace(*token, on_stop{this});
    // acq_rel: pairs with the fetch_or in wake(). Release: a taker that sees `suspended` may
    // post us (we touch nothing after this). Acquire: if it took us first, we see cancelled_.
    return (handshake_.fetch_or(suspended, std::memory_order_acq_rel) & woken) == 0;
  }
  bool await_resume() noexcept {
    stop_callback_.reset();  // waits for a callback running concurrently
    return !cancelled_;
  }

  // Called by whoever took this waiter out of its slot.
  void wake(bool cancelled) noexcept {
    cancelled_ = cancelled;
    // Read before the fetch_or: if await_suspend has not finished, the coroutine continues on
    // its own thread as soon as `woken` is set, and the waiter may be gone.
    const std::coroutine_handle<> h = handle_;
    const wake_target target = target_;
    // acq_rel: pairs with the fetch_or in await_suspend. Release: publishes cancelled_.
    // Acquire: if `suspended` is set, await_suspend is done with the waiter; we post it.
    if ((handshake_.fetch_or(woken, std::memory_order_acq_rel) & suspended) != 0) target.post(h);
  }

 private:
  struct on_stop {
    readiness_waiter* self;
    void operator()() const noexcept {
      if (self->slot_->unpark(*self)) self->wake(true);
    }
  };

  static constexpr unsigned char suspended = 1;
  static constexpr unsigned char woken = 2;

  readiness* slot_;
  std::atomic<unsigned char> handshake_{0};
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
