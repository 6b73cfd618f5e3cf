// SPDX-License-Identifier: Apache-2.0
// shoal/detached_task.hpp: a coroutine that is its own root, for work spawned by the million.
//
// What: `shoal::detached_task` is the return type of a coroutine written only to be spawned
// bound to a worker, `pool.spawn_on(k, body(...), token)`. Spawning a task<void> wraps it in a
// root frame that holds the chain's environment (its worker, its stop token) and awaits it: two
// frames and two allocations per chain. A detached_task's own frame holds that environment, so
// a spawned chain is one frame: its promise is 32 bytes bigger than a task<void>'s, and there is
// no 120-byte root (a 128-byte block plus the system allocator's header). For a process that
// keeps a million chains asleep at once (a TPC-C terminal each), that is the difference; for
// anything else, spawn a task<void>. Inside, the body is an ordinary shoal coroutine: it awaits
// tasks, sleeps, reads current_stop_token() (the token given to spawn_on), and everything it awaits
// inherits its environment, as under a task spawned with the same token.
//
// It cannot be awaited and returns nothing. An exception escaping the body terminates the
// program, as with std::thread (catch in the body what you expect).
// Lifetime: the object owns the frame (created suspended) until spawn_on takes it; destroying an
// unspawned detached_task destroys the frame. Once spawned, the frame destroys itself when the
// body ends, and the pool counts it as spawned work until then (stop waits for it, as for
// spawn_on).
// Thread-safety: the body runs on worker k only (the chain is bound, as with spawn_on).
// Example:
//   shoal::detached_task terminal(context& ctx) { while (co_await shoal::sleep_for(1s)) ...; }
//   pool.spawn_on(k, terminal(ctx), stop.get_token());
#pragma once

#include <coroutine>
#include <utility>

#include "shoal/detail/detached_task.hpp"

namespace shoal {

class [[nodiscard]] detached_task {
 public:
  using promise_type = detail::detached_promise;

  detached_task(detached_task&& other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
  detached_task& operator=(detached_task&&) = delete;
  detached_task(const detached_task&) = delete;
  detached_task& operator=(const detached_task&) = delete;
  ~detached_task() {
    if (h_) h_.destroy();
  }

  // Low level, for thread_pool::spawn_on: gives up the frame, not yet started.
  [[nodiscard]] std::coroutine_handle<promise_type> release() noexcept {
    return std::exchange(h_, nullptr);
  }

 private:
  friend promise_type;
  explicit detached_task(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}

  std::coroutine_handle<promise_type> h_;
};

namespace detail {
inline detached_task detached_promise::get_return_object() noexcept {
  return detached_task(std::coroutine_handle<detached_promise>::from_promise(*this));
}
}  // namespace detail

}  // namespace shoal
