// SPDX-License-Identifier: Apache-2.0
// shoal/foreign_completion.hpp: await something that completes on a thread shoal does not own.
//
// What: a callback API, another library's future, a blocking call handed to a dedicated thread:
// they finish on their own thread. `co_await shoal::foreign_completion<T>(start)` calls
// `start(completer)` and suspends; whoever holds the completer calls `completer.set_value(v)` or
// `completer.set_exception(e)` once, from any thread, possibly before `start` even returns. The
// coroutine then resumes on its own executor (pinned there when its chain is bound), never on
// the foreign thread, with the value or the exception.
//
// Lifetime: the completer points into the awaiting frame, which cannot go away before it is
// completed: a completer that is dropped without being completed leaves the coroutine
// suspended forever, so always complete it (with an exception on failure).
// Cost: no allocation; the completer is one pointer.
#pragma once

#include <atomic>
#include <coroutine>
#include <exception>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "shoal/detail/task.hpp"
#include "shoal/detail/task_env.hpp"

namespace shoal {

template <class T, class Start>
class foreign_completion_awaiter;

/// The handle a foreign thread completes the await with; copyable, one pointer.
template <class T>
class completer {
 public:
  /// Completes the await with `value`. Once, from any thread.
  template <class U = T>
    requires(!std::is_void_v<T> && std::is_convertible_v<U &&, T>)
  void set_value(U&& value) const {
    state_->result.set_value(std::forward<U>(value));
    state_->complete();
  }
  /// Completes a foreign_completion<void>. Once, from any thread.
  void set_value() const
    requires std::is_void_v<T>
  {
    state_->complete();
  }
  /// Completes the await with the exception `e`, rethrown there. Once, from any thread.
  void set_exception(std::exception_ptr e) const noexcept {
    state_->result.set_exception(std::move(e));
    state_->complete();
  }

  /// Internal: what the awaiter shares with the completing thread.
  struct shared {
    detail::task_result<T> result;
    detail::wake_target target;
    std::coroutine_handle<> handle;
    // 0: neither side done; 1: one of them is; the second to arrive resumes the coroutine.
    std::atomic<int> arrivals{0};

    void complete() noexcept {
      // acq_rel: the last to arrive sees the result and the target the other one stored.
      if (arrivals.fetch_add(1, std::memory_order_acq_rel) == 1) target.post(handle);
    }
  };
  explicit completer(shared& state) noexcept : state_(&state) {}

 private:
  shared* state_;
};

template <class T, class Start>
class [[nodiscard]] foreign_completion_awaiter {
 public:
  explicit foreign_completion_awaiter(Start start) : start_(std::move(start)) {}

  bool await_ready() const noexcept { return false; }
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) {
    state_.handle = h;
    state_.target = detail::wake_target::of(h);
    if (state_.target.where == nullptr) {
      throw std::logic_error("shoal: foreign_completion awaited outside an executor");
    }
    start_(completer<T>(state_));
    // The second arrival resumes: if the completer already arrived, go on without suspending.
    return state_.arrivals.fetch_add(1, std::memory_order_acq_rel) == 0;
  }
  T await_resume() { return state_.result.take(); }

 private:
  Start start_;
  typename completer<T>::shared state_;
};

/// Calls `start(completer)` and waits until the completer is completed, from any thread.
///   Result: T (the value passed to set_value).
///   Errors: what start throws (then nothing is awaited: start must not throw once it has
///           handed the completer on), or the exception passed to set_exception.
///   Cancellation: none: the foreign operation cannot be withdrawn, so the await always waits
///                 for its completion (cancel the operation through its own API; a stop token
///                 you pass to it is the usual way).
///   Resumes on: the executor it was awaited on; never the completing thread.
///   Thread-safety: set_value / set_exception from any thread, exactly once.
///   Example:
///     int rows = co_await shoal::foreign_completion<int>([&](auto done) {
///       db_thread.submit([&, done]() mutable { done.set_value(run_query()); });
///     });
template <class T, class Start>
[[nodiscard]] foreign_completion_awaiter<T, std::decay_t<Start>> foreign_completion(Start&& start) {
  return foreign_completion_awaiter<T, std::decay_t<Start>>(std::forward<Start>(start));
}

}  // namespace shoal
