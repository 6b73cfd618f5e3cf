// SPDX-License-Identifier: Apache-2.0
// shoal/detail/env_awaiter.hpp: how a shoal task keeps `current_env` true across its awaits.
//
// Every `co_await x` inside a shoal task goes through task_promise::await_transform, which wraps
// x's awaiter in env_awaiter: the same ready/suspend/resume, plus, on resumption, `current_env`
// set back to the task's env (the coroutine may resume on a thread where another chain ran).
// The wrapper keeps the awaiter by value when x produced a new one (operator co_await), by
// reference when x is its own awaiter (x then lives until the end of the co_await expression).
#pragma once

#include <coroutine>
#include <type_traits>
#include <utility>

#include "shoal/detail/awaitable_traits.hpp"
#include "shoal/detail/task_env.hpp"

namespace shoal::detail {

template <class Awaiter>
class env_awaiter {
 public:
  // `make` returns the awaiter; a prvalue is constructed in place (awaiters need not move).
  template <class Make>
  env_awaiter(Make&& make, promise_base& owner) : inner_(make()), owner_(&owner) {}

  bool await_ready() { return inner_.await_ready(); }
  // Always inlined: clang calls an await_suspend through a wrapper of its own after splitting the
  // coroutine, and left this thin forwarder out of line, so the inner await_suspend (a fork's
  // launch, when it is itself always inlined) could not reach the resume function: a call, its
  // register saves and its return on every such await (issue 36: about 9.5 instructions per fib
  // task). Safe to inline: a task's resume function runs on a worker's stack, never on a fiber's
  // (docs/design/fibers.md), so no thread switch happens inside it.
  template <class Promise>
  [[gnu::always_inline]] decltype(auto) await_suspend(std::coroutine_handle<Promise> h) {
    return inner_.await_suspend(h);
  }
  decltype(auto) await_resume() {
    current_env = owner_->env;
    return inner_.await_resume();
  }

 private:
  Awaiter inner_;  // a reference type when the awaitable is its own awaiter
  promise_base* owner_;
};

template <class Awaitable>
auto wrap_in_env(Awaitable&& awaitable, promise_base& owner) {
  using awaiter = decltype(get_awaiter(std::forward<Awaitable>(awaitable)));
  auto make = [&]() -> awaiter { return get_awaiter(std::forward<Awaitable>(awaitable)); };
  return env_awaiter<awaiter>(make, owner);
}

}  // namespace shoal::detail
