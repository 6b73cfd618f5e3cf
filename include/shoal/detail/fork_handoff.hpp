// SPDX-License-Identifier: Apache-2.0
// shoal/detail/fork_handoff.hpp: where control goes when a forked child ends (when_all,
// when_any, task_group): straight into its parent or into the next child of this worker's fork
// deque, by symmetric transfer, instead of through the scheduler.
//
// What: continue_parent(target, parent) is called by the child that ends its parent's wait (the
// last of a when_all, the first to end while a task_group waits). On a pool worker that may run
// the parent (its home when bound; any worker of the same pool when not: a work-stealing
// continuation) it returns the parent to transfer into; elsewhere it posts the parent there (or
// defers it on this thread, when this thread is the parent's executor) and returns nullptr.
// next_forked() is called by a child that ended without ending its parent's wait: the newest
// child in this worker's deque, else in its bound stack (the children of chains bound to it:
// detail/bound_fork_stack.hpp), to transfer into, or nullptr (back to the worker's loop).
// Both spend the worker's hand-off budget (fork_support::handoff_budget): past it the parent is
// pushed onto this worker's fork deque (its bound stack when bound) and no child is popped, so
// the loop gets its turn (timers, I/O, other queues) at least every so many hand-offs even under
// a chain that forks forever. A when_all/when_any child uses the forms that never return null
// (std::noop_coroutine() instead), so its final suspension returns them untested:
// resume_parent (continue_parent's common case inline) and next_forked_or_noop.
//
// Thread-safety: called on the thread that ran the child. Reading another executor's
// fork_support is safe: a worker sets it before it runs anything and never changes it.
#pragma once

#include <coroutine>

#include "shoal/detail/fork_deque.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

// Resumes a parent on `target`: next on this thread when this thread is its executor, else
// posted there (so it never resumes on a foreign thread). The path of executors without fork
// support (sync_wait's loop, the tests' manual scheduler).
inline void wake(wake_target target, std::coroutine_handle<> h) noexcept {
  if (target.where == executor::current()) {
    target.where->defer(h);
  } else {
    target.post(h);
  }
}

// True when the worker `here` (with fork support `fs`) may resume a coroutine whose wake target
// is `target`.
inline bool may_resume_here(const executor* here, const fork_support& fs,
                            wake_target target) noexcept {
  if (here == target.where) return true;
  if (target.pinned) return false;
  const fork_support* theirs = target.where->fork_support();
  return theirs != nullptr && theirs->pool == fs.pool;
}

inline std::coroutine_handle<> continue_parent(wake_target target,
                                               std::coroutine_handle<> parent) noexcept {
  executor* here = executor::current();
  fork_support* fs = current_fork_support;  // here's, or null
  if (fs == nullptr || !may_resume_here(here, *fs, target)) {
    wake(target, parent);
    return nullptr;
  }
  if (fs->may_hand_off()) return parent;
  // Over budget: next on this worker once its loop has had its turn, on top of its fork deque
  // (never behind other queued work, so the fork tree still unfolds depth first and finished
  // joins do not pile up); a bound parent, which no thief may take, on top of its bound stack.
  const bool pushed = target.pinned ? fs->bound.push(parent) : fs->deque.push(parent);
  if (!pushed) here->post(parent, target.pinned);
  return nullptr;
}

inline std::coroutine_handle<> next_forked() noexcept {
  fork_support* fs = current_fork_support;  // this worker's, or null
  if (fs == nullptr || !fs->may_hand_off()) return nullptr;
  return fs->deque.pop_or([fs]() noexcept { return fs->bound.pop(); });
}

// next_forked(), or std::noop_coroutine() (back to the loop) instead of nullptr: never null.
inline std::coroutine_handle<> next_forked_or_noop() noexcept {
  const std::coroutine_handle<> next = next_forked();
  return next ? next : std::noop_coroutine();
}

// What the child that ended its parent's wait goes on into, never null: continue_parent's
// parent, else next_forked_or_noop(). The way of everything but the common case (resume_parent).
[[gnu::noinline]] inline std::coroutine_handle<> continue_parent_or_next(
    wake_target target, std::coroutine_handle<> parent) noexcept {
  const std::coroutine_handle<> next = continue_parent(target, parent);
  return next ? next : next_forked_or_noop();
}

// continue_parent_or_next, with the common case inline: the parent's target is this worker, which
// has fork support and budget left, so the parent goes on here at once.
inline std::coroutine_handle<> resume_parent(wake_target target,
                                             std::coroutine_handle<> parent) noexcept {
  fork_support* fs = current_fork_support;
  if (fs != nullptr && target.where == executor::current() && fs->may_hand_off()) [[likely]] {
    return parent;
  }
  return continue_parent_or_next(target, parent);
}

// Makes `h` (a child just launched) ready on `where`. On that worker itself, when it has fork
// support and room: into its fork deque when unbound, into its bound stack when bound there
// (only that worker runs it, newest first, before its pinned queue); else posted to `where`.
// True when it went into the deque (the launcher then wakes an idle worker to steal:
// fork_support::notify); a bound child needs no thief.
inline bool push_forked(wake_target where, std::coroutine_handle<> h) noexcept {
  executor* here = executor::current();
  if (here == where.where) {
    fork_support* fs = here->fork_support();
    if (fs != nullptr) {
      if (!where.pinned) {
        if (fs->deque.push(h)) return true;
      } else if (fs->bound.push(h)) {
        return false;
      }
    }
  }
  where.post(h);
  return false;
}

// After children went into the deque of this worker (whose fork support is `fs`): lets an idle
// worker of the pool come and steal.
inline void notify_forked(const fork_support& fs) noexcept {
  // relaxed: a hint, as for any push onto a running worker's own queue (pool_state.hpp).
  if (fs.idle->load(std::memory_order_relaxed) != 0) fs.notify(fs.notify_arg);
}
inline void notify_forked() noexcept { notify_forked(*current_fork_support); }

}  // namespace shoal::detail
