// SPDX-License-Identifier: Apache-2.0
// shoal/detail/actor_mailbox.hpp: the lock of an actor_context and its queue of waiting callers.
//
// What: one atomic pointer says who may run on the context. Null: free. `locked_empty()` (the
// address of a sentinel node): held, nobody waiting. Any other node: held, and it is the newest
// of a lock-free stack of waiters
// (actor_waiter nodes living in the waiting coroutines' promises). The holder alone also keeps
// `pending_`, waiters already taken off the stack, oldest first.
//
//   try_lock():        CAS null -> sentinel. The uncontended enter: one atomic operation, no queue.
//   lock_or_push(w):   the same, or, when held, push w onto the stack (a CAS loop that retries
//                      only when another caller or the holder changed the word in between:
//                      lock-free; every failed CAS means another thread made progress).
//   unlock():          by the holder. Hands the context to the oldest waiter, which becomes the
//                      holder at once (the context is never free in between, so nobody barges
//                      past a waiter), or frees it. Handing over from `pending_` touches no
//                      atomic; when pending_ is empty, a CAS sentinel -> null frees the
//                      context, and if that fails the whole stack is taken at once (exchange
//                      with the sentinel) and
//                      reversed into pending_, so waiters are served in arrival order.
//
// Why no wake-up is lost: a waiter is pushed only while the word is non-null, i.e. held; the
// holder frees the context only by a CAS from exactly the sentinel (held, empty stack), which
// fails if any
// push came first; then it takes the stack itself. So every pushed waiter is seen by some
// holder's unlock. Nothing ever spins: the holder never waits for a pusher, a pusher never
// waits for the holder.
//
// Memory ordering: the lock CAS acquires and the freeing CAS releases, so a holder's writes
// happen-before the next one's, through the word. A hand-over to a waiter is ordered by how the
// waiter is then resumed (a transfer on the same thread, or a post, which happens-before the
// resumption). A push releases its node's fields; the exchange that takes the stack acquires them.
//
// Thread-safety: lock and lock_or_push from any thread; unlock only by the holder.
#pragma once

#include <atomic>
#include <cassert>
#include <coroutine>

#include "shoal/detail/task_env.hpp"

namespace shoal {
class thread_pool;
}  // namespace shoal

namespace shoal::detail {

class actor_mailbox;

// A coroutine waiting to hold a context. Lives in the waiting coroutine's promise; linked in one
// mailbox at a time, from the push until the unlock that hands it the context.
struct actor_waiter {
  actor_waiter* next = nullptr;
  std::coroutine_handle<> handle;  // resumed holding the context
  wake_target target;              // where it may be resumed (see actor_may_run_here)
  thread_pool* pool = nullptr;     // the pool it waited from, if any: unbound, it may run there
  actor_mailbox** held = nullptr;  // written with the context when it is handed over
};

class actor_mailbox {
 public:
  actor_mailbox() noexcept = default;
  actor_mailbox(const actor_mailbox&) = delete;
  actor_mailbox& operator=(const actor_mailbox&) = delete;
  ~actor_mailbox() {
    // relaxed: a debug check; the owner of the mailbox is the last to touch it.
    assert(state_.load(std::memory_order_relaxed) == nullptr &&
           "shoal: actor_context destroyed while held or with callers waiting");
  }

  // Takes the context when it is free. True: the caller holds it.
  [[nodiscard]] bool try_lock() noexcept {
    actor_waiter* expected = nullptr;
    // acquire: pairs with the release CAS in unlock(), so we see the last holder's writes.
    return state_.compare_exchange_strong(expected, locked_empty(), std::memory_order_acquire,
                                          std::memory_order_relaxed);
  }

  // Takes the context, or queues `w` (filled in by the caller). True: held, `w` not queued.
  // False: `w` is queued and must not be touched again by the caller (it may already be resumed).
  [[nodiscard]] bool lock_or_push(actor_waiter& w) noexcept;

  // By the holder: the oldest waiter, which now holds the context, or nullptr when it is free.
  [[nodiscard]] actor_waiter* unlock() noexcept {
    if (actor_waiter* w = pending_) {
      pending_ = w->next;
      return w;
    }
    actor_waiter* expected = locked_empty();
    // release: pairs with try_lock's acquire (a push's nodes are acquired by take_stack).
    if (state_.compare_exchange_strong(expected, nullptr, std::memory_order_release,
                                       std::memory_order_relaxed)) {
      return nullptr;
    }
    return take_stack();
  }

  // True while held (a snapshot, for assertions and tests).
  [[nodiscard]] bool held() const noexcept {
    return state_.load(std::memory_order_relaxed) != nullptr;  // relaxed: a snapshot
  }

 private:
  // The sentinel meaning "held, nobody waiting": never linked, never resumed.
  static actor_waiter* locked_empty() noexcept {
    static constinit actor_waiter sentinel{};
    return &sentinel;
  }
  actor_waiter* take_stack() noexcept;

  std::atomic<actor_waiter*> state_{nullptr};
  actor_waiter* pending_ = nullptr;  // holder only: taken off the stack, oldest first
};

}  // namespace shoal::detail
