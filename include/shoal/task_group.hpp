// SPDX-License-Identifier: Apache-2.0
// shoal/task_group.hpp: a scope of concurrent children whose results are taken as they finish.
//
// `co_await with_task_group<T>(body)` creates a task_group<T>, awaits `body(group)` (a lambda
// returning a task), and then, whatever the body did, cancels the children still running and
// awaits every one of them before it completes. Inside the body, `group.spawn(t)` starts task<T> t
// concurrently and `co_await group.next_result()` gives the next child to finish, with its spawn
// index and its value or exception, until none is left. Where children run, their environment and
// the cost: docs/design/structured-concurrency.md.
//
// Structured: no child outlives with_task_group, and the group exists only inside the body
// (with_task_group is the only way to make one). A child's exception is never lost: it comes
// back through next_result, or, if the body never took it, with_task_group rethrows the first
// such exception after every child has ended (an exception escaping the body itself wins over
// it). So let children report an expected cancellation as a value (as a sleep does), not by
// throwing.
//
// Thread-safety: spawn, next_result, cancel and outstanding are for the body's coroutine (and the
// tasks it awaits) only, one at a time; a child must not use its own group. Stop may be
// requested from any thread.
// Memory ordering: everything a child did happens-before next_result gives its result.
#pragma once

#include <concepts>
#include <cstddef>
#include <exception>
#include <optional>
#include <type_traits>
#include <utility>
#include <variant>

#include "shoal/detail/completion_queue.hpp"
#include "shoal/detail/fork.hpp"
#include "shoal/detail/task_group.hpp"
#include "shoal/detail/with_env.hpp"
#include "shoal/task.hpp"

namespace shoal {

/// A finished child of a task_group: its spawn index and its value or exception.
template <class T>
class indexed_result {
 public:
  using value_type = detail::fork_value_t<T>;  // std::monostate for task_group<void>

  /// A result holding the value of child `index` (what the group makes; for tests).
  static indexed_result succeeded(std::size_t index, value_type value) {
    return indexed_result(index, std::in_place_index<0>, std::move(value));
  }
  /// A result holding the exception of child `index`.
  static indexed_result failed(std::size_t index, std::exception_ptr error) {
    return indexed_result(index, std::in_place_index<1>, std::move(error));
  }

  /// The child's position in spawn order: 0 for the first spawn() of the group, and so on.
  [[nodiscard]] std::size_t index() const noexcept { return index_; }
  /// True when the child returned (false: it threw; see exception()).
  [[nodiscard]] bool has_value() const noexcept { return outcome_.index() == 0; }
  /// What the child threw, or nullptr when it returned.
  [[nodiscard]] std::exception_ptr exception() const noexcept {
    return has_value() ? nullptr : std::get<1>(outcome_);
  }
  /// The child's value, moved out, or its exception rethrown.
  T take_value() {
    if (!has_value()) std::rethrow_exception(std::get<1>(outcome_));
    if constexpr (!std::is_void_v<T>) return std::move(std::get<0>(outcome_));
  }

 private:
  template <std::size_t I, class V>
  indexed_result(std::size_t index, std::in_place_index_t<I> which, V&& outcome)
      : index_(index), outcome_(which, std::forward<V>(outcome)) {}

  std::size_t index_;
  std::variant<value_type, std::exception_ptr> outcome_;
};

template <class T>
class task_group;

namespace detail {
template <class T, class Body, class Result>
task<Result> run_task_group(Body body);
}  // namespace detail

/// The group of a with_task_group body: made only by with_task_group, used only inside the
/// body (see the header). Non-copyable, non-movable.
template <class T>
class task_group {
 public:
  task_group(const task_group&) = delete;
  task_group& operator=(const task_group&) = delete;
  /// with_task_group has awaited every child (its drain cannot throw); anything else is a broken
  /// invariant.
  ~task_group() {
    if (queue_.outstanding() != 0) std::terminate();
  }

  /// Starts `child` concurrently and returns its index (0, 1, ... in spawn order). The child gets
  /// the environment the caller of with_task_group had (values bound inside the body are not seen:
  /// `group.spawn(shoal::with_local(key, v, child()))`), the group's stop token, and the body's
  /// home binding at the time of spawn. On a thread_pool it waits on the body's worker, run there
  /// newest first once the body suspends, unless an idle worker steals it first (never when the
  /// body is bound: its children run on its worker only).
  ///   Errors: std::logic_error with no executor on this thread; std::bad_alloc (nothing started).
  ///   Thread-safety: the body's coroutine only.
  std::size_t spawn(task<T> child) {
    detail::fork_child<T> root = detail::forked(std::move(child));
    const std::size_t index = queue_.launch(root);
    root.release();  // owned by the queue until next_result takes it
    return index;
  }

  /// Awaitable.
  ///   Result: std::optional<indexed_result<T>>: the child that finished earliest among those
  ///           not taken yet, in the order they finished; std::nullopt when every spawned child
  ///           has been taken (at once, without suspending).
  ///   Errors: none of its own (a child's exception is inside the indexed_result); std::logic_error
  ///           if it must wait with no executor on this thread.
  ///   Cancellation: none of its own: it waits for a child, and the children see the stop.
  ///   Resumes on: at once when a child had already finished; else its home worker when bound;
  ///               else, on a thread_pool, a worker of its pool (the one that ran the child that
  ///               ends, by symmetric transfer); elsewhere its executor.
  ///   Thread-safety: one awaiting coroutine at a time, the group's own (see the header).
  ///   Example: while (auto r = co_await group.next_result()) sum += r->take_value();
  [[nodiscard]] detail::next_result_awaiter<T> next_result() noexcept {
    return detail::next_result_awaiter<T>(queue_);
  }

  /// Requests stop on every child of the group, running or spawned later.
  void cancel() noexcept { queue_.request_stop(); }

  /// Children spawned whose result next_result has not given yet.
  [[nodiscard]] std::size_t outstanding() const noexcept { return queue_.outstanding(); }

 private:
  template <class U, class Body, class Result>
  friend task<Result> detail::run_task_group(Body body);

  explicit task_group(const detail::task_env& parent) { queue_.open(parent); }

  /// The next child to end, destroyed with its value; its exception kept (with_task_group's
  /// final drain).
  [[nodiscard]] detail::drain_awaiter<T> drain_next() noexcept {
    return detail::drain_awaiter<T>(queue_);
  }

  detail::completion_queue queue_;
};

namespace detail {

template <class T, class Body>
using group_body_result_t = typename std::invoke_result_t<Body&, task_group<T>&>::value_type;

template <class T, class Body, class Result>
task<Result> run_task_group(Body body) {
  promise_base& self = co_await promise_access{};
  task_group<T> group(inherited_env(self));
  std::optional<fork_value_t<Result>> result;
  std::exception_ptr body_error;
  try {
    if constexpr (std::is_void_v<Result>) {
      co_await body(group);
    } else {
      result.emplace(co_await body(group));
    }
  } catch (...) {
    body_error = std::current_exception();
  }
  group.cancel();
  std::exception_ptr untaken_error;
  // The drain cannot throw (it moves no value): every child is waited for, whatever happens.
  while (std::optional<std::exception_ptr> error = co_await group.drain_next()) {
    if (!untaken_error) untaken_error = *error;
  }
  if (body_error) std::rethrow_exception(body_error);
  if (untaken_error) std::rethrow_exception(untaken_error);
  if constexpr (!std::is_void_v<Result>) co_return std::move(*result);
}

}  // namespace detail

/// Awaitable (a task<R>, where body returns task<R>).
///   Result: what the body's task returns.
///   Errors: the body's exception; else the first exception of a child whose result the body
///           did not take; std::logic_error from spawn outside an executor.
///   Cancellation: the caller's stop token reaches the body (as any awaited task) and every
///                 child; when the body ends the group's remaining children are cancelled, and
///                 with_task_group completes only once each of them has ended.
///   Resumes on: where the last child's end wakes it: its home worker when bound; else, on a
///               thread_pool, a worker of the caller's pool; elsewhere the caller's executor; at
///               once when no child was left running.
///   Thread-safety: as the body's; see the header for the group's own rules.
///   Example:
///     int first = co_await shoal::with_task_group<int>(
///         [&](shoal::task_group<int>& group) -> shoal::task<int> {
///           for (int s = 0; s < shards; ++s) group.spawn(query(s));
///           auto r = co_await group.next_result();  // the fastest shard; the rest are cancelled
///           co_return r->take_value();
///         });
template <class T, class Body>
  requires std::invocable<Body&, task_group<T>&>
[[nodiscard]] auto with_task_group(Body body) {
  return detail::run_task_group<T, Body, detail::group_body_result_t<T, Body>>(std::move(body));
}

}  // namespace shoal
