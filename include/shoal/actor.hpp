// shoal/actor.hpp: actors, Swift's model on shoal's pool: state that only one coroutine at a
// time touches, without a lock held across awaits.
//
// What: an `actor_context` serialises the coroutines bound to it. An actor method is a coroutine
// returning `actor_task<T>` whose body starts with `co_await ctx();`: from there on, no other
// coroutine bound to the same context runs at the same time, so the object's fields need no
// mutex. The context is held only while the method runs (or a call it made runs inline, see
// Calls): whenever the method awaits something else (a sleep, I/O, a plain task, a call into
// another actor) and the chain actually suspends, the context is released, and it is
// re-acquired before the method continues. Actors are therefore
// re-entrant across awaits, as Swift's are: state read before a suspending co_await may have
// changed after it. An await that completes without suspending keeps the context.
//
// Calls. Awaiting an actor_task calls the method: it starts on the caller's thread. If the
// context is free the call enters it at once and runs there and then (no queue, no scheduler);
// if it is busy the call waits in the context's mailbox (lock-free: detail/actor_mailbox.hpp)
// and the caller's thread goes on with other work; the holder hands the context to the oldest
// waiter when it lets go, so callers are served in arrival order. A call into the context the
// caller already holds (an actor calling its own methods) keeps it: no release, no re-entry.
// An actor caller's own context stays held for it while the call runs without suspending (a
// call into a free context costs no release and no re-entry); as soon as the call suspends
// (queued on a busy context, awaiting something else, yielding) the caller's context is
// released too, and it is re-acquired before the caller continues. An actor_task is lazy,
// move-only and awaited once, like task<T>.
//
// Preemption: a chain of actors calling each other on free contexts runs inline, but every
// 256th such switch on a thread yields to the executor instead, so a hot actor cannot keep a
// worker from the rest of its queue.
//
// Composition: the caller's environment flows into the call: its stop token (a stop request
// reaches what the method awaits), its coroutine-local values, its home worker. with_timeout,
// with_stop_token and sync_wait take an actor_task like any awaitable; when_all, when_any and
// task_group take tasks: wrap a call with `shoal::as_task(call)`. `shoal::detach(pool, call)`
// starts a call without waiting for it. Entering a context is not a cancellation point: a call
// queued on a busy context waits its turn even when stopped (the method can then check
// shoal::stop_requested()).
//
// Lifetime: the object owning an actor_context must outlive every call into it, running,
// queued or suspended (destroying a held context is asserted in debug builds). An actor_context
// belongs to no pool: methods run on the executors of their callers (see Resumes on), so an
// actor never keeps a pool alive; a detached call is a chain spawned on the pool it is given,
// which thread_pool::stop waits for. Awaiting calls needs an executor on the thread (a pool
// worker, sync_wait, the test scheduler).
// Thread-safety: any number of coroutines on any threads may call into one context at once.
// Memory ordering: everything a coroutine did while holding a context happens-before whatever
// the next holder does after entering it.
//
// Awaiting a call (`co_await account.deposit(10)`):
//   Result: the method's T (moved out). Errors: the method's exception, rethrown here; a method
//           entering a second, different context throws std::logic_error.
//   Cancellation: the caller's stop token is the method's; entering the context ignores it.
//   Resumes on: the caller's own worker when its chain is bound (schedule_on), else on the
//               executor that finished the call (a worker of the caller's pool, or its
//               sync_wait's loop: a waiting call is only ever resumed where its caller could
//               have run; a sync_wait nested on a worker is an executor of its own, which runs
//               no caller of the pool's and lends none of its own to the pool). An actor caller
//               resumes holding its own context again.
//   Thread-safety: await once, from one coroutine.
//   Example:
//     class account {
//      public:
//       shoal::actor_task<long> deposit(long amount) {
//         co_await ctx_();
//         balance_ += amount;
//         co_return balance_;
//       }
//      private:
//       shoal::actor_context ctx_;
//       long balance_ = 0;
//     };
//     long now = co_await acct.deposit(10);          // from any coroutine
//     long then = shoal::sync_wait(acct.deposit(5));  // from a plain thread
#pragma once

#include <coroutine>
#include <utility>

#include "shoal/detail/actor.hpp"
#include "shoal/detail/actor_mailbox.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal {

class actor_context {
 public:
  actor_context() noexcept = default;
  actor_context(const actor_context&) = delete;
  actor_context& operator=(const actor_context&) = delete;
  ~actor_context() = default;

  // `co_await ctx();`, first thing in an actor method: binds the method to this context and
  // enters it. Only inside a coroutine returning actor_task. Result: void. Errors:
  // std::logic_error when the method already entered another context. Cancellation: none.
  // Resumes on: at once on the same thread when the context is free (or already held by the
  // caller), else where the holder hands it over (see the header comment).
  [[nodiscard]] detail::actor_enter operator()() noexcept { return {&mailbox_}; }

  // True while some coroutine holds this context (a snapshot, for tests and assertions).
  [[nodiscard]] bool busy() const noexcept { return mailbox_.held(); }

 private:
  detail::actor_mailbox mailbox_;
};

template <class T = void>
class [[nodiscard]] actor_task {
 public:
  using promise_type = detail::actor_promise<T>;
  using value_type = T;

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

  [[nodiscard]] bool valid() const noexcept { return h_ != nullptr; }

  auto operator co_await() && noexcept { return detail::actor_call_awaiter<T, true>(h_); }
  auto operator co_await() & noexcept { return detail::actor_call_awaiter<T, false>(h_); }

 private:
  friend promise_type;
  explicit actor_task(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}
  void destroy() noexcept {
    if (h_) std::exchange(h_, nullptr).destroy();
  }

  std::coroutine_handle<promise_type> h_;
};

// A task that makes the call: for when_all, when_any, task_group and thread_pool::spawn.
template <class T>
task<T> as_task(actor_task<T> call) {
  co_return co_await std::move(call);
}

// Starts the call detached on `pool` (unbound), as pool.spawn(as_task(call)): nobody awaits
// it; an exception escaping it terminates, as with spawn. Errors: std::bad_alloc.
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
