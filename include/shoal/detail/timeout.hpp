// SPDX-License-Identifier: Apache-2.0
// shoal/detail/timeout.hpp: the task behind with_deadline / with_timeout.
#pragma once

#include <exception>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <type_traits>
#include <utility>

#include "shoal/detail/task.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/detail/with_env.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

// Requests stop on a source; used as a stop_callback (caller's token -> this operation's) and
// as a timer (expiry -> this operation's token).
struct stop_forwarder {
  std::stop_source* source;
  void operator()() const noexcept { source->request_stop(); }
};

struct stop_timer : timer_node {
  std::stop_source* source = nullptr;
  static void on_fire(timer_node& node) noexcept {
    static_cast<stop_timer&>(node).source->request_stop();
  }
};

// Moves the awaiting coroutine back onto `target` (pinned) unless it is already there.
struct return_to {
  executor* target;
  bool await_ready() const noexcept { return executor::current() == target; }
  void await_suspend(std::coroutine_handle<> h) const noexcept { target->post(h, true); }
  void await_resume() const noexcept {}
};

template <class Awaitable>
task<wrapped_result_t<Awaitable>> with_deadline_task(time_point at, Awaitable awaitable) {
  using result = wrapped_result_t<Awaitable>;
  executor* const owner = executor::current();
  if (owner == nullptr) throw std::logic_error("shoal: with_deadline awaited outside an executor");
  promise_base& self = co_await promise_access{};
  task_env env = inherited_env(self);
  std::stop_source source;
  std::optional<std::stop_callback<stop_forwarder>> caller_link;
  if (env.stop.stop_possible()) caller_link.emplace(env.stop.token(), stop_forwarder{&source});
  const std::stop_token token = source.get_token();  // the env refers to it: lives in this frame
  env.stop = stop_ref(token);
  adopt_env(self, env);

  stop_timer timer;
  timer.deadline = at;
  timer.fire = &stop_timer::on_fire;
  timer.source = &source;
  owner->add_timer(timer);

  task_result<result> outcome;
  try {
    if constexpr (std::is_void_v<result>) {
      co_await std::forward<Awaitable>(awaitable);
    } else {
      outcome.set_value(co_await std::forward<Awaitable>(awaitable));
    }
  } catch (...) {
    outcome.set_exception(std::current_exception());
  }
  co_await return_to{owner};  // the timer can only be disarmed on its own executor's thread
  owner->cancel_timer(timer);
  co_return outcome.take();
}

}  // namespace shoal::detail
