// shoal/detail/future_awaiter.hpp: `co_await future` (see shoal/future.hpp, "Awaiting a future").
//
// The awaiter is its own continuation node: registering it allocates nothing. When the future is
// filled, the node posts the coroutine to the executor it awaited on (its home, pinned, when the
// chain is bound); it never resumes it on the filling thread.
#pragma once

#include <concepts>
#include <coroutine>
#include <exception>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "shoal/detail/future_state.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/future_failure.hpp"

namespace shoal::detail {

// Throws what reading a failed future's value throws (see shoal/future_failure.hpp).
template <class E>
[[noreturn]] void throw_failure(const E& failure) {
  if constexpr (std::is_same_v<E, std::exception_ptr>) {
    if (failure) std::rethrow_exception(failure);
    throw bad_future_access("shoal::future: failed with a null std::exception_ptr");
  } else {
    throw future_failure<E>(failure);
  }
}

// Rvalue: the result is a T (moved out when nothing else can see the state, or when T cannot be
// copied); lvalue: a const T& into the state, valid while the awaited future lives.
template <class T, class E, bool Rvalue>
class future_awaiter : private continuation<T, E> {
 public:
  explicit future_awaiter(state_ptr<future_state<T, E>> state) noexcept
      : continuation<T, E>(&fire_awaiter), state_(std::move(state)) {}

  [[nodiscard]] bool await_ready() const noexcept { return state_->completed(); }

  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) {
    handle_ = h;
    target_ = wake_target::of(h);
    if (target_.where == nullptr) {
      throw std::logic_error("shoal: a future co_awaited outside an executor");
    }
    // Registered: fire_awaiter posts us (maybe on another thread before this returns).
    // Not registered: it completed meanwhile; go on without suspending.
    return state_->add(this);
  }

  decltype(auto) await_resume() {
    future_state<T, E>& s = *state_;
    if (s.failed()) throw_failure(s.failure());
    if constexpr (Rvalue) {
      if constexpr (!std::is_copy_constructible_v<T>) {
        return T(std::move(s.value()));
      } else {
        if (s.unique()) return T(std::move(s.value()));
        return T(s.value());
      }
    } else {
      return static_cast<const T&>(s.value());
    }
  }

 private:
  static void fire_awaiter(continuation<T, E>& c, future_state<T, E>& /*source*/) noexcept {
    auto& self = static_cast<future_awaiter&>(c);
    const wake_target target = self.target_;  // the awaiter may be gone once posted
    target.post(self.handle_);
  }

  state_ptr<future_state<T, E>> state_;
  std::coroutine_handle<> handle_;
  wake_target target_;
};

}  // namespace shoal::detail
