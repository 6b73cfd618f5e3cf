// SPDX-License-Identifier: Apache-2.0
// shoal/when_any.hpp: run several tasks concurrently, take the first to finish.
//
// `co_await when_any(a, b, ...)` starts every task as a chain of its own (as when_all does) and
// gives the result of the first one to end; the moment one ends, the others are cancelled (stop
// requested on the operation's own token). `when_any(std::vector<task<T>>)` is the same for any
// number of tasks of one type: the fastest replica, the first shard to answer. Each child gets a
// copy of the caller's environment, as with when_all. The mechanism and the costs:
// docs/design/structured-concurrency.md.
//
// Structured: nothing outlives the await: every child has ended and its frame has been destroyed
// before the result is given. A loser that ignores the stop therefore delays the result.
// "First to end" includes ending with an exception: a child that throws first wins and its
// exception is rethrown. Ties between children ending on different workers are decided by
// whichever records its end first.
// Lifetime: as when_all's: the object returned owns the tasks, awaiting it once starts them.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "shoal/detail/join_all.hpp"
#include "shoal/detail/when_any.hpp"
#include "shoal/task.hpp"

namespace shoal {

/// The outcome of when_any over a vector: which child ended first (`index`) and what it
/// returned (`value`; std::monostate for task<void>).
template <class T>
struct when_any_result {
  std::size_t index = 0;
  detail::fork_value_t<T> value;
};

/// Runs the tasks (at least one) concurrently and gives the first to end (see the header).
///   Result: std::variant<Vs...> (Vs: Ts with void replaced by std::monostate) holding the
///           winner's value as the alternative of its position: index() is the winner's index.
///   Errors: the winner's exception; std::logic_error when awaited with no executor on this
///           thread; std::bad_alloc from the frames.
///   Cancellation: the caller's stop token reaches every child (and then the first of them to
///                 end, typically early, wins); the winner's end cancels the others.
///   Resumes on: as when_all: a bound caller's home worker; on a thread_pool a worker of the
///               caller's pool (the one that ran the last child to end); elsewhere the caller's
///               executor.
///   Thread-safety: stop may be requested from any thread; the awaitable is awaited once.
///   Example:
///     auto first = co_await shoal::when_any(from_cache(key), from_disk(key));
///     if (first.index() == 0) ++cache_hits;
template <class T, class... Ts>
[[nodiscard]] auto when_any(task<T> first, task<Ts>... rest) {
  using children_type = detail::fork_tuple<T, Ts...>;
  return detail::fork_awaitable<detail::when_any_awaiter, children_type>(
      std::in_place, std::move(first), std::move(rest)...);
}

/// Runs the vector's tasks concurrently and gives the first to end.
///   Result: when_any_result<T>: `index` of the winner in the vector and its `value`
///           (std::monostate for task<void>).
///   Errors: as the variadic form, and std::invalid_argument when the vector is empty (nothing
///           can win).
///   Cancellation, Resumes on, Thread-safety: as the variadic form.
///   Example:
///     auto fastest = co_await shoal::when_any(std::move(replica_reads));
///     use(fastest.value, replicas[fastest.index]);
template <class T>
[[nodiscard]] auto when_any(std::vector<task<T>> children) {
  using children_type = detail::fork_range<T>;
  return detail::fork_awaitable<detail::when_any_awaiter, children_type>(std::in_place,
                                                                         std::move(children));
}

}  // namespace shoal
