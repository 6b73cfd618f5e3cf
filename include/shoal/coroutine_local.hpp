// SPDX-License-Identifier: Apache-2.0
// shoal/coroutine_local.hpp: values that belong to a chain of coroutines, not to a thread.
//
// What: a `coroutine_local<T>` is declared once (a global, a static member), like a
// thread_local. A coroutine binds a value to it for a scope with `co_await key.bind(v)`; while
// the scope lasts, `key.get()` gives v in that coroutine, in every task it awaits, in the
// children of its when_all / when_any / task_group, and in ordinary functions called from any
// of them. Outside every binding, get() gives the declaration's fallback value. A binding hides
// an outer one of the same key until its scope ends. The chain's stop token (shoal/stop.hpp) is
// the built-in value of this kind.
// How plain functions see it, and the cost: docs/design/coroutine-locals.md.
//
// Lifetime: the scope object returned by bind() must stay in the coroutine that awaited bind()
// and end before it does (a local variable: it cannot be moved or copied). Values are immutable
// while bound; get() returns a reference valid while the binding's scope lasts.
// Like with_stop_token, a scope gives its coroutine a substituted environment: a schedule_on()
// made inside the scope holds until the scope ends.
//
// Thread-safety: get() reads only the calling thread's mirror; binding and unbinding touch only
// the binding coroutine's own frame.
#pragma once

#include <coroutine>
#include <type_traits>
#include <utility>

#include "shoal/detail/task_env.hpp"
#include "shoal/detail/with_env.hpp"
#include "shoal/task.hpp"

namespace shoal {

namespace detail {
template <class T>
class local_bind_awaiter;
}  // namespace detail

/// What `key.bind(value)` returns: an awaitable (see coroutine_local::bind).
template <class T>
using local_bind_awaiter = detail::local_bind_awaiter<T>;

template <class T>
class coroutine_local;

/// A binding of a coroutine_local for the rest of a scope; returned by coroutine_local::bind.
template <class T>
class [[nodiscard]] local_scope {
 public:
  local_scope(detail::promise_base& owner, const coroutine_local<T>& key, T value)
      : value_(std::move(value)),
        env_(detail::inherited_env(owner)),
        binding_{&key, &value_, env_.locals()},
        owner_(&owner),
        saved_(owner.env) {
    env_.set_locals(&binding_);
    detail::adopt_env(owner, env_);
  }
  local_scope(const local_scope&) = delete;
  local_scope& operator=(const local_scope&) = delete;
  /// Ends the binding: the owning coroutine goes back to the environment it had before.
  ~local_scope() {
    owner_->env = saved_;
    if (detail::current_env == &env_) detail::current_env = saved_;
  }

 private:
  T value_;
  detail::task_env env_;
  detail::local_binding binding_;
  detail::promise_base* owner_;
  detail::task_env* saved_;
};

namespace detail {

/// Awaiter of coroutine_local::bind: finds the awaiting task's promise without suspending and
/// builds the scope in place (the scope cannot move).
template <class T>
class local_bind_awaiter {
 public:
  local_bind_awaiter(const coroutine_local<T>& key, T value)
      : key_(&key), value_(std::move(value)) {}
  bool await_ready() const noexcept { return false; }
  template <class Promise>
    requires std::is_base_of_v<promise_base, Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) noexcept {
    owner_ = &h.promise();
    return false;  // never suspends
  }
  local_scope<T> await_resume() { return local_scope<T>(*owner_, *key_, std::move(value_)); }

 private:
  const coroutine_local<T>* key_;
  T value_;
  promise_base* owner_ = nullptr;
};

}  // namespace detail

/// A key of values bound per chain of coroutines (see the header); declared once, like a
/// thread_local. Non-copyable.
/// Example:
///   inline const shoal::coroutine_local<std::uint64_t> request_id{0};
///   void log(std::string_view what) { std::printf("[%lu] %.*s\n", request_id.get(), ...); }
///   shoal::task<void> handle(std::uint64_t id) {
///     auto scope = co_await request_id.bind(id);
///     co_await query();   // query() and log() see id
///   }
template <class T>
class coroutine_local {
 public:
  coroutine_local()
    requires std::is_default_constructible_v<T>
  = default;
  explicit coroutine_local(T fallback) : fallback_(std::move(fallback)) {}
  coroutine_local(const coroutine_local&) = delete;
  coroutine_local& operator=(const coroutine_local&) = delete;
  ~coroutine_local() = default;

  /// The innermost value bound in the running chain, or nullptr when none is (or no shoal
  /// coroutine is running on this thread).
  [[nodiscard]] const T* find() const noexcept {
    const detail::task_env* env = detail::current_env;
    if (env == nullptr) return nullptr;
    for (const detail::local_binding* b = env->locals(); b != nullptr; b = b->next) {
      if (b->key == this) return static_cast<const T*>(b->value);
    }
    return nullptr;
  }
  /// The innermost value bound in the running chain, or the fallback.
  [[nodiscard]] const T& get() const noexcept {
    const T* bound = find();
    return bound != nullptr ? *bound : fallback_;
  }

  /// Binds `value` to this key for the rest of the awaiting coroutine's scope. Only inside a
  /// shoal task.
  ///   Result: a local_scope that binds `value` until it is destroyed; keep it in a local variable.
  ///   Errors: what moving T throws.
  ///   Cancellation: none (never suspends).
  ///   Resumes on: the same thread, at once.
  ///   Thread-safety: the awaiting coroutine's own frame only.
  ///   Example: auto scope = co_await request_id.bind(42);
  [[nodiscard]] local_bind_awaiter<T> bind(T value) const {
    return local_bind_awaiter<T>(*this, std::move(value));
  }

 private:
  T fallback_{};
};

namespace detail {
template <class T, class Awaitable>
task<wrapped_result_t<Awaitable>> with_local_task(const coroutine_local<T>& key, T value,
                                                  Awaitable awaitable) {
  auto scope = co_await key.bind(std::move(value));
  co_return co_await std::forward<Awaitable>(awaitable);
}
}  // namespace detail

/// Awaits `awaitable` with `key` bound to `value` for this await only.
///   Result: what `co_await awaitable` gives.
///   Errors: what it throws.
///   Cancellation: the caller's token, unchanged.
///   Resumes on: wherever `awaitable` completes.
///   Thread-safety: as the awaitable's.
///   Example: co_await shoal::with_local(request_id, 42, handle());
template <class T, class Awaitable>
[[nodiscard]] auto with_local(const coroutine_local<T>& key, std::type_identity_t<T> value,
                              Awaitable&& awaitable) {
  return detail::with_local_task<T, Awaitable>(key, std::move(value),
                                               std::forward<Awaitable>(awaitable));
}

}  // namespace shoal
