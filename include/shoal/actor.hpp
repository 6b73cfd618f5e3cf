// SPDX-License-Identifier: Apache-2.0
// shoal/actor.hpp: actors, Swift's model on shoal's pool: state that only one coroutine at a
// time touches, without a lock held across awaits.
//
// An `actor_context` serialises the coroutines bound to it: an actor method returns
// `actor_task<T>` and starts with `co_await ctx();`. The context is released whenever the method
// actually suspends on something else and re-acquired before it continues, so actors are
// re-entrant across awaits, as Swift's are. Calls, hand-over in arrival order, preemption and
// composition: docs/design/actors.md.
//
// Lifetime: the object owning an actor_context must outlive every call into it, running, queued
// or suspended (destroying a held context is asserted in debug builds). An actor_context belongs
// to no pool: methods run on the executors of their callers, so an actor never keeps a pool
// alive; a detached call is a chain spawned on the pool it is given, which thread_pool::stop waits
// for. Awaiting calls needs an executor on the thread (a pool worker, sync_wait, the test
// scheduler). An actor_task is lazy, move-only and awaited once, like task<T>.
// Thread-safety: any number of coroutines on any threads may call into one context at once.
// Memory ordering: everything a coroutine did while holding a context happens-before whatever the
// next holder does after entering it.
#pragma once

#include <coroutine>
#include <utility>

#include "shoal/detail/actor.hpp"
#include "shoal/detail/actor_mailbox.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal {

/// Serialises the actor methods bound to it; non-copyable, non-movable (calls hold its address).
/// Thread-safety: any thread may call into it at any time.
class actor_context {
 public:
  /// A free context (no coroutine holds it).
  actor_context() noexcept = default;
  actor_context(const actor_context&) = delete;
  actor_context& operator=(const actor_context&) = delete;
  ~actor_context() = default;

  /// `co_await ctx();`, first thing in an actor method: binds the method to this context and
  /// enters it. Only inside a coroutine returning actor_task.
  ///   Result: void.
  ///   Errors: std::logic_error when the method already entered another context.
  ///   Cancellation: none: entering waits its turn even when stop is requested.
  ///   Resumes on: at once on the same thread when the context is free (or already held by the
  ///               caller), else where the holder hands it over (in arrival order).
  ///   Thread-safety: the actor method's own coroutine only.
  [[nodiscard]] detail::actor_enter operator()() noexcept { return {&mailbox_}; }

  /// True while some coroutine holds this context (a snapshot, for tests and assertions).
  /// Thread-safety: any thread.
  [[nodiscard]] bool busy() const noexcept { return mailbox_.held(); }

 private:
  detail::actor_mailbox mailbox_;
};

/// A call of an actor method, returning T: lazy, move-only, awaited once (`co_await`), or
/// given to sync_wait, with_timeout, with_stop_token, as_task or detach. Awaiting it starts the
/// call on the caller's thread: it runs at once when the context is free (no queue, no
/// scheduler), else waits in the context's mailbox while the caller's thread does other work.
/// Awaiting a call (`co_await account.deposit(10)`):
///   Result: the method's T (moved out).
///   Errors: the method's exception, rethrown here; a method entering a second, different context
///           throws std::logic_error.
///   Cancellation: the caller's stop token is the method's; entering the context ignores it (a
///                 call queued on a busy context waits its turn even when stopped).
///   Resumes on: the caller's own worker when its chain is bound (schedule_on), else on the
///               executor that finished the call (a worker of the caller's pool, or its
///               sync_wait's loop: a waiting call is only ever resumed where its caller could
///               have run; a sync_wait nested on a worker is an executor of its own, which runs
///               no caller of the pool's and lends none of its own to the pool). An actor caller
///               resumes holding its own context again.
///   Thread-safety: await once, from one coroutine.
///   Example:
///     class account {
///      public:
///       shoal::actor_task<long> deposit(long amount) {
///         co_await ctx_();
///         balance_ += amount;
///         co_return balance_;
///       }
///      private:
///       shoal::actor_context ctx_;
///       long balance_ = 0;
///     };
///     long now = co_await acct.deposit(10);          // from any coroutine
///     long then = shoal::sync_wait(acct.deposit(5));  // from a plain thread
template <class T = void>
class [[nodiscard]] actor_task {
 public:
  using promise_type = detail::actor_promise<T>;
  using value_type = T;

  /// An invalid task (valid() is false): no call to make.
  actor_task() noexcept = default;
  actor_task(actor_task&& other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
  actor_task& operator=(actor_task&& other) noexcept {
    if (this != &other) {
      destroy();
      h_ = std::exchange(other.h_, nullptr);
    }
    return *this;
  }
  actor_task(const actor_task&) = delete;
  actor_task& operator=(const actor_task&) = delete;
  ~actor_task() { destroy(); }

  /// True until moved from (or default-constructed). Thread-safety: the owner only.
  [[nodiscard]] bool valid() const noexcept { return h_ != nullptr; }

  /// Makes the call; the result moved out. Result, Errors, Cancellation, Resumes on,
  /// Thread-safety: the class comment's "Awaiting a call".
  auto operator co_await() && noexcept { return detail::actor_call_awaiter<T, true>(h_); }
  /// The same on an lvalue task (awaited once all the same).
  auto operator co_await() & noexcept { return detail::actor_call_awaiter<T, false>(h_); }

 private:
  friend promise_type;
  explicit actor_task(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}
  void destroy() noexcept {
    if (h_) std::exchange(h_, nullptr).destroy();
  }

  std::coroutine_handle<promise_type> h_;
};

/// A task that makes the call: for when_all, when_any, task_group and thread_pool::spawn.
///   Result: the call's T. Errors: the call's. Cancellation: the awaiting chain's stop token.
///   Resumes on: as awaiting the call. Thread-safety: as a task: awaited once.
template <class T>
task<T> as_task(actor_task<T> call) {
  co_return co_await std::move(call);
}

/// Starts the call detached on `pool` (unbound), as pool.spawn(as_task(call)): nobody awaits
/// it; an exception escaping it terminates, as with spawn.
///   Errors: std::bad_alloc. Cancellation: none of its own (the pool's stop waits for it).
///   Thread-safety: any thread, while the pool runs.
inline void detach(thread_pool& pool, actor_task<void> call) {
  pool.spawn(as_task(std::move(call)));
}

namespace detail {
template <class T>
actor_task<T> actor_promise<T>::get_return_object() noexcept {
  return actor_task<T>(std::coroutine_handle<actor_promise>::from_promise(*this));
}
inline actor_task<void> actor_promise<void>::get_return_object() noexcept {
  return actor_task<void>(std::coroutine_handle<actor_promise>::from_promise(*this));
}
}  // namespace detail

}  // namespace shoal
