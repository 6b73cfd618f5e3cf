// SPDX-License-Identifier: Apache-2.0
// shoal/detail/join_point.hpp: what the children of one when_all/when_any share, held once: the
// environment they run in, their stop, the countdown that resumes the parent.
//
// What: a when_all/when_any child is its task's frame and nothing more. Its promise points at the
// join (promise_base::fork) and at the join's env; its outcome, value or exception, stays in its
// own result. The env is the parent's with the join's own stop (a lazy_stop that follows the
// parent's: detail/lazy_stop.hpp), marked fork_shared: every child reads it, none writes it. A
// child that rebinds its chain (schedule_on, schedule) first gets a private copy
// (writable_env), which the join keeps and frees. When a child ends (final_transfer,
// detail/task.hpp) child_ended counts it down: the first to fail (when_all) or to end at all
// (when_any) is recorded by its frame's address and the stop requested, cancelling its siblings;
// the last to end returns the parent to go on into (detail/fork_handoff.hpp).
//
// Lifetime: lives in the parent's awaiter, which outlives every child. From the moment a child
// enters child_ended its frame may be destroyed by the parent on another thread.
// Thread-safety: child_ended, keep and request_stop from any thread; the rest is the parent's.
// Memory ordering: each decrement is acq_rel, so everything every child did (its outcome, its
// private env's publication) happens-before the parent resumes and reads or frees them.
#pragma once

#include <atomic>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <utility>

#include "shoal/detail/fork_handoff.hpp"
#include "shoal/detail/lazy_stop.hpp"
#include "shoal/detail/task_env.hpp"

namespace shoal::detail {

// A child's own copy of its join's env, made when the child rebinds its chain; owned by the join.
struct private_env {
  task_env env;
  private_env* next = nullptr;  // the join's list
};

class join_point {
 public:
  enum class stop_on : std::uint8_t { first_failure, first_end };

  join_point(const join_point&) = delete;
  join_point& operator=(const join_point&) = delete;

  // The child whose frame is at `frame` has ended (`failed`: with an exception in its result).
  // Returns what this thread goes on into, never null: the parent when this was the last child
  // and the parent may go on here at once (resume_parent), else the next forked child of this
  // worker, else std::noop_coroutine() (fork_handoff.hpp). The child's frame is not touched
  // afterwards.
  [[gnu::always_inline]] std::coroutine_handle<> child_ended(void* frame, bool failed) noexcept {
    if (failed || policy_ == stop_on::first_end) [[unlikely]] {
      return claim_and_count_down(frame);  // a tail call: the common path saves no register
    }
    return count_down();
  }

  // Asks every child to stop. Any thread.
  void request_stop() noexcept { stop_.request_stop(); }

  // Takes ownership of a child's private env (writable_env); freed with the join. Any thread.
  void keep(private_env& mine) noexcept {
    private_env* head = privates_.load(std::memory_order_relaxed);
    do {
      mine.next = head;
      // release: the parent frees the list after the countdown, which orders it anyway.
    } while (!privates_.compare_exchange_weak(head, &mine, std::memory_order_release,
                                              std::memory_order_relaxed));
  }

 protected:
  // The children's env is `parent_env` (defaults when null) with this join's stop; they resume
  // `parent` (whose promise is `parent_promise`, null when not a shoal coroutine) on `target`.
  join_point(stop_on policy, wake_target target, std::coroutine_handle<> parent,
             promise_base* parent_promise, const task_env* parent_env) noexcept
      : env_(parent_env != nullptr ? *parent_env : task_env{}),
        stop_(env_.stop),
        policy_(policy),
        target_(target),
        parent_(parent),
        parent_promise_(parent_promise) {
    env_.stop = stop_ref(stop_);
    env_.mark_fork_shared();
  }
  ~join_point() {
    // acquire: pairs with keep's release (the countdown already ordered it).
    if (privates_.load(std::memory_order_acquire) != nullptr) [[unlikely]] {
      free_privates();
    }
  }

  // The frame of the child that failed first (first_failure) or ended first (first_end), or
  // nullptr. Read by the parent after the countdown.
  [[nodiscard]] void* first() const noexcept {
    // relaxed: read after the countdown (acq_rel) has ordered the write.
    return first_.load(std::memory_order_relaxed);
  }

  task_env env_;  // every child's; fork_shared
  lazy_stop stop_;
  const stop_on policy_;
  const wake_target target_;
  const std::coroutine_handle<> parent_;
  promise_base* const parent_promise_;  // for the children's async backtraces
  std::atomic<std::size_t> pending_{0};

 private:
  // child_ended's countdown, and what this thread goes on into.
  [[gnu::always_inline]] std::coroutine_handle<> count_down() noexcept {
    // acq_rel: release publishes this child's outcome; the last decrement acquires all others'.
    // Only the child that brings the count to zero reads the join afterwards: it alone resumes the
    // parent, so the join lives until it does (a child that did not reach zero reads nothing, so
    // a sibling that did may already have resumed the parent and destroyed the join).
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) [[unlikely]] {
      return resume_parent(target_, parent_);
    }
    return next_forked_or_noop();
  }
  [[gnu::cold, gnu::noinline]] std::coroutine_handle<> claim_and_count_down(void* frame) noexcept {
    claim(frame);
    return count_down();
  }
  void claim(void* frame) noexcept {
    void* expected = nullptr;
    // relaxed: ordered before the parent's read by the countdown that follows (acq_rel).
    if (first_.compare_exchange_strong(expected, frame, std::memory_order_relaxed)) {
      request_stop();
    }
  }

  [[gnu::cold, gnu::noinline]] void free_privates() noexcept {
    private_env* p = privates_.load(std::memory_order_relaxed);  // acquired by the destructor
    while (p != nullptr) delete std::exchange(p, p->next);
  }

  std::atomic<void*> first_{nullptr};
  std::atomic<private_env*> privates_{nullptr};
};

// The env `running` (a promise of a chain running as a when_all/when_any child) runs in, private
// to it: its join's shared env copied once, every frame of the child's chain pointed at the copy,
// the copy given to the join to free. Throws std::bad_alloc (nothing changed then).
task_env& unshare_env(promise_base& running);

// The env of `running`'s chain, to be written (its home rebound): the env itself, or a private
// copy when it is a join's shared env (unshare_env). Throws std::bad_alloc.
inline task_env& writable_env(promise_base& running) {
  if (!running.env->fork_shared()) [[likely]] {
    return *running.env;
  }
  return unshare_env(running);
}

// Binds the chain of the suspending coroutine `h` to `home` (nullptr: unbinds it), through its
// private env when it runs in a join's shared one. Throws std::bad_alloc (nothing changed then).
template <class Promise>
void rebind_chain(std::coroutine_handle<Promise> h, executor* home) {
  promise_base* p = promise_of(h);
  if (p != nullptr && p->env != nullptr && p->env->home != home) writable_env(*p).home = home;
}

}  // namespace shoal::detail
