// SPDX-License-Identifier: Apache-2.0
// shoal/detail/detached_task.hpp: the promise behind shoal/detached_task.hpp.
//
// What: a detached_task's frame is its chain's root: the promise holds the chain's task_env (home,
// stop, coroutine-locals), the stop token the env refers to, and the pool that counts it. The
// body's awaits go through the env like a task's; at its final suspension the frame hands itself
// to `end_detached`, which destroys it and uncounts it from its pool (thread_pool.cpp).
// Lifetime: owned by the detached_task until thread_pool::spawn_on takes it; then by itself.
// Thread-safety: one thread at a time, like a task.
#pragma once

#include <coroutine>
#include <exception>
#include <stop_token>
#include <utility>

#include "shoal/detail/env_awaiter.hpp"
#include "shoal/detail/task.hpp"
#include "shoal/detail/task_env.hpp"

namespace shoal {
class detached_task;
}  // namespace shoal

namespace shoal::detail {

class pool_state;

// The spawned frame ended: destroys it and uncounts it from `pool` (thread_pool.cpp).
void end_detached(pool_state& pool, std::coroutine_handle<> frame) noexcept;

class detached_promise final : public promise_base, public frame_allocated<detached_promise> {
 public:
  detached_promise() noexcept { env = &own_env_; }

  detached_task get_return_object() noexcept;
  initial_suspend_env initial_suspend() noexcept { return {this}; }
  template <class Awaitable>
  auto await_transform(Awaitable&& awaitable) {
    return wrap_in_env(std::forward<Awaitable>(awaitable), *this);
  }
  auto final_suspend() const noexcept {
    struct end {
      bool await_ready() const noexcept { return false; }
      void await_suspend(std::coroutine_handle<detached_promise> self) const noexcept {
        end_detached(*self.promise().pool_, self);
      }
      void await_resume() const noexcept {}
    };
    return end{};
  }
  void return_void() const noexcept {}
  [[noreturn]] void unhandled_exception() const noexcept { std::terminate(); }

  // Called once, by thread_pool::spawn_on, before the frame first runs.
  void start(pool_state& pool, executor& home, std::stop_token token) noexcept {
    pool_ = &pool;
    token_ = std::move(token);
    own_env_.home = &home;
    own_env_.stop = stop_ref(token_);
  }

 private:
  task_env own_env_;
  std::stop_token token_;  // own_env_.stop refers to it
  pool_state* pool_ = nullptr;
};

}  // namespace shoal::detail
