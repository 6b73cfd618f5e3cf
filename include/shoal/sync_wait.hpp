// SPDX-License-Identifier: Apache-2.0
// shoal/sync_wait.hpp: run a task to completion from ordinary code (main, a test).
//
// What: `sync_wait(t)` starts `t` on a loop that runs on the calling thread and blocks until `t`
// completes, then returns its value or rethrows its exception. The loop is an executor of its
// own: sleeps and timers work under it with no thread pool, and work that moves to a pool and
// completes there wakes the calling thread.
//
// Result: T. Errors: whatever `t` throws. Cancellation: none of its own.
// Resumes on: not an awaitable; it returns on the calling thread.
// Thread-safety: any thread; each call has its own loop. Calling it from inside a pool worker
// blocks that worker until `t` completes (legal, but it takes a worker away from the pool: its
// bound chains wait for it; the work it kept only for locality, executor::post_sticky, is first
// given to the other workers).
// Example:
//   int main() { return shoal::sync_wait(app_main()); }
//   shoal::sync_wait(pool.stop());
#pragma once

#include <coroutine>
#include <type_traits>
#include <utility>

#include "shoal/detail/awaitable_traits.hpp"
#include "shoal/detail/root_task.hpp"
#include "shoal/detail/run_loop.hpp"
#include "shoal/executor.hpp"
#include "shoal/task.hpp"

namespace shoal {

/// Runs `t` to completion on a loop on this thread; returns its value or rethrows.
/// Nested on a pool worker, the caller may rely on: every work item the worker made ready and
/// another worker may take (spawned or unbound work in its ring or fork deque, its sticky work:
/// actor hand-overs) is given to the other workers before the thread blocks, with a wake-up
/// that cannot be missed; unbound chains of that worker woken from inside `t` run on another
/// worker. It may not rely on: the worker's bound chains (schedule_on, spawn_on), continuations
/// deferred to it and other pinned posts to it running before `t` completes; nor on any of it
/// with a one-worker pool. `t` must not wait for those (docs/design/scheduler.md, "Wake-ups").
template <class T>
T sync_wait(task<T> t) {
  detail::task_result<T> result;
  detail::run_loop loop;
  auto finished = [](void* loop_ptr, std::coroutine_handle<>) noexcept {
    static_cast<detail::run_loop*>(loop_ptr)->finish();
  };
  std::coroutine_handle<> root =
      detail::run_root(std::move(t), &result).start_with(finished, &loop);
  loop.post(root, true);
  if (executor* blocked = executor::current()) blocked->before_blocking();
  loop.run();
  root.destroy();
  return result.take();
}

namespace detail {
template <class Awaitable>
task<await_result_t<Awaitable>> await_in_task(Awaitable awaitable) {
  co_return co_await std::move(awaitable);
}
}  // namespace detail

// Any other awaitable (pool.stop(), a sleep): awaited inside a task on the calling thread.
template <class Awaitable>
  requires(!detail::is_task_v<std::remove_cvref_t<Awaitable>>)
auto sync_wait(Awaitable&& awaitable) {
  return sync_wait(detail::await_in_task(std::forward<Awaitable>(awaitable)));
}

}  // namespace shoal
