// SPDX-License-Identifier: Apache-2.0
// shoal/yield.hpp: give the executor a chance to run other ready work.
//
// Awaiting yield():
//   Result: void. Errors: std::logic_error when awaited with no executor on this thread.
//   Cancellation: none.
//   Resumes on: the same executor (the chain's home worker when bound), after the work that was
//               ready before it; on a pool, unbound chains may resume on another worker.
//   Thread-safety: each awaiter is used by its own coroutine only.
//   Example: for (auto& row : rows) { process(row); co_await shoal::yield(); }
#pragma once

#include <coroutine>
#include <stdexcept>

#include "shoal/detail/task_env.hpp"
#include "shoal/executor.hpp"

namespace shoal {

namespace detail {
struct yield_awaiter {
  bool await_ready() const noexcept { return false; }
  template <class Promise>
  void await_suspend(std::coroutine_handle<Promise> h) const {
    const wake_target target = wake_target::of(h);
    if (target.where == nullptr)
      throw std::logic_error("shoal: yield awaited outside any executor");
    target.post(h);
  }
  void await_resume() const noexcept {}
};
}  // namespace detail

// What yield() returns: an awaitable (see above).
using yield_awaiter = detail::yield_awaiter;

[[nodiscard]] inline yield_awaiter yield() noexcept { return {}; }

}  // namespace shoal
