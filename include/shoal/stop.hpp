// SPDX-License-Identifier: Apache-2.0
// shoal/stop.hpp: cancellation with std::stop_token, propagated implicitly.
//
// What: every chain of shoal tasks carries a std::stop_token in its environment. A task awaited
// from a coroutine inherits that coroutine's token without being passed one, so a stop request
// reaches whatever the chain is waiting on: a sleep wakes at once and returns false; later,
// I/O waits, events and queues wake the same way. `current_stop_token()` gives the token to
// plain functions called from the coroutine. `with_stop_token(token, x)` awaits x under another
// token: to make it stoppable from outside, or, with an empty token, to shield it from its
// caller's cancellation.
//
// Thread-safety: stop may be requested from any thread; what wakes resumes on its own executor.
#pragma once

#include <stop_token>
#include <utility>

#include "shoal/detail/task_env.hpp"
#include "shoal/detail/with_env.hpp"
#include "shoal/task.hpp"

namespace shoal {

// The stop token of the shoal coroutine running on this thread; an empty token outside one.
[[nodiscard]] inline std::stop_token current_stop_token() noexcept {
  const detail::task_env* env = detail::current_env;
  return env != nullptr ? env->stop.token() : std::stop_token{};
}

// True when the running coroutine's chain has been asked to stop.
[[nodiscard]] inline bool stop_requested() noexcept {
  const detail::task_env* env = detail::current_env;
  return env != nullptr && env->stop.stop_requested();
}

namespace detail {
template <class Awaitable>
task<wrapped_result_t<Awaitable>> with_stop_token_task(std::stop_token token, Awaitable awaitable) {
  promise_base& self = co_await promise_access{};
  task_env env = inherited_env(self);
  env.stop = detail::stop_ref(token);  // the parameter lives in this frame
  adopt_env(self, env);
  co_return co_await std::forward<Awaitable>(awaitable);
}
}  // namespace detail

// Awaitable. Result: what `co_await awaitable` gives. Errors: what it throws.
// Cancellation: `token` replaces the caller's stop token for this await (an empty
// std::stop_token shields it); a stop request to the caller does not reach it.
// Resumes on: wherever `awaitable` completes. Thread-safety: as the awaitable's.
// Example: co_await shoal::with_stop_token(source.get_token(), terminal());
// An lvalue awaitable is awaited by reference, an rvalue is moved into the operation.
template <class Awaitable>
[[nodiscard]] auto with_stop_token(std::stop_token token, Awaitable&& awaitable) {
  return detail::with_stop_token_task<Awaitable>(std::move(token),
                                                 std::forward<Awaitable>(awaitable));
}

}  // namespace shoal
