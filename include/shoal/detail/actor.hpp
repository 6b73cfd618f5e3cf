// SPDX-License-Identifier: Apache-2.0
// shoal/detail/actor.hpp: the promise and awaiters behind shoal/actor.hpp.
//
// Holds. Every actor coroutine records in its promise the context it is bound to (`bound`, set
// by `co_await ctx()`) and the context it holds right now (`held`). A hold moves with control:
// an actor calling another actor lends its hold to the callee for the call (the caller is
// suspended), so a call into the same context keeps it without touching the mailbox. A callee
// that enters another, free context keeps the lent one held for its caller (`parked`); a callee
// returning gives its caller back what it held: a parked hold as it is, one it had to let go
// re-acquired. Parked holds last only while the chain runs: before the chain really suspends
// (queued in a mailbox, awaiting something else, yielding, its caller posted), actor_unpark
// walks up the callers and releases every parked hold, so a chain waiting anywhere holds
// nothing but what its waiting coroutine holds itself; that is also why two chains calling into
// each other's contexts cannot deadlock.
//
// Foreign awaits. Anything else an actor awaits (a task, a sleep, an event) is handed a second,
// tiny coroutine, the actor's "bounce" (made once per actor coroutine, on its first such
// suspension), instead of the actor itself: the operation resumes the bounce, which re-enters
// the context and only then resumes the actor (queueing it when the context is busy). The
// context is released after the operation's await_suspend has returned, so the operation may
// complete, and the bounce run, before the release: a two-bit handshake decides who
// re-acquires. The suspending side sets `released` after releasing, the bounce sets `woken`;
// both with one fetch_or, so exactly one of them sees the other's bit, and that one re-enters.
//
// Preemption. Each inline context switch on a thread (entering a free context, returning into
// one) spends one unit of a per-thread budget; when it runs out, that switch posts the
// coroutine to its executor instead of running it, and the budget refills: a chain of actors
// calling each other can never keep a worker from the rest of its queue for more than
// actor_preemption_budget switches.
//
// Placement. A hand-over stays on the worker that made it: a handed waiter that cannot run
// inline (or may not, at a preempted switch), the caller of a call that waited for its context
// or handed it on, and a holder preempted as it enters are posted to this worker's own queue
// (sticky: not stealable, but given to the other workers if this one blocks in sync_wait; only
// a chain bound here is posted plainly pinned), so a contended context and its callers stay on
// one worker instead of crossing cores every round trip; only a chain preempted after an
// uncontended call is left for any worker to take (docs/design/actors.md, "A contended context
// stays on one worker").
//
// Thread-safety: a promise is touched by whoever runs its coroutine; hand-overs are ordered by
// the mailbox, by posts and by the handshake's acq_rel operations.
#pragma once

#include <atomic>
#include <coroutine>
#include <exception>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "shoal/detail/actor_mailbox.hpp"
#include "shoal/detail/awaitable_traits.hpp"
#include "shoal/detail/env_awaiter.hpp"
#include "shoal/detail/task.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/detail/transfer.hpp"
#include "shoal/executor.hpp"

namespace shoal {
template <class T>
class actor_task;
}  // namespace shoal

namespace shoal::detail {

// The pool whose worker is the running executor, or nullptr (detail::executor_pool, compiled):
// inside a sync_wait nested on a worker, nullptr, so that a waiter is never run on, nor taken
// from, that sync_wait's loop by the pool path.
thread_pool* actor_current_pool() noexcept;

// Inline context switches a thread makes before one of them yields to its executor.
inline constexpr unsigned actor_preemption_budget = 256;
inline thread_local unsigned actor_budget_left = actor_preemption_budget;

// Spends one inline switch; true when the budget ran out (this switch must yield).
inline bool actor_budget_spent() noexcept {
  if (--actor_budget_left != 0) return false;
  actor_budget_left = actor_preemption_budget;
  return true;
}

// What `co_await ctx()` is given: the context to enter.
struct actor_enter {
  actor_mailbox* mailbox;
};

// Where the coroutine whose env is `env` resumes: its home when bound, else here.
inline wake_target actor_target(const task_env* env) noexcept {
  if (env != nullptr && env->home != nullptr) return {env->home, true};
  return {executor::current(), false};
}

// True when waiter `w` may be resumed on this thread: its own executor, or, unbound, any worker
// of the pool it waited from.
inline bool actor_may_run_here(const actor_waiter& w) noexcept {
  if (w.target.where == executor::current()) return true;
  return !w.target.pinned && w.pool != nullptr && w.pool == actor_current_pool();
}

// The holder of `mb` lets it go: the oldest waiter now holds it (returned), or it is free.
inline actor_waiter* actor_release(actor_mailbox& mb) noexcept {
  actor_waiter* w = mb.unlock();
  if (w != nullptr) *w->held = &mb;  // w is suspended: resuming it (later) publishes this
  return w;
}

// Posts `h`, made ready by a hand-over on this thread, to this executor's own queue (sticky: no
// other worker takes it unless this one blocks in sync_wait, executor::post_sticky): the
// hand-over stays with the holder (see the header comment).
// `bound`: the chain is bound to this executor (its home): a plain pinned post. Out of line (the
// paths that post are the slow ones: contention, preemption): inlined, its two virtual calls made
// resume_caller too big to be inlined into finish, about 4 ns more per uncontended call.
[[gnu::noinline]] inline void actor_keep_here(std::coroutine_handle<> h, bool bound) noexcept {
  if (bound) {
    executor::current()->post(h, true);
  } else {
    executor::current()->post_sticky(h);
  }
}

// Posts waiter `w` (handed a context) to where it may run: here when it may run here.
inline void actor_post(const actor_waiter& w) noexcept {
  if (w.target.where == nullptr || actor_may_run_here(w)) {
    actor_keep_here(w.handle, w.target.pinned);  // here, or waited outside any executor
  } else {
    w.target.post(w.handle);
  }
}

// Up to one coroutine to run next on this thread by symmetric transfer; any other made ready
// at the same switch is posted.
class actor_next {
 public:
  // True when `h`, resumable at `where`, would run next here rather than be posted.
  [[nodiscard]] bool would_run(wake_target where) const noexcept {
    return !next_ &&
           (where.where == nullptr || where.where == executor::current() || !where.pinned);
  }
  void run(std::coroutine_handle<> h, wake_target where) noexcept {
    if (would_run(where)) {
      next_ = h;
      bound_ = where.pinned;
    } else {
      where.post(h);
    }
  }
  void run(actor_waiter* w) noexcept {
    if (w == nullptr) return;
    if (!next_ && actor_may_run_here(*w)) {
      next_ = w->handle;
      bound_ = w->target.pinned;
    } else {
      actor_post(*w);
    }
  }
  [[nodiscard]] std::coroutine_handle<> take() noexcept { return std::exchange(next_, nullptr); }
  // Posts the coroutine that would have run next to this executor's own queue instead (a
  // preempted switch): sticky unless bound here, as every hand-over (actor_keep_here), so that
  // a chain waiting for it never waits for this worker to come back from a nested sync_wait.
  void keep_here() noexcept {
    if (next_) actor_keep_here(take(), bound_);
  }

 private:
  std::coroutine_handle<> next_;
  bool bound_ = false;  // next_ is bound to this executor (its home)
};

struct actor_promise_base;

// The bounce of an actor coroutine (see the header comment): resumed by whatever the actor
// awaited, it re-enters the context and resumes the actor. It loops forever; the actor's promise
// destroys it.
struct actor_bounce_promise;
struct actor_bounce {
  using promise_type = actor_bounce_promise;
  std::coroutine_handle<actor_bounce_promise> handle;
};
struct actor_bounce_promise : promise_base, frame_allocated<actor_bounce_promise> {
  actor_promise_base* owner = nullptr;
  actor_bounce get_return_object() noexcept {
    return {std::coroutine_handle<actor_bounce_promise>::from_promise(*this)};
  }
  std::suspend_always initial_suspend() const noexcept { return {}; }
  std::suspend_always final_suspend() const noexcept { return {}; }
  void return_void() const noexcept {}
  [[noreturn]] void unhandled_exception() const noexcept { std::terminate(); }
};

// A new bounce, suspended before its loop (compiled: src/shoal/sync/actor_mailbox.cpp).
actor_bounce actor_make_bounce();

struct actor_promise_base : promise_base {
  actor_promise_base() noexcept = default;
  actor_promise_base(const actor_promise_base&) = delete;
  actor_promise_base& operator=(const actor_promise_base&) = delete;
  ~actor_promise_base() {
    if (bounce) bounce.destroy();
  }

  // The awaiting actor coroutine re-enters what it held when it called us: its next step.
  std::coroutine_handle<> on_bounce() noexcept;
  // Re-enters `reacquire` (queueing when busy): the coroutine to run now, or null.
  std::coroutine_handle<> reenter() noexcept {
    actor_mailbox* const mb = reacquire;
    if (mb->try_lock()) {  // the common case: free, and nothing to fill in
      held = mb;
      return self;
    }
    waiter.handle = self;
    waiter.target = actor_target(env);
    waiter.pool = actor_current_pool();
    waiter.held = &held;
    if (!mb->lock_or_push(waiter)) return nullptr;  // queued: touch nothing more
    held = mb;
    return self;
  }

  static constexpr unsigned char released = 1;
  static constexpr unsigned char woken = 2;

  std::coroutine_handle<> self;             // this coroutine
  actor_mailbox* bound = nullptr;           // entered by co_await ctx()
  actor_mailbox* held = nullptr;            // held now (its own, or lent by the caller)
  actor_mailbox* lent = nullptr;            // what the caller held when it called us
  bool parked = false;                      // `lent` still held for the caller (see above)
  bool queued = false;                      // waited in the mailbox to enter `bound`
  actor_promise_base* caller = nullptr;     // the awaiting coroutine, when it is an actor
  actor_mailbox* reacquire = nullptr;       // released for a foreign await, to re-enter
  std::atomic<unsigned char> handshake{0};  // released / woken, per foreign await
  actor_waiter waiter;                      // queued in a mailbox while waiting for a context
  std::coroutine_handle<actor_bounce_promise> bounce;  // made on the first foreign suspension
};

inline std::coroutine_handle<> actor_promise_base::on_bounce() noexcept {
  // acq_rel: pairs with the suspending side's fetch_or (actor_foreign_awaiter::release).
  if ((handshake.fetch_or(woken, std::memory_order_acq_rel) & released) == 0) return nullptr;
  return reenter();
}

// Before the chain of `p` really suspends (or waits in a queue): every context held for a caller
// up the chain while its callee ran inline is let go; their next holders are run or posted
// through `next`.
inline void actor_unpark(actor_promise_base* p, actor_next& next) noexcept {
  for (; p != nullptr; p = p->caller) {
    if (p->parked) {
      p->parked = false;
      next.run(actor_release(*p->lent));
    }
  }
}

// One step of the bounce's loop: hand control to the actor (or to nothing, when it is queued).
struct actor_bounce_step {
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<actor_bounce_promise> h) noexcept {
    return transfer(h.promise().owner->on_bounce());
  }
  void await_resume() const noexcept {}
};

// `co_await ctx()` inside an actor coroutine.
class actor_enter_awaiter {
 public:
  actor_enter_awaiter(actor_promise_base& self, actor_mailbox& target) noexcept
      : self_(&self), target_(&target) {}

  bool await_ready() noexcept {
    self_->bound = target_;
    if (self_->held == target_) return true;  // lent by a caller on the same context
    if (!target_->try_lock()) return false;
    // Entered. A hold lent by the caller stays held for it (parked) while we run inline: no
    // release now and no re-entry on return, unless the chain suspends first.
    self_->parked = self_->held != nullptr;
    self_->held = target_;
    return !actor_budget_spent();  // entered at once, unless this switch must yield
  }
  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> h) noexcept {
    actor_next next;
    if (self_->held == target_) {  // entered, but out of budget: yield, holding it
      actor_unpark(self_, next);
      const wake_target where = actor_target(self_->env);
      if (where.where == executor::current()) {
        actor_keep_here(h, where.pinned);  // a holder does not travel: its callers follow it
      } else {
        where.post(h);
      }
      return transfer(next.take());
    }
    // Busy: let go of what the chain holds, then wait in the mailbox.
    self_->queued = true;
    if (self_->held != nullptr) next.run(actor_release(*std::exchange(self_->held, nullptr)));
    actor_unpark(self_->caller, next);
    self_->reacquire = target_;
    if (std::coroutine_handle<> me = self_->reenter()) {  // queued: *this may be gone
      next.run(me, actor_target(self_->env));
    }
    return transfer(next.take());
  }
  void await_resume() const noexcept {}

 private:
  actor_promise_base* self_;
  actor_mailbox* target_;
};

// Any other await inside an actor coroutine (see the header comment). Also keeps `current_env`
// true on resumption, as env_awaiter does for tasks.
template <class Awaiter>
class actor_foreign_awaiter {
 public:
  template <class Make>
  actor_foreign_awaiter(Make&& make, actor_promise_base& self) : inner_(make()), self_(&self) {}

  bool await_ready() { return inner_.await_ready(); }
  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> h) {
    if (self_->held == nullptr) return suspend_plain(h);
    if (!self_->bounce) {
      self_->bounce = actor_make_bounce().handle;
      self_->bounce.promise().owner = self_;
    }
    auto bounce = self_->bounce;
    bounce.promise().env = self_->env;
    bounce.promise().parent = self_;
    self_->handshake.store(0, std::memory_order_relaxed);  // published by the operation's wake-up
    using result = decltype(inner_.await_suspend(bounce));
    if constexpr (std::is_void_v<result>) {
      inner_.await_suspend(bounce);
      return release(nullptr);
    } else if constexpr (std::is_same_v<result, bool>) {
      if (!inner_.await_suspend(bounce)) return h;  // completed at once: still held
      return release(nullptr);
    } else {
      std::coroutine_handle<> then = inner_.await_suspend(bounce);
      if constexpr (!symmetric_transfer) {
        // Loop mode: a shoal awaiter parked its next coroutine in the trampoline and returned
        // noop; take it back, since release() transfers once for both.
        if (trampoline.running && trampoline.next) then = std::exchange(trampoline.next, nullptr);
      }
      if (then == std::noop_coroutine()) then = nullptr;
      return release(then);
    }
  }
  decltype(auto) await_resume() {
    current_env = self_->env;
    return inner_.await_resume();
  }

 private:
  template <class Promise>
  std::coroutine_handle<> suspend_plain(std::coroutine_handle<Promise> h) {
    using result = decltype(inner_.await_suspend(h));
    if constexpr (std::is_void_v<result>) {
      inner_.await_suspend(h);
      return std::noop_coroutine();
    } else if constexpr (std::is_same_v<result, bool>) {
      return inner_.await_suspend(h) ? std::noop_coroutine() : std::coroutine_handle<>(h);
    } else {
      return inner_.await_suspend(h);
    }
  }

  // The operation is under way (and `then`, if any, must run next): let the context go.
  std::coroutine_handle<> release(std::coroutine_handle<> then) noexcept {
    actor_promise_base& self = *self_;
    actor_mailbox* const mb = std::exchange(self.held, nullptr);
    self.reacquire = mb;
    actor_next next;
    if (then) next.run(then, {executor::current(), true});
    actor_waiter* const handed = actor_release(*mb);
    actor_unpark(&self, next);  // before the handshake: after it, the actor may run elsewhere
    // acq_rel: pairs with on_bounce's fetch_or. If the operation already woke the bounce, it
    // left the re-entry to us.
    if ((self.handshake.fetch_or(actor_promise_base::released, std::memory_order_acq_rel) &
         actor_promise_base::woken) != 0) {
      if (std::coroutine_handle<> me = self.reenter()) next.run(me, actor_target(self.env));
    }
    next.run(handed);
    return transfer(next.take());
  }

  Awaiter inner_;  // a reference type when the awaitable is its own awaiter
  actor_promise_base* self_;
};

template <class Awaitable>
auto wrap_foreign(Awaitable&& awaitable, actor_promise_base& self) {
  using awaiter = decltype(get_awaiter(std::forward<Awaitable>(awaitable)));
  auto make = [&]() -> awaiter { return get_awaiter(std::forward<Awaitable>(awaitable)); };
  return actor_foreign_awaiter<awaiter>(make, self);
}

template <class T>
inline constexpr bool is_actor_task_v = false;
template <class T>
inline constexpr bool is_actor_task_v<actor_task<T>> = true;

// Final suspension of an actor coroutine: let its context go and give the caller back its hold.
struct actor_final {
  bool await_ready() const noexcept { return false; }
  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> h) noexcept {
    return finish(h.promise());
  }
  void await_resume() const noexcept {}

  static std::coroutine_handle<> finish(actor_promise_base& p) noexcept;

  // Runs the caller next here, or posts it (`yield`, or it cannot run here); a posted caller
  // waits in a queue, so nothing may stay parked for its chain. `contended`: the call waited
  // for its context, or handed it on to a waiter: the caller stays on this worker (unless bound
  // elsewhere), with the context; a caller of a context nobody else wanted, preempted, goes
  // where any worker of its pool may take it.
  [[gnu::always_inline]] static void resume_caller(actor_promise_base* caller,
                                                   std::coroutine_handle<> continuation,
                                                   wake_target target, bool yield, bool contended,
                                                   actor_next& next) noexcept {
    if (!yield && next.would_run(target)) {
      next.run(continuation, target);
      return;
    }
    actor_unpark(caller, next);
    if (contended && target.where == executor::current()) {
      actor_keep_here(continuation, target.pinned);
    } else {
      target.post(continuation);
    }
  }
};

inline std::coroutine_handle<> actor_final::finish(actor_promise_base& p) noexcept {
  actor_mailbox* const wanted = p.lent;
  actor_promise_base* const caller = p.caller;
  const std::coroutine_handle<> continuation = p.continuation;
  const wake_target caller_target = actor_target(p.env);
  actor_next next;
  if (p.held == wanted) {  // nothing to switch: same context (or none) on both sides
    if (caller != nullptr) caller->held = wanted;
    resume_caller(caller, continuation, caller_target, false, false, next);
    return transfer(next.take());
  }
  actor_waiter* const handed = p.held != nullptr ? actor_release(*p.held) : nullptr;
  p.held = nullptr;
  bool caller_ready = true;
  if (p.parked) {  // the caller's context was held for it all along
    p.parked = false;
    caller->held = wanted;
  } else if (wanted != nullptr) {  // the caller is an actor that let its context go: re-enter
    caller->reacquire = wanted;
    caller_ready = caller->reenter() != nullptr;
  }
  const bool yield = actor_budget_spent();
  if (!yield) next.run(handed);  // the context's next caller first: it stays hot on this thread
  if (caller_ready) {
    resume_caller(caller, continuation, caller_target, yield, handed != nullptr || p.queued, next);
  }
  if (yield) {
    if (handed != nullptr) actor_post(*handed);
    next.keep_here();
    return std::noop_coroutine();
  }
  return transfer(next.take());
}

// Initial suspension: when it starts, its env becomes the thread's current env.
struct actor_initial {
  promise_base* promise;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept { current_env = promise->env; }
};

template <class T>
class actor_promise_common : public actor_promise_base {
 public:
  actor_initial initial_suspend() noexcept { return {this}; }
  actor_final final_suspend() const noexcept { return {}; }
  void unhandled_exception() noexcept { result_.set_exception(std::current_exception()); }
  task_result<T>& result() noexcept { return result_; }

  actor_enter_awaiter await_transform(actor_enter enter) {
    if (bound != nullptr && bound != enter.mailbox) {
      throw std::logic_error("shoal: an actor coroutine enters one actor_context only");
    }
    return {*this, *enter.mailbox};
  }
  template <class Awaitable>
    requires is_actor_task_v<std::remove_cvref_t<Awaitable>>
  auto await_transform(Awaitable&& call) {
    return wrap_in_env(std::forward<Awaitable>(call), *this);
  }
  template <class Awaitable>
    requires(!is_actor_task_v<std::remove_cvref_t<Awaitable>>)
  auto await_transform(Awaitable&& awaitable) {
    return wrap_foreign(std::forward<Awaitable>(awaitable), *this);
  }

 protected:
  task_result<T> result_;
};

template <class T>
class actor_promise final : public actor_promise_common<T>,
                            public frame_allocated<actor_promise<T>> {
 public:
  actor_promise() noexcept {
    this->self = std::coroutine_handle<actor_promise>::from_promise(*this);
  }
  actor_task<T> get_return_object() noexcept;
  template <class U = T>
    requires std::is_convertible_v<U&&, T>
  void return_value(U&& value) {
    this->result_.set_value(std::forward<U>(value));
  }
};

template <>
class actor_promise<void> final : public actor_promise_common<void>,
                                  public frame_allocated<actor_promise<void>> {
 public:
  actor_promise() noexcept {
    this->self = std::coroutine_handle<actor_promise>::from_promise(*this);
  }
  actor_task<void> get_return_object() noexcept;
  void return_void() const noexcept {}
};

// Awaiting an actor call: starts it on this thread, lending it the caller's hold.
template <class T, bool Rvalue>
class actor_call_awaiter {
 public:
  explicit actor_call_awaiter(std::coroutine_handle<actor_promise<T>> h) noexcept : h_(h) {}

  bool await_ready() const noexcept { return false; }
  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> caller) noexcept {
    actor_promise<T>& p = h_.promise();
    p.continuation = caller;
    p.env = env_of(caller);
    p.parent = promise_of(caller);
    if constexpr (std::is_base_of_v<actor_promise_base, Promise>) {
      p.caller = &caller.promise();
      p.lent = std::exchange(caller.promise().held, nullptr);
      p.held = p.lent;
    }
    return transfer(h_);
  }
  decltype(auto) await_resume() {
    if constexpr (Rvalue) {
      return h_.promise().result().take();
    } else {
      return h_.promise().result().get();
    }
  }

 private:
  std::coroutine_handle<actor_promise<T>> h_;
};

}  // namespace shoal::detail
