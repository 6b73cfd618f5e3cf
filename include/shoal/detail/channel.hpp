// SPDX-License-Identifier: Apache-2.0
// shoal/detail/channel.hpp: the awaiters behind shoal/channel.hpp (the state they work on:
// shoal/detail/channel_core.hpp).
#pragma once

#include <coroutine>
#include <optional>
#include <utility>

#include "shoal/detail/channel_core.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/detail/wait_queue.hpp"

namespace shoal::detail {

// The channel awaiters' await_suspend: when the awaiting chain is not stopped and `done_now`
// (one short critical section of one side of the channel) completes the operation, `w` is
// granted and the coroutine continues at once; otherwise the full path
// (shoal/detail/wait_queue.hpp) decides, under that side's lock: wait, refuse (closed, stopped)
// or complete.
template <class Promise, class DoneNow>
bool complete_or_wait(waiter& w, std::coroutine_handle<Promise> h, DoneNow done_now) {
  const task_env* env = env_of(h);
  if ((env == nullptr || !env->stop.stop_requested()) && done_now()) {
    w.grant();
    return false;
  }
  return w.await_suspend(h);
}

// The awaiter of channel::send. Result: bool (true: delivered; false: closed or cancelled).
template <class T>
class send_waiter : public waiter {
 public:
  send_waiter(const wait_site& site, T value) noexcept : waiter(site), value_(std::move(value)) {}

  // The fast path: an open channel with room and no sender queued buffers the value.
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) {
    return complete_or_wait(*this, h, [this] { return core()->send_now(value_); });
  }

 private:
  friend class channel_core<T>;
  channel_core<T>* core() const noexcept { return static_cast<channel_core<T>*>(owner()); }
  T value_;  // moved out by the receiver (or into the buffer) that grants this waiter
};

// The awaiter of channel::receive. Result: the value, or nullopt (closed and drained, or
// cancelled).
template <class T>
class receive_waiter : public waiter {
 public:
  explicit receive_waiter(const wait_site& site) noexcept : waiter(site) {}

  // The fast path: a value buffered and no receiver queued: it is taken.
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) {
    return complete_or_wait(*this, h, [this] { return core()->receive_now(slot_); });
  }

  std::optional<T> await_resume() noexcept {
    waiter::await_resume();
    return std::move(slot_);
  }

 private:
  friend class channel_core<T>;
  channel_core<T>* core() const noexcept { return static_cast<channel_core<T>*>(owner()); }
  std::optional<T> slot_;  // filled by the sender (or receive attempt) that grants this waiter
};

}  // namespace shoal::detail

#include "shoal/detail/channel_core_impl.hpp"
