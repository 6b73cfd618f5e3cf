// SPDX-License-Identifier: Apache-2.0
// shoal/task.hpp: the lazy coroutine type every shoal API returns and awaits.
//
// What: `task<T>` (also task<void> and task<T&>) is a coroutine that starts only when awaited,
// runs on the awaiting thread, and completes with a value or an exception. Control passes to it
// and back by symmetric transfer, so a loop of ten million synchronously completing awaits runs
// in constant stack on every compiler and flag set (see shoal/detail/transfer.hpp). Frames come
// from the thread-local recycling allocator (shoal/frame_allocator.hpp).
//
// Lifetime: move-only; the task object owns the frame and destroys it. Await it at most once.
// A task that is destroyed without being awaited never runs. One destroyed while suspended (a
// chain destroyed mid-flight) must await nothing that still holds it: an await still registered
// (an unstoppable co_await of a future, a sleep, a mutex waiter) keeps a node in the frame and
// would later resume it or write into it, after the frame allocator gave it to another
// coroutine. shoal cannot deregister such an await (nor tell it from one that holds nothing), so
// it refuses the case rather than half-handle it: end the chain first (request stop on its
// token and let it complete). Fibers: shoal/fiber.hpp.
// Thread-safety: one thread at a time; the awaiting coroutine's environment (its home worker,
// later its stop token) is handed down to the task when it is awaited.
#pragma once

#include <coroutine>
#include <utility>

#include "shoal/detail/task.hpp"

namespace shoal {

/// A lazy coroutine returning T (see the header): move-only, awaited at most once.
/// Example:
///   shoal::task<int> answer() { co_return 42; }
///   shoal::task<> caller() { int v = co_await answer(); }
template <class T = void>
class [[nodiscard]] task {
 public:
  using promise_type = detail::task_promise<T>;
  using value_type = T;

  task() noexcept = default;
  task(task&& other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
  task& operator=(task&& other) noexcept {
    if (this != &other) {
      destroy();
      h_ = std::exchange(other.h_, nullptr);
    }
    return *this;
  }
  task(const task&) = delete;
  task& operator=(const task&) = delete;
  ~task() { destroy(); }

  /// True when the task holds a coroutine (not default-constructed or moved from).
  [[nodiscard]] bool valid() const noexcept { return h_ != nullptr; }

  /// Starts the task on the awaiting thread and waits for it.
  ///   Result: `co_await std::move(t)` gives T (moved out); `co_await t` gives T& into the task.
  ///   Errors: an exception escaping the task's body is rethrown at the co_await.
  ///   Cancellation: none of its own; it runs whatever it awaits.
  ///   Resumes on: the thread the task completed on (it is the same chain of execution).
  ///   Thread-safety: await from one coroutine only, once.
  auto operator co_await() && noexcept { return detail::task_awaiter<T, true>(h_); }
  /// The same on an lvalue task: gives T& into the task (awaited once all the same).
  auto operator co_await() & noexcept { return detail::task_awaiter<T, false>(h_); }

  /// For launchers (sync_wait, spawn): releases the frame to the caller.
  [[nodiscard]] std::coroutine_handle<promise_type> release() noexcept {
    return std::exchange(h_, nullptr);
  }

 private:
  friend promise_type;
  friend detail::task_access;
  explicit task(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}
  void destroy() noexcept {
    if (h_) std::exchange(h_, nullptr).destroy();
  }

  std::coroutine_handle<promise_type> h_;
};

namespace detail {
template <class T>
task<T> task_promise<T>::get_return_object() noexcept {
  return task<T>(std::coroutine_handle<task_promise>::from_promise(*this));
}
template <class T>
task<T&> task_promise<T&>::get_return_object() noexcept {
  return task<T&>(std::coroutine_handle<task_promise>::from_promise(*this));
}
inline task<void> task_promise<void>::get_return_object() noexcept {
  return task<void>(std::coroutine_handle<task_promise>::from_promise(*this));
}
}  // namespace detail

}  // namespace shoal
