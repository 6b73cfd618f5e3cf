// SPDX-License-Identifier: Apache-2.0
// shoal/detail/root_task.hpp: the coroutine at the bottom of every chain.
//
// What: sync_wait, thread_pool::spawn and the test scheduler start a chain by wrapping its first
// task in a root_task. The root owns the chain's task_env, awaits the task, and at its final
// suspension calls a completion hook (wake the waiting thread, or free the detached frame).
//
// Errors: `run_root` stores the task's exception in the caller's task_result; a root started
// with a null result slot (detached work) terminates on an escaping exception, like std::thread.
// Lifetime: the hook decides; it receives the suspended root and may destroy it.
#pragma once

#include <coroutine>
#include <exception>
#include <stop_token>
#include <type_traits>
#include <utility>

#include "shoal/detail/task.hpp"  // also declares shoal::task
#include "shoal/detail/task_env.hpp"

namespace shoal::detail {

class root_task {
 public:
  using done_hook = void (*)(void* context, std::coroutine_handle<> root) noexcept;

  struct promise_type : promise_base, frame_allocated<promise_type> {
    promise_type() noexcept { env = &own_env; }
    // The root of `run_detached_under`: the chain runs under `token`, the parameter's copy in
    // this frame (a promise constructor sees the parameter copies), so it costs 8 bytes in the
    // roots that have one and nothing in the others.
    template <class T>
    promise_type(task<T>& /*work*/, const std::stop_token& token) noexcept : promise_type() {
      own_env.stop = stop_ref(token);
    }
    root_task get_return_object() noexcept {
      return root_task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() const noexcept { return {}; }
    auto final_suspend() const noexcept {
      struct notify {
        bool await_ready() const noexcept { return false; }
        void await_suspend(std::coroutine_handle<promise_type> self) const noexcept {
          promise_type& p = self.promise();
          if (p.on_done != nullptr) p.on_done(p.context, self);
        }
        void await_resume() const noexcept {}
      };
      return notify{};
    }
    void return_void() const noexcept {}
    [[noreturn]] void unhandled_exception() const noexcept { std::terminate(); }

    task_env own_env;
    done_hook on_done = nullptr;
    void* context = nullptr;
  };

  explicit root_task(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}
  root_task(root_task&& other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
  root_task& operator=(root_task&&) = delete;
  ~root_task() {
    if (h_) h_.destroy();
  }

  // Sets the completion hook and environment, and gives up ownership of the frame.
  std::coroutine_handle<promise_type> start_with(done_hook on_done, void* context,
                                                 executor* home = nullptr) noexcept {
    h_.promise().on_done = on_done;
    h_.promise().context = context;
    h_.promise().own_env.home = home;
    return std::exchange(h_, nullptr);
  }

 private:
  std::coroutine_handle<promise_type> h_;
};

// Completion hook of detached work: the root frees itself.
inline void destroy_root(void* /*context*/, std::coroutine_handle<> root) noexcept {
  root.destroy();
}

// The root's body: awaits `t` and stores its outcome in `*out` (or lets an exception terminate
// when `out` is null, for detached work).
template <class T>
root_task run_root(task<T> t, task_result<T>* out) {
  if (out == nullptr) {
    co_await std::move(t);
    co_return;
  }
  try {
    if constexpr (std::is_void_v<T>) {
      co_await std::move(t);
    } else {
      out->set_value(co_await std::move(t));
    }
  } catch (...) {
    out->set_exception(std::current_exception());
  }
}

// The root of detached work that runs under its own stop token (thread_pool::spawn with a
// token): `token` stays in this frame for the chain's life, and every task of the chain inherits
// it, as under with_stop_token, without a with_stop_token frame of its own.
// (A template only because task<void> is incomplete here.)
template <class T>
  requires std::is_void_v<T>
root_task run_detached_under(task<T> work, std::stop_token token) {
  static_cast<void>(token);  // referred to by the promise's env
  co_await std::move(work);
}

}  // namespace shoal::detail
