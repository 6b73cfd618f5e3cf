// SPDX-License-Identifier: Apache-2.0
// shoal/detail/future_awaiter.hpp: `co_await future` (see shoal/future.hpp, "Awaiting a future").
//
// The awaiter is its own continuation node: registering it allocates nothing. When the future is
// filled, the node posts the coroutine to the executor it awaited on (its home, pinned, when the
// chain is bound); it never resumes it on the filling thread. When the awaiting chain's stop token
// can be stopped, a heap node and a stop callback race instead (stoppable_wake).
#pragma once

#include <atomic>
#include <concepts>
#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <type_traits>
#include <utility>

#include "shoal/detail/frame_class.hpp"
#include "shoal/detail/future_state.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/frame_allocator.hpp"
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

// The node of an await whose chain can be stopped: on the heap (frame allocator), shared by the
// awaiter and the future's continuation stack, because a stop resumes the coroutine while the
// node stays registered until the future fires it. The first of the fire and the stop request to
// claim it resumes the coroutine; a claim made while the awaiter is still registering only marks
// the outcome (the awaiter then does not suspend).
template <class T, class E>
class stoppable_wake final : public continuation<T, E> {
 public:
  static constexpr int registering = 0;
  static constexpr int armed = 1;
  static constexpr int fired = 2;
  static constexpr int stopped = 3;

  static void* operator new(std::size_t size) { return frame_allocate_sized(size); }
  static void operator delete(void* p, std::size_t size) noexcept {
    frame_deallocate_sized(p, size);
  }

  stoppable_wake(std::coroutine_handle<> h, wake_target target) noexcept
      : continuation<T, E>(&fire_wake), handle_(h), target_(target) {}

  // The awaiter, once registered everywhere: true when it must suspend (nothing claimed yet).
  bool arm() noexcept {
    int expected = registering;
    return state_.compare_exchange_strong(expected, armed, std::memory_order_acq_rel);
  }
  void finish(int outcome) noexcept {
    int seen = state_.load(std::memory_order_acquire);
    while (seen == registering || seen == armed) {
      // acq_rel: the winner's post publishes the outcome to await_resume's acquire load.
      if (state_.compare_exchange_weak(seen, outcome, std::memory_order_acq_rel)) {
        if (seen == armed) target_.post(handle_);
        return;
      }
    }
  }
  [[nodiscard]] int outcome() const noexcept { return state_.load(std::memory_order_acquire); }
  void let_go() noexcept {
    if (owners_.fetch_sub(1, std::memory_order_acq_rel) == 1) delete this;
  }

  struct on_stop {
    stoppable_wake* wake;
    void operator()() const noexcept { wake->finish(stopped); }
  };

 private:
  static void fire_wake(continuation<T, E>& c, future_state<T, E>& /*source*/) noexcept {
    auto& self = static_cast<stoppable_wake&>(c);
    self.finish(fired);
    self.let_go();
  }

  std::coroutine_handle<> handle_;
  wake_target target_;
  std::atomic<int> state_{registering};
  std::atomic<int> owners_{2};  // the awaiter and the future's stack
};

// Rvalue: the result is a T (moved out when nothing else can see the state, or when T cannot be
// copied); lvalue: a const T& into the state, valid while the awaited future lives.
// A chain that cannot be stopped awaits with the awaiter itself as the node (no allocation); one
// that can uses a stoppable_wake and a stop callback.
template <class T, class E, bool Rvalue>
class future_awaiter : private continuation<T, E> {
  using wake = stoppable_wake<T, E>;

 public:
  // Rvalue: owns a reference (the awaited future was moved in). Lvalue: borrows the state of
  // the awaited future, which outlives the co_await expression.
  using holder = std::conditional_t<Rvalue, state_ptr<future_state<T, E>>, future_state<T, E>*>;
  explicit future_awaiter(holder state) noexcept
      : continuation<T, E>(&fire_awaiter), state_(std::move(state)) {}
  future_awaiter(const future_awaiter&) = delete;
  future_awaiter& operator=(const future_awaiter&) = delete;
  future_awaiter(future_awaiter&&) = delete;
  future_awaiter& operator=(future_awaiter&&) = delete;
  ~future_awaiter() { drop_wake(); }  // destroyed while suspended: the frame is going away

  [[nodiscard]] bool await_ready() const noexcept { return state_->completed(); }

  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) {
    target_ = wake_target::of(h);
    if (target_.where == nullptr) {
      throw std::logic_error("shoal: a future co_awaited outside an executor");
    }
    const task_env* env = env_of(h);
    if (env == nullptr || !env->stop.stop_possible()) {
      handle_ = h;
      // Registered: fire_awaiter posts us (maybe on another thread before this returns).
      // Not registered: it completed meanwhile; go on without suspending.
      return state_->add(this);
    }
    if (env->stop.stop_requested()) {
      stopped_ = true;
      return false;
    }
    const std::stop_token& token = env->stop.token();  // may throw (a fork scope's, made now)
    wake_ = new wake(h, target_);
    stop_callback_.emplace(token, typename wake::on_stop{wake_});
    if (!state_->add(wake_)) {
      wake_->finish(wake::fired);  // complete already (unless the stop came first)
      wake_->let_go();             // the stack's reference: it never held the node
      return false;
    }
    return wake_->arm();  // false: fired or stopped while registering; resume at once
  }

  decltype(auto) await_resume() {
    if (wake_ != nullptr) {
      stop_callback_.reset();  // waits for a stop callback running on another thread
      stopped_ = wake_->outcome() == wake::stopped;
      drop_wake();
    }
    if (stopped_) throw future_canceled();
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
  void drop_wake() noexcept {
    if (wake_ == nullptr) return;
    stop_callback_.reset();
    std::exchange(wake_, nullptr)->let_go();
  }

  holder state_;
  std::coroutine_handle<> handle_;
  wake_target target_;
  wake* wake_ = nullptr;
  bool stopped_ = false;
  std::optional<std::stop_callback<typename wake::on_stop>> stop_callback_;
};

}  // namespace shoal::detail
