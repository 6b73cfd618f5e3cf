// SPDX-License-Identifier: Apache-2.0
// shoal/when_all.hpp: run several tasks concurrently and wait for all of them.
//
// `co_await when_all(a, b, ...)` starts every task as a chain of its own (on a thread_pool,
// work-first: the caller runs the first child, idle workers steal the others; a caller bound to a
// worker runs them all there, depth first, none stolen) and resumes when all have ended;
// `when_all(range)` is the same for any number of tasks of one type (a std::vector<task<T>>, or a
// view that makes them). Each child gets
// a copy of the caller's environment (coroutine-local values, home binding) and a stop token of the
// operation's own, linked to the caller's. How the children run, and the costs:
// docs/design/structured-concurrency.md.
//
// Structured: nothing outlives the await. Every child has ended and its frame (with the task's
// locals and parameters) has been destroyed before the co_await gives its result or exception.
// Failure policy: the first child to throw (in time) has its siblings cancelled (stop requested
// on the operation's token); they are still awaited, and then that first exception is rethrown.
// Later exceptions are dropped.
// Lifetime: the object when_all returns owns the tasks; awaiting it (once, as an rvalue) starts
// them. Destroyed unawaited, it destroys them without running them.
#pragma once

#include <utility>
#include <vector>

#include "shoal/detail/join_all.hpp"
#include "shoal/detail/task_block.hpp"
#include "shoal/detail/when_all.hpp"
#include "shoal/task.hpp"

namespace shoal {

/// Runs the tasks concurrently and waits for all of them (see the header).
///   Result: std::tuple<Vs...> of the children's values in argument order, where Vs is Ts with
///           void replaced by std::monostate. when_all() with no task gives std::tuple<>.
///   Errors: the first exception thrown by a child (after all have ended); std::logic_error when
///           awaited with no executor on this thread; std::bad_alloc from the frames.
///   Cancellation: the caller's stop token reaches every child; a child's failure cancels the
///                 others. The operation does not end before every child has. A child that
///                 honours the stop ends early and reports it its own way (a sleep returns false);
///                 one that ignores it runs to its end.
///   Resumes on: a bound caller: its home worker. Otherwise, on a thread_pool: a worker of the
///               caller's pool, the one that ran the last child to end (a work-stealing
///               continuation; by symmetric transfer, no post); elsewhere: the caller's executor.
///               Never on a thread outside the caller's pool or executor.
///   Thread-safety: stop may be requested from any thread; the awaitable is awaited once.
///   Example:
///     auto [user, orders] = co_await shoal::when_all(load_user(id), load_orders(id));
template <class... Ts>
[[nodiscard]] auto when_all(task<Ts>... children) {
  using children_type = detail::fork_tuple<Ts...>;
  return detail::fork_awaitable<detail::when_all_awaiter, children_type>(std::in_place,
                                                                         std::move(children)...);
}

/// Runs the vector's tasks concurrently and waits for all of them.
///   Result: std::vector<T> of the values in the vector's order; void when T is void. An empty
///           vector completes at once with an empty result.
///   Errors, Cancellation, Resumes on, Thread-safety: as the variadic form.
///   Example:
///     std::vector<shoal::task<int>> shards;
///     for (int s = 0; s < 8; ++s) shards.push_back(count_rows(s));
///     std::vector<int> counts = co_await shoal::when_all(std::move(shards));
template <class T>
[[nodiscard]] auto when_all(std::vector<task<T>> children) {
  using children_type = detail::fork_range<T>;
  return detail::fork_awaitable<detail::when_all_awaiter, children_type>(std::in_place,
                                                                         std::move(children));
}

/// Runs the range's tasks concurrently and waits for all of them: any input range of task<T>
/// given as rvalues, a view that makes them or a container passed as an rvalue (moved from). Up
/// to 16 tasks are held in the awaitable itself, more in one block from the frame allocator: no
/// std::vector of tasks to build and free per fork.
///   Result: std::vector<T> of the values in the range's order; void when T is void. An empty
///           range completes at once with an empty result.
///   Errors: as the variadic form, and what iterating the range throws (before any child starts;
///           the tasks made so far are destroyed unstarted).
///   Cancellation, Resumes on, Thread-safety: as the variadic form.
///   Example:
///     auto shards = std::views::iota(0, 8) | std::views::transform(count_rows);
///     std::vector<int> counts = co_await shoal::when_all(shards);
template <class Range>
  requires detail::task_range<Range>
[[nodiscard]] auto when_all(Range&& children) {
  using value_type = detail::task_range_value_t<Range>;
  using children_type = detail::fork_range<value_type, detail::task_block<value_type>>;
  return detail::fork_awaitable<detail::when_all_awaiter, children_type>(
      std::in_place, std::in_place, std::forward<Range>(children));
}

}  // namespace shoal
