// SPDX-License-Identifier: Apache-2.0
// The compiled half of shoal/detail/wait_queue.hpp and shoal/detail/spin_lock.hpp.
#include "shoal/detail/wait_queue.hpp"

#include <stdexcept>
#include <thread>

#include "shoal/detail/spin_lock.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal::detail {

namespace {

void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

constexpr unsigned spins_before_yield = 64;

}  // namespace

void spin_lock::lock_contended() noexcept {
  for (unsigned spins = 1;; ++spins) {
    // relaxed: only watches for the byte to clear; the exchange below is what acquires.
    if (!locked_.load(std::memory_order_relaxed) &&
        !locked_.exchange(true, std::memory_order_acquire)) {  // pairs with unlock()'s release
      return;
    }
    if (spins % spins_before_yield == 0) {
      std::this_thread::yield();  // the holder may have been preempted: let it run
    } else {
      cpu_relax();
    }
  }
}

void wait_list::push_back(waiter& w) noexcept {
  w.prev_ = tail_;
  w.next_ = nullptr;
  if (tail_ != nullptr) {
    tail_->next_ = &w;
  } else {
    head_ = &w;
  }
  tail_ = &w;
  w.queued_ = true;
}

waiter* wait_list::pop_front() noexcept {
  waiter* const w = head_;
  if (w != nullptr) erase(*w);
  return w;
}

void wait_list::erase(waiter& w) noexcept {
  if (w.prev_ != nullptr) {
    w.prev_->next_ = w.next_;
  } else {
    head_ = w.next_;
  }
  if (w.next_ != nullptr) {
    w.next_->prev_ = w.prev_;
  } else {
    tail_ = w.prev_;
  }
  w.prev_ = w.next_ = nullptr;
  w.queued_ = false;
}

void wake_list::push_back(waiter& w) noexcept {
  w.next_ = nullptr;
  if (tail_ != nullptr) {
    tail_->next_ = &w;
  } else {
    head_ = &w;
  }
  tail_ = &w;
}

void wake_list::wake_all() noexcept {
  waiter* w = head_;
  head_ = tail_ = nullptr;
  while (w != nullptr) {
    waiter* const next = w->next_;  // read first: once woken, w may be resumed and gone
    w->wake();
    w = next;
  }
}

bool waiter::suspend(std::coroutine_handle<> h, const task_env* env, wake_target target) {
  if (env != nullptr && env->stop.stop_requested()) return false;  // cancelled before waiting
  if (target.where == nullptr) {
    throw std::logic_error("shoal: a synchronisation primitive awaited outside any executor");
  }
  handle_ = h;
  target_ = target;
  // The pool of the running executor, not of the thread: inside a sync_wait nested on a
  // worker, the waiter belongs to that sync_wait's loop and must be resumed there.
  if (site_.near_waker && !target.pinned) pool_ = executor_pool();
  // The token before joining the list (a fork scope's is made on first use and may throw).
  const std::stop_token* token =
      env != nullptr && env->stop.stop_possible() ? &env->stop.token() : nullptr;
  wake_list satisfied;  // others this operation completes (a receiver handed our value)
  bool must_wait = false;
  {
    const spin_lock::guard guard(*site_.lock);
    must_wait = !site_.attempt(site_.owner, *this, satisfied);
    if (must_wait) site_.list->push_back(*this);
  }
  // Before the handshake below: until it, this co_await cannot return, so the primitive (and
  // its owner pointer) is still alive even if this waiter was granted meanwhile.
  if (site_.settle != nullptr) site_.settle(site_.owner, satisfied);
  satisfied.wake_all();
  if (!must_wait) return false;
  // A stop requested from here on unlinks the waiter (cancel); one already requested runs
  // cancel() inline, here, which then finds `suspended` unset and leaves the resumption to us.
  if (token != nullptr) stop_callback_.emplace(*token, on_stop{this});
  // acq_rel: pairs with the fetch_or in wake(). Release: the waker that sees `suspended` may
  // post us (we touch nothing after this). Acquire: if it woke us first, we see its outcome.
  return (handshake_.fetch_or(suspended, std::memory_order_acq_rel) & woken) == 0;
}

void waiter::cancel() noexcept {
  {
    const spin_lock::guard guard(*site_.lock);
    if (!queued_) return;  // granted or refused first: that outcome stands
    site_.list->erase(*this);
  }
  wake();
}

void waiter::wake() noexcept {
  // Read before the fetch_or: if await_suspend has not finished, the coroutine continues on
  // its own thread as soon as we set `woken`, and may be gone.
  const std::coroutine_handle<> h = handle_;
  const wake_target target = target_;
  const void* const pool = pool_;
  // acq_rel: pairs with the fetch_or in suspend(). Release: publishes the outcome recorded
  // under the lock (granted_, a channel value). Acquire: if `suspended` is set, await_suspend
  // is done with the waiter and we own the resumption.
  if ((handshake_.fetch_or(woken, std::memory_order_acq_rel) & suspended) == 0) return;
  // The waker's executor (not thread) is a worker of the waiter's pool: inside a sync_wait
  // nested on a worker it is that sync_wait's loop, which may be gone before `h` runs.
  if (pool != nullptr && pool == executor_pool()) {
    executor::current()->post(h, false);  // unbound, same pool: the waker's own worker
  } else {
    target.post(h);
  }
}

}  // namespace shoal::detail
