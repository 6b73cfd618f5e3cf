// SPDX-License-Identifier: Apache-2.0
// shoal/promise.hpp: the providing side of a shoal::future.
//
// What: `promise<T, E>` owns the right to fill one future state, once: success(args...) or
// failure(e). The first fill wins; later ones return false and change nothing. get_future()
// and get_cancelable_future() hand out futures of that state, any number of times.
// Copies of a promise share the state (so a callback that must fill it can be copied, into a
// std::function for example).
//
// Broken promise: when the last promise of an unfilled state goes away (destroyed, or assigned
// over), the future fails with the failure made from shoal::broken_promise: a future nobody can
// fill any more never leaves a waiter hanging.
//
// Lifetime: a moved-from promise is empty (valid() false); its fills and get_* throw
// shoal::bad_future_access. Cost: the construction allocates the state (frame allocator).
// Thread-safety: fill from any thread; concurrent fills race and exactly one wins.
// Memory ordering: what the filling thread did before the fill happens-before whatever
// observes the future complete (callbacks, wait, co_await, is_completed()).
// Example:
//   shoal::promise<int> p;
//   shoal::future<int> f = p.get_future().map([](int x) { return x + 1; });
//   std::thread([p] { p.success(41); }).detach();
//   int v = f.value();  // 42, from a thread that is no executor's
#pragma once

#include <exception>
#include <type_traits>
#include <utility>

#include "shoal/detail/future_state.hpp"
#include "shoal/future.hpp"
#include "shoal/future_failure.hpp"

namespace shoal {

template <class T, class E>
class promise {
  using state_type = detail::future_state<T, E>;

 public:
  promise() : state_(new state_type()) { state_->add_promise(); }
  promise(const promise& other) noexcept : state_(other.state_) {
    if (state_) state_->add_promise();
  }
  promise(promise&& other) noexcept = default;
  promise& operator=(const promise& other) noexcept {
    if (this != &other) promise(other).swap(*this);
    return *this;
  }
  promise& operator=(promise&& other) noexcept {
    promise(std::move(other)).swap(*this);
    return *this;
  }
  ~promise() { let_go(); }
  void swap(promise& other) noexcept { state_.swap(other.state_); }

  [[nodiscard]] bool valid() const noexcept { return static_cast<bool>(state_); }

  [[nodiscard]] future<T, E> get_future() const {
    return detail::future_access::adopt<future<T, E>>(shared());
  }
  [[nodiscard]] cancelable_future<T, E> get_cancelable_future() const {
    return detail::future_access::adopt<cancelable_future<T, E>>(shared());
  }

  // Fills the future with T(args...); false when it was already filled (by another fill or a
  // cancel). A constructor of T that throws fills it with that exception's failure instead.
  template <class... Args>
    requires std::constructible_from<T, Args&&...>
  bool success(Args&&... args) const {
    return state().succeed(std::forward<Args>(args)...);
  }
  // Fills the future with the failure E(args...); false when it was already filled.
  template <class... Args>
    requires std::constructible_from<E, Args&&...>
  bool failure(Args&&... args) const {
    return state().fail(std::forward<Args>(args)...);
  }
  // True once the future is filled or being filled (also by a cancel of a cancelable_future).
  [[nodiscard]] bool is_filled() const { return state().status() != detail::fill_status::pending; }

 private:
  [[nodiscard]] state_type& state() const {
    if (!state_) throw bad_future_access("shoal::promise: empty (moved-from)");
    return *state_;
  }
  [[nodiscard]] detail::state_ptr<state_type> shared() const {
    static_cast<void>(state());
    return state_;
  }
  void let_go() noexcept {
    if (state_ && state_->drop_promise() && state_->status() == detail::fill_status::pending) {
      state_->fail(failure_traits<E>::from_exception(std::make_exception_ptr(broken_promise())));
    }
    state_ = {};
  }

  detail::state_ptr<state_type> state_;
};

}  // namespace shoal
