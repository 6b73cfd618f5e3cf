// SPDX-License-Identifier: Apache-2.0
// shoal/detail/sleep.hpp: the awaiter behind sleep_for / sleep_until / deadline.
//
// The awaiter embeds its timer node, so a sleep allocates nothing. It arms the node on the
// executor the coroutine is running on (the owner) and, when the chain's stop token can be
// stopped, registers a stop callback. Whichever of the two comes first, the timer firing (on
// the owner's thread) or the stop request (on any thread), wins the CAS on `state_` and posts
// the coroutine back to the owner; the loser does nothing. On resumption, on the owner's
// thread, the stop callback is deregistered (std::stop_callback's destructor waits for a
// callback that is running concurrently) and a timer that lost is disarmed, so nothing points
// into the frame once await_resume returns.
#pragma once

#include <atomic>
#include <coroutine>
#include <optional>
#include <stdexcept>
#include <stop_token>

#include "shoal/detail/task_env.hpp"
#include "shoal/detail/timer_node.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

// The awaiter is its own timer node (a private base, not a member with a back pointer): it lives
// in every sleeping coroutine's frame, so each byte counts a million times in a TPC-C client.
class sleep_awaiter : private timer_node {
 public:
  explicit sleep_awaiter(time_point at) noexcept { deadline = at; }
  // Movable until awaited (so it can be passed along, e.g. to with_timeout), never after.
  sleep_awaiter(sleep_awaiter&& other) noexcept : sleep_awaiter(other.deadline) {}
  sleep_awaiter(const sleep_awaiter&) = delete;
  sleep_awaiter& operator=(sleep_awaiter&&) = delete;
  sleep_awaiter& operator=(const sleep_awaiter&) = delete;
  ~sleep_awaiter() = default;

  bool await_ready() const noexcept { return false; }
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) {
    owner_ = executor::current();
    if (owner_ == nullptr) throw std::logic_error("shoal: sleep awaited outside any executor");
    const task_env* env = env_of(h);
    if (env != nullptr && env->stop.stop_requested()) {
      state_.store(stopped, std::memory_order_relaxed);
      return false;  // cancelled before it began: resume at once, no timer armed
    }
    // The token first (a fork scope's is made on first use and may throw std::bad_alloc), so
    // that nothing is registered yet when it throws.
    const std::stop_token* token =
        env != nullptr && env->stop.stop_possible() ? &env->stop.token() : nullptr;
    handle_ = h;
    pinned_ = env != nullptr && env->home != nullptr;
    fire = &on_fire;
    owner_->add_timer(*this);
    if (token != nullptr) stop_callback_.emplace(*token, on_stop{this});
    return true;
  }
  // True when the time was reached, false when the sleep was cancelled.
  bool await_resume() noexcept {
    stop_callback_.reset();
    const bool cancelled = state_.load(std::memory_order_acquire) == stopped;
    if (cancelled) owner_->cancel_timer(*this);  // no-op when it was never armed
    return !cancelled;
  }

 private:
  static constexpr int waiting = 0;
  static constexpr int fired = 1;
  static constexpr int stopped = 2;

  struct on_stop {
    sleep_awaiter* self;
    void operator()() const noexcept { self->finish(stopped); }
  };

  static void on_fire(timer_node& node) noexcept {
    static_cast<sleep_awaiter&>(node).finish(fired);
  }

  // The first of the timer and the stop request to get here resumes the coroutine. A stopped
  // sleep must resume on its owner, whose thread alone may erase the still-armed timer, so it
  // is posted pinned even when the chain is not bound (unpinned, a thief could run it).
  void finish(int outcome) noexcept {
    int expected = waiting;
    // acq_rel: the winner's post publishes the outcome to await_resume's acquire load.
    if (state_.compare_exchange_strong(expected, outcome, std::memory_order_acq_rel)) {
      owner_->post(handle_, pinned_ || outcome == stopped);
    }
  }

  executor* owner_ = nullptr;
  std::coroutine_handle<> handle_;
  std::atomic<int> state_{waiting};
  bool pinned_ = false;
  std::optional<std::stop_callback<on_stop>> stop_callback_;
};

}  // namespace shoal::detail
