// SPDX-License-Identifier: Apache-2.0
// shoal/detail/thread_pool.hpp: the awaiters behind shoal/thread_pool.hpp.
#pragma once

#include <coroutine>
#include <cstddef>

#include "shoal/detail/join_point.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/executor.hpp"

namespace shoal {
class thread_pool;
}  // namespace shoal

namespace shoal::detail {

class pool_state;
class root_task;

#if defined(SHOAL_SHUFFLE_READY_QUEUE) && SHOAL_SHUFFLE_READY_QUEUE
inline constexpr bool shuffle_by_default = true;
#else
inline constexpr bool shuffle_by_default = false;
#endif

void pool_post(thread_pool& pool, std::coroutine_handle<> h) noexcept;

// The pool whose worker is the running executor, or nullptr. Not thread_pool::current() (the
// pool whose worker runs this thread): inside a sync_wait nested on a worker, the executor is
// that sync_wait's loop, and a wake-up that asks "may I run this pool's coroutine here" must
// hear no (issue 27).
thread_pool* executor_pool() noexcept;

// A call handed to a pool's blocking subpool (shoal/run_blocking.hpp), living in the awaiting
// coroutine's frame. `run` calls the function and stores its outcome (never throws); then the
// subpool posts `h` to `resume_on`, pinned, and touches the job no more.
struct blocking_job {
  void (*run)(blocking_job& self) noexcept = nullptr;
  blocking_job* next = nullptr;  // the subpool's queue
  executor* resume_on = nullptr;
  std::coroutine_handle<> h;
};

// Queues `job` on `pool`'s blocking subpool, starting a thread when none waits. Throws
// std::system_error when no thread runs and none can be started (nothing is queued then).
void pool_run_blocking(thread_pool& pool, blocking_job& job);

class pool_schedule_awaiter {
 public:
  explicit pool_schedule_awaiter(thread_pool& pool) noexcept : pool_(&pool) {}
  bool await_ready() const noexcept { return false; }
  // std::bad_alloc (before suspending) when a when_all child unbinds: its private env.
  template <class Promise>
  void await_suspend(std::coroutine_handle<Promise> h) {
    rebind_chain(h, nullptr);
    pool_post(*pool_, h);
  }
  void await_resume() const noexcept {}

 private:
  thread_pool* pool_;
};

class pool_schedule_on_awaiter {
 public:
  explicit pool_schedule_on_awaiter(executor& worker) noexcept : worker_(&worker) {}
  bool await_ready() const noexcept { return false; }
  // std::bad_alloc (before suspending) when a when_all child rebinds: its private env.
  template <class Promise>
  void await_suspend(std::coroutine_handle<Promise> h) {
    rebind_chain(h, worker_);
    worker_->post(h, true);
  }
  void await_resume() const noexcept {}

 private:
  executor* worker_;
};

class pool_stop_awaiter {
 public:
  explicit pool_stop_awaiter(thread_pool& pool) noexcept : pool_(&pool) {}
  bool await_ready();
  void await_suspend(std::coroutine_handle<> h);
  void await_resume();

 private:
  thread_pool* pool_;
  std::size_t refused_ = 0;  // set by a refused stop: the spawned chains still suspended
};

}  // namespace shoal::detail
