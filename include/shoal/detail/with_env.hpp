// SPDX-License-Identifier: Apache-2.0
// shoal/detail/with_env.hpp: running one await under a substituted environment.
//
// with_stop_token and with_deadline are tasks whose frames hold a copy of the awaiting chain's
// env with another stop token; they point their own promise at it, so whatever they await
// inherits it. `promise_access` hands a task its own promise without suspending.
#pragma once

#include <coroutine>
#include <type_traits>

#include "shoal/detail/awaitable_traits.hpp"
#include "shoal/detail/task_env.hpp"

namespace shoal::detail {

struct promise_access {
  promise_base* promise = nullptr;
  bool await_ready() const noexcept { return false; }
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) noexcept {
    promise = &h.promise();
    return false;  // never suspends
  }
  promise_base& await_resume() const noexcept { return *promise; }
};

// Points the running task at `env` (which must live in its frame) for the rest of its body.
inline void adopt_env(promise_base& self, task_env& env) noexcept {
  self.env = &env;
  current_env = &env;
}

// A copy of the env of whoever awaits `self` (defaults when it has none).
inline task_env inherited_env(const promise_base& self) {
  return self.env != nullptr ? *self.env : task_env{};
}

// What a task wrapping `co_await A` returns: the await's result, with T&& decayed to T.
template <class A>
using wrapped_result_t =
    std::conditional_t<std::is_rvalue_reference_v<await_result_t<A>>,
                       std::remove_cvref_t<await_result_t<A>>, await_result_t<A>>;

}  // namespace shoal::detail
