// SPDX-License-Identifier: Apache-2.0
// shoal/detail/fork.hpp: starting children as chains of their own, for task_group.
//
// What: a child is a task wrapped in a fork root, a small coroutine that awaits it at the bottom
// of a new chain and keeps the outcome (a value or an exception) in its own frame until the
// parent takes it. A fork_scope launches children: each gets a copy of the parent's env (home
// binding, coroutine-local values: every field) whose stop is the scope's own, a lazy_stop that
// follows the parent's (detail/lazy_stop.hpp: no allocation unless a child asks for the token
// itself). A stop reaching the parent reaches every child; stopping the scope reaches only the
// children. On a pool worker an unbound child goes into the worker's fork deque (newest first
// for the worker, oldest first for thieves: detail/fork_deque.hpp), a child bound to that worker
// into its owner-only bound stack (newest first, never stolen: detail/bound_fork_stack.hpp);
// elsewhere it is posted.
// When a child ends, its root calls the scope's end hook (completion_queue queues it); the hook
// returns the parent when the parent may go on here at once (detail/fork_handoff.hpp).
// when_all and when_any children need no root: they are their tasks' frames, sharing one env
// (detail/join_point.hpp, detail/join_all.hpp).
//
// Lifetime: the scope outlives every child it launched; the parent owns each root through a
// fork_child handle and destroys it after taking its outcome. From the moment a root calls the
// end hook it is never touched again by its own thread, so the parent may destroy it at once.
// Thread-safety: the end hook runs on whatever thread ran the child, possibly on several at
// once; everything else belongs to the parent's coroutine.
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <type_traits>
#include <utility>
#include <variant>

#include "shoal/detail/fork_handoff.hpp"
#include "shoal/detail/fork_node.hpp"
#include "shoal/detail/lazy_stop.hpp"
#include "shoal/detail/task.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/detail/with_env.hpp"
#include "shoal/executor.hpp"

namespace shoal::detail {

// What a child of result type T contributes to its parent's result: void becomes std::monostate.
template <class T>
using fork_value_t = std::conditional_t<std::is_void_v<T>, std::monostate, T>;

class fork_scope {
 public:
  using end_hook = fork_node::end_hook;

  fork_scope(const fork_scope&) = delete;
  fork_scope& operator=(const fork_scope&) = delete;

  // Takes `parent` as the env of the children to come, with the scope's own stop (a lazy_stop
  // that follows the parent's: detail/lazy_stop.hpp).
  void open(const task_env& parent) noexcept {
    env_ = parent;
    stop_.follow(parent.stop);
    env_.stop = stop_ref(stop_);
  }

  // Starts `child` as the root of a chain of its own, made ready on `where`; bound there when
  // `where` is pinned (a bound parent's children are bound to the same worker).
  // On a pool worker, an unbound child goes into the worker's fork deque (fork_handoff.hpp),
  // newest first for the worker, oldest first for thieves; true when it did (the caller then
  // calls notify_forked() once for the children it launched). A child bound to the worker it is
  // launched on goes into that worker's bound stack, newest first, never stolen (false).
  template <class Child>
  bool launch(Child& child, std::size_t index, wake_target where) noexcept {
    auto& promise = child.promise();
    prepare(promise, promise.own_env, promise, index, where);
    return push_forked(where, child.handle());
  }

  // Asks every child launched (and to be launched) to stop. Any thread.
  void request_stop() noexcept { stop_.request_stop(); }

  // Called by a child's root when the child has ended; the root is not touched after it.
  // Returns what the end hook says to run next.
  std::coroutine_handle<> child_ended(fork_node& child) noexcept { return on_end_(*this, child); }

 private:
  void prepare(promise_base& promise, task_env& env, fork_node& node, std::size_t index,
               wake_target where) noexcept {
    env = env_;
    env.home = where.pinned ? where.where : nullptr;
    node.scope = this;
    node.on_end = on_end_;
    node.index = index;
    promise.env = &env;
  }

 protected:
  explicit fork_scope(end_hook on_end) noexcept : on_end_(on_end) {}
  ~fork_scope() = default;

 private:
  end_hook on_end_;
  lazy_stop stop_;  // every child's env refers to it
  task_env env_;
};

// Final suspension of a fork root: report to the scope, then touch nothing (the parent may
// destroy the frame on another thread from the moment child_ended is entered), and go on into
// what the scope says, or the next forked child (fork_handoff.hpp).
struct fork_end {
  bool await_ready() const noexcept { return false; }
  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> self) const noexcept {
    fork_node& node = self.promise();
    std::coroutine_handle<> next = node.scope->child_ended(node);
    if (!next) next = next_forked();
    return transfer(next);
  }
  void await_resume() const noexcept {}
};

template <class T>
class fork_child;

template <class T>
struct fork_promise final : promise_base, frame_allocated<fork_promise<T>>, fork_node {
  fork_promise() noexcept { env = &own_env; }
  fork_child<T> get_return_object() noexcept;
  std::suspend_always initial_suspend() const noexcept { return {}; }
  fork_end final_suspend() const noexcept { return {}; }
  void return_void() const noexcept {}
  void unhandled_exception() noexcept { error = std::current_exception(); }

  task_env own_env;
  std::optional<fork_value_t<T>> value;
};

// Owns a fork root: destroys it (and the child task inside) when it goes.
template <class T>
class fork_child {
 public:
  using promise_type = fork_promise<T>;

  explicit fork_child(std::coroutine_handle<promise_type> h) noexcept : h_(h) {}
  fork_child(fork_child&& other) noexcept : h_(std::exchange(other.h_, nullptr)) {}
  fork_child& operator=(fork_child&& other) noexcept {
    if (this != &other) {
      reset();
      h_ = std::exchange(other.h_, nullptr);
    }
    return *this;
  }
  fork_child(const fork_child&) = delete;
  fork_child& operator=(const fork_child&) = delete;
  ~fork_child() { reset(); }

  // Takes ownership of the root behind `node` (which must be a fork_promise<T>).
  [[nodiscard]] static fork_child adopt(fork_node& node) noexcept {
    return fork_child(
        std::coroutine_handle<promise_type>::from_promise(static_cast<promise_type&>(node)));
  }
  // Gives up ownership; the root is then destroyed through adopt().
  void release() noexcept { h_ = nullptr; }

  [[nodiscard]] promise_type& promise() const noexcept { return h_.promise(); }
  [[nodiscard]] std::coroutine_handle<> handle() const noexcept { return h_; }
  [[nodiscard]] fork_node& node() const noexcept { return h_.promise(); }

  // The child's value (moved out), or its exception rethrown. Only after it ended.
  fork_value_t<T> take() {
    promise_type& p = promise();
    if (!p.value) std::rethrow_exception(p.error);  // no value: the child threw
    return std::move(*p.value);
  }

 private:
  void reset() noexcept {
    if (h_) std::exchange(h_, nullptr).destroy();
  }
  std::coroutine_handle<promise_type> h_;
};

template <class T>
fork_child<T> fork_promise<T>::get_return_object() noexcept {
  return fork_child<T>(std::coroutine_handle<fork_promise>::from_promise(*this));
}

// The fork root's body: awaits the child and keeps its value in the root's promise (an exception
// goes to unhandled_exception).
template <class T>
fork_child<T> forked(task<T> child) {
  static_assert(!std::is_reference_v<T>,
                "shoal: children of when_all/when_any/task_group return values, not references");
  auto& self = static_cast<fork_promise<T>&>(co_await promise_access{});
  if constexpr (std::is_void_v<T>) {
    co_await std::move(child);
    self.value.emplace();
  } else {
    self.value.emplace(co_await std::move(child));
  }
}

// A copy of the env of the coroutine behind `h` (defaults when it is not a shoal coroutine).
template <class Promise>
task_env env_copy_of(std::coroutine_handle<Promise> h) {
  if constexpr (std::is_base_of_v<promise_base, Promise>) {
    return inherited_env(h.promise());
  } else {
    return task_env{};
  }
}

// Where `h`'s children run and where it resumes: wake_target::of, required to exist.
template <class Promise>
wake_target fork_target_of(std::coroutine_handle<Promise> h) {
  const wake_target target = wake_target::of(h);
  if (target.where == nullptr) {
    throw std::logic_error("shoal: when_all/when_any/task_group used outside any executor");
  }
  return target;
}

}  // namespace shoal::detail
