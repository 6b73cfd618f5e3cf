// SPDX-License-Identifier: Apache-2.0
// shoal/detail/task_env.hpp: the environment an awaiting chain of coroutines shares.
//
// What: every chain started by sync_wait, thread_pool::spawn or a test scheduler has one
// task_env, stored in its root frame. Each task awaited from the chain points at the same env,
// so a decision made anywhere in the chain (schedule_on binds it to a worker) holds for all of
// it. It also carries the chain's stop token, which every awaited task inherits implicitly
// (with_stop_token substitutes another env for one await), and its coroutine-local values
// (shoal/coroutine_local.hpp): a stack of bindings that live in the frames that made them.
// `current_env` mirrors the env of the shoal coroutine running on this thread, so plain functions
// called from it can see it.
//
// Lifetime: the root frame (or the with_stop_token frame that substituted it) outlives every
// task that points at it, so the pointer is always valid while they run.
// Thread-safety: only the coroutine currently running the chain touches it; `current_env` is
// thread-local.
#pragma once

#include <coroutine>
#include <cstdint>
#include <stop_token>
#include <type_traits>

#include "shoal/detail/lazy_stop.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

class join_point;

// One coroutine-local value bound by a frame of the chain: `key` is the address of the
// coroutine_local declaration, `value` points into the binding frame, `next` is the binding it
// hides. Bindings are immutable once pushed.
struct local_binding {
  const void* key = nullptr;
  const void* value = nullptr;
  const local_binding* next = nullptr;
};

struct task_env {
  executor* home = nullptr;  // non-null: the chain is bound here, resumes here
  stop_ref stop;             // stop_possible() false: nothing can stop the chain

  task_env() noexcept = default;
  // A copy is never shared (below).
  task_env(const task_env& other) noexcept
      : home(other.home), stop(other.stop), locals_(other.locals_ & ~shared_bit) {}
  task_env& operator=(const task_env& other) noexcept {
    if (this == &other) return *this;
    home = other.home;
    stop = other.stop;
    locals_ = other.locals_ & ~shared_bit;
    return *this;
  }
  ~task_env() = default;

  // The innermost coroutine-local binding; null: none bound.
  [[nodiscard]] const local_binding* locals() const noexcept {
    // NOLINTNEXTLINE(performance-no-int-to-ptr): a tagged pointer, made from a pointer
    return reinterpret_cast<const local_binding*>(locals_ & ~shared_bit);
  }
  void set_locals(const local_binding* innermost) noexcept {
    locals_ = reinterpret_cast<std::uintptr_t>(innermost) | (locals_ & shared_bit);
  }

  // True for the env every child of one when_all/when_any shares (detail/join_point.hpp): it is
  // never written while they run; a child that rebinds its chain (schedule_on) first gets a
  // private copy (writable_env). A copy of an env is never shared.
  [[nodiscard]] bool fork_shared() const noexcept { return (locals_ & shared_bit) != 0; }
  void mark_fork_shared() noexcept { locals_ |= shared_bit; }

 private:
  // The flag is the low bit of the bindings' address (a local_binding is pointer-aligned), so
  // that an env stays three words: every spawned chain's root frame holds one (a million
  // sleeping terminals are a million of them).
  static constexpr std::uintptr_t shared_bit = 1;
  static_assert(alignof(local_binding) > shared_bit);
  std::uintptr_t locals_ = 0;
};
static_assert(sizeof(task_env) == 3 * sizeof(void*), "an env is three words (see locals_)");

// The env of the shoal coroutine running on this thread, or nullptr. Set each time a shoal task
// starts or resumes from an await; restored by detail::resume when the chain suspends.
inline thread_local task_env* current_env = nullptr;

// Base of every shoal promise: what an awaiter needs from whoever awaits it.
// `parent` exists for async backtraces (shoal/async_backtrace.hpp): the promise of the shoal
// coroutine awaiting this one (null for a root, or when the awaiter is not a shoal coroutine).
// tools/gdb/shoal_backtrace.py reads this layout.
struct promise_base {
  std::coroutine_handle<> continuation;
  task_env* env = nullptr;
  promise_base* parent = nullptr;
  // Non-null for a task started directly as a when_all/when_any child: its final suspension
  // reports to this join (shoal/detail/join_point.hpp) instead of resuming `continuation`.
  join_point* fork = nullptr;
};

// The environment of an awaiting coroutine, or nullptr for coroutine types that are not shoal's.
template <class Promise>
task_env* env_of(std::coroutine_handle<Promise> h) noexcept {
  if constexpr (std::is_base_of_v<promise_base, Promise>) {
    return h.promise().env;
  } else {
    return nullptr;
  }
}

// The promise of an awaiting coroutine, or nullptr for coroutine types that are not shoal's.
template <class Promise>
promise_base* promise_of(std::coroutine_handle<Promise> h) noexcept {
  if constexpr (std::is_base_of_v<promise_base, Promise>) {
    return &h.promise();
  } else {
    return nullptr;
  }
}

// Where a suspended coroutine must be resumed: its chain's home if bound, else the executor it
// suspended on (unpinned, so a pool may balance it).
struct wake_target {
  executor* where = nullptr;
  bool pinned = false;

  template <class Promise>
  static wake_target of(std::coroutine_handle<Promise> h) noexcept {
    task_env* env = env_of(h);
    if (env != nullptr && env->home != nullptr) return {env->home, true};
    return {executor::current(), false};
  }
  void post(std::coroutine_handle<> h) const noexcept { where->post(h, pinned); }
};

}  // namespace shoal::detail
