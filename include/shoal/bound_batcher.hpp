// SPDX-License-Identifier: Apache-2.0
// shoal/bound_batcher.hpp: automatic batching for callers on one executor, without atomics or
// locks. The worker-bound sibling of shoal::batcher (shoal/batcher.hpp).
//
// What: `bound_batcher<Arg, Result>` gathers the arguments of many coroutines awaiting
// `co_await b(arg)` into one bulk call, exactly like shoal::batcher (same bulk functions, same
// batch_options and flush rules, same item_result, same stats), but every caller must run on one
// executor, its home: a pool worker (a chain bound there by spawn_on or schedule_on), sync_wait's
// loop, or a test scheduler. In exchange a call takes no lock and no atomic read-modify-write.
// Which one: bound_batcher when the callers of a batch live on one worker anyway (per-worker
// sharding, a terminal pinned to its thread, a program under sync_wait); shoal::batcher when
// callers run anywhere in a pool and should share batches across workers.
//
// Lifetime: destroy the batcher only after every co_await on it has returned; the bulk function
// and the home executor must stay alive as long as it is in use.
// Thread-safety: co_await, pending() and stats() on the home executor's thread only (an await
// from elsewhere throws shoal::wrong_executor before anything is touched; pending() and stats()
// are not checked). The destructor may run on any thread. A stop requested on another thread
// happens-before the stopped caller resumes. Allocation and mechanism: docs/design/batcher.md.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <type_traits>
#include <utility>

#include "shoal/batcher.hpp"  // item_result, batch_options, batcher_stats
#include "shoal/detail/bound_batcher_call.hpp"
#include "shoal/detail/bound_batcher_state.hpp"
#include "shoal/executor.hpp"

namespace shoal {

/// Thrown by a bound_batcher awaited from another executor than its home (or from none): a bug
/// in the caller; the message says which executors.
class wrong_executor : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// What `b(arg)` returns: an awaitable (see bound_batcher::operator()).
template <class Arg, class Result>
using bound_call_awaiter = detail::bound_call<Arg, Result>;

/// Gathers the arguments of callers on one executor into bulk calls (see the top of this header).
template <class Arg, class Result>
class bound_batcher : public detail::batcher_front<detail::bound_state<Arg, Result>> {
  using front = detail::batcher_front<detail::bound_state<Arg, Result>>;

 public:
  /// Bulk: shoal::task<std::vector<Result>>(std::span<Arg>) or std::vector<Result>(std::span<Arg>),
  /// as for shoal::batcher. Bound to the executor running this thread; std::logic_error when
  /// there is none.
  template <class Bulk>
    requires detail::bulk_function<Bulk, Arg, Result>
  explicit bound_batcher(Bulk bulk, batch_options<Arg> options = {})
      : bound_batcher(detail::current_executor_or_throw("shoal::bound_batcher"), std::move(bulk),
                      std::move(options)) {}
  /// Bound to `home`.
  template <class Bulk>
    requires detail::bulk_function<Bulk, Arg, Result>
  bound_batcher(executor& home, Bulk bulk, batch_options<Arg> options = {})
      : front(home, std::move(bulk), detail::policy_of(std::move(options))) {}

  /// Joins the batch being filled with `arg` (built in place in the awaiter).
  /// Result: std::optional<T> with T = Result (or T for item_result<T>): the caller's own item;
  ///   nullopt when the call was cancelled.
  /// Errors: shoal::wrong_executor when awaited off the home executor; the caller's item error
  ///   (item_result); the bulk function's exception, rethrown in every caller of that batch;
  ///   std::logic_error when the bulk function returned a wrong number of results.
  /// Cancellation: the chain's stop token. Stopped before the await: nullopt at once, nothing
  ///   joins. Stopped while its batch fills: it leaves the batch (its argument is not sent) and
  ///   resumes with nullopt after one trip through home's ready queue. Stopped during the bulk
  ///   call: the call goes on for the others, and this caller gets nullopt when it returns.
  /// Resumes on: the home executor (always: it is also where it was awaited).
  /// Thread-safety: any number of callers, all on the home executor.
  /// Example (on worker k, e.g. in a chain started by pool.spawn_on(k, ...)):
  ///   `shoal::bound_batcher<user_id, prefs> get_prefs(fetch_prefs, {.max_size = 100});`
  ///   `std::optional<prefs> p = co_await get_prefs(user.id);`
  template <class A = Arg>
    requires std::is_constructible_v<Arg, A&&>
  [[nodiscard]] bound_call_awaiter<Arg, Result> operator()(A&& arg) {
    return bound_call_awaiter<Arg, Result>(this->state_, std::forward<A>(arg));
  }

  /// The executor every caller must run on.
  [[nodiscard]] executor& home() const noexcept { return this->state_.home(); }
  // pending() and stats(): detail::batcher_front, on home's thread only.
};

}  // namespace shoal
