// SPDX-License-Identifier: Apache-2.0
// shoal/executor.hpp: what runs coroutines. Implemented by each worker of a thread_pool, by the
// loop inside sync_wait, and by the manual scheduler of the tests.
//
// What: an executor owns a thread (or is driven by one), a ready queue and a timer structure.
// `executor::current()` names the executor whose thread is running the calling code, or null.
// Awaitables use it to know where to resume and whose timers to use.
//
// Post vs defer: `post` is new work; it waits behind what is already ready and, unless pinned,
// may be taken by another worker of the same pool. `defer` is the continuation of what is running
// now (a waiter woken by the running coroutine); on the executor's own thread it runs next, ahead
// of posted work, and is never stolen.
//
// Idle hooks: `add_idle_hook(hook)` asks the executor to call `hook` on its thread each time it
// runs out of ready work, before it waits (shoal/detail/idle_hooks.hpp); the hook stays until
// hook.unlink(). Every shoal executor (pool workers, sync_wait's loop, the test scheduler) has
// this idle point; one that does not returns false and never calls the hook.
//
// Fork/join: a pool worker lends when_all, when_any and task_group its work-stealing deque
// (fork_support()); other executors have none and their children are posted.
//
// Thread-safety: post and defer may be called from any thread; a post happens-before the posted
// coroutine resumes. now() from any thread. add_timer, cancel_timer and add_idle_hook only on the
// executor's own thread. io_reactor() from the executor's own thread.
#pragma once

#include <coroutine>

#include "shoal/clock.hpp"
#include "shoal/detail/idle_hooks.hpp"
#include "shoal/detail/timer_node.hpp"

namespace shoal {

class executor;

namespace detail {
class reactor;
struct fork_support;
}  // namespace detail

namespace detail {
inline thread_local executor* current_executor = nullptr;
// current_executor's fork_support(), or null: what every fork/join hand-off reads, in one
// thread-local load rather than two dependent loads. Set with it (executor_scope).
inline thread_local fork_support* current_fork_support = nullptr;
}  // namespace detail

class executor {
 public:
  executor() = default;
  executor(const executor&) = delete;
  executor& operator=(const executor&) = delete;
  virtual ~executor() = default;

  // New work. `pinned`: must run on this executor itself, never migrated to another worker.
  virtual void post(std::coroutine_handle<> h, bool pinned) noexcept = 0;
  // A continuation of the running work; see the header comment.
  virtual void defer(std::coroutine_handle<> h) noexcept = 0;
  // Work best run here but not bound here (what an actor's hand-over makes ready: a contended
  // context and its callers stay on one worker): posted as pinned, except that this executor
  // gives it up to others when it is about to block (before_blocking). Called on this
  // executor's own thread. By default a pinned post.
  virtual void post_sticky(std::coroutine_handle<> h) noexcept { post(h, true); }
  // Called on this executor's thread just before it blocks in sync_wait: a pool worker moves its
  // sticky work to the pool's global queue, where another worker runs it (so nothing that the
  // blocked thread's caller waits for can wait for that thread), and wakes an idle worker, with
  // a wake-up that cannot be missed, for whatever it holds that others may take. By default
  // nothing.
  virtual void before_blocking() noexcept {}

  [[nodiscard]] virtual time_point now() const noexcept = 0;
  // Arms `node`; it fires on this executor's thread once node.deadline has passed.
  virtual void add_timer(detail::timer_node& node) = 0;
  // Disarms `node`; false when it already fired or was never armed.
  virtual bool cancel_timer(detail::timer_node& node) noexcept = 0;

  // The epoll reactor this executor polls, or nullptr when it cannot wait for I/O.
  virtual detail::reactor* io_reactor() noexcept { return nullptr; }

  // Registers `hook` to run whenever this executor goes idle (see above); false when this
  // executor has no idle point (the hook is then not registered).
  virtual bool add_idle_hook(detail::idle_hook& /*hook*/) noexcept { return false; }

  // The executor running on this thread, or nullptr.
  [[nodiscard]] static executor* current() noexcept { return detail::current_executor; }

  // A pool worker's fork/join support (detail/fork_deque.hpp: the deque its forked children go
  // to), or nullptr for an executor without one (they are then posted). Its own thread only.
  [[nodiscard]] detail::fork_support* fork_support() const noexcept { return fork_support_; }

 protected:
  void set_fork_support(detail::fork_support* support) noexcept { fork_support_ = support; }

 private:
  detail::fork_support* fork_support_ = nullptr;
};

namespace detail {

// Makes `ex` the current executor of this thread for the scope's lifetime (nests).
class executor_scope {
 public:
  explicit executor_scope(executor* ex) noexcept
      : saved_(current_executor), saved_forks_(current_fork_support) {
    current_executor = ex;
    current_fork_support = ex != nullptr ? ex->fork_support() : nullptr;
  }
  executor_scope(const executor_scope&) = delete;
  executor_scope& operator=(const executor_scope&) = delete;
  ~executor_scope() {
    current_executor = saved_;
    current_fork_support = saved_forks_;
  }

 private:
  executor* saved_;
  fork_support* saved_forks_;
};

}  // namespace detail
}  // namespace shoal
