// SPDX-License-Identifier: Apache-2.0
// shoal/batcher.hpp: automatic batching. Many coroutines each await one call; the batcher
// gathers their arguments and runs one bulk call for all of them.
//
// What: `batcher<Arg, Result>` is built from a bulk function that gets the arguments of one batch
// in arrival order (it may move them out) and returns one Result per argument, in the same
// order. `co_await b(arg)` joins the batch being filled; the batch is flushed by size, predicate
// or time (batch_options), and always when the executors its callers suspended on have no other
// ready work, so a run never stalls on a half-full batch. Batches are independent: one may be in
// its bulk call while the next fills. A Result of item_result<T> carries a T or the error of
// that item alone. shoal/bound_batcher.hpp is the same for callers of one worker, without locks.
//
// Lifetime: destroy the batcher only after every co_await on it has returned; the bulk function
// and the executors its callers ran on must stay alive as long as it is in use.
// Thread-safety: callers on any threads and executors, concurrently; stats() and pending() from
// any thread. What a caller did before its co_await happens-before the bulk call that gets its
// argument; the bulk call happens-before every caller of its batch resumes.
// Allocation and the mechanism: docs/design/batcher.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <span>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "shoal/clock.hpp"
#include "shoal/detail/batcher_call.hpp"
#include "shoal/detail/batcher_state.hpp"
#include "shoal/task.hpp"

namespace shoal {

/// One item of a bulk result: a value, or the error of this item alone. The caller gets the
/// value or its own exception rethrown; the other callers are unaffected.
template <class T>
class item_result {
 public:
  item_result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit
  [[nodiscard]] static item_result failure(std::exception_ptr error) {
    return item_result(std::move(error));
  }
  [[nodiscard]] bool ok() const noexcept { return state_.index() == 0; }
  // The value (moved out), or the item's exception rethrown.
  T take() {
    if (!ok()) std::rethrow_exception(std::get<1>(state_));
    return std::move(std::get<0>(state_));
  }

 private:
  explicit item_result(std::exception_ptr error) : state_(std::in_place_index<1>, error) {}
  std::variant<T, std::exception_ptr> state_;
};

/// When a batch is flushed (taken, and the bulk function called once for it): as soon as one of
///   - by size: it holds `max_size` arguments (0: no limit);
///   - by predicate: `flush_if(arguments)` says so, checked after each arrival;
///   - by time: `max_wait` has passed since its first argument arrived (zero: no limit);
///   - by idleness, always: an executor that a caller in the batch suspended on has no other
///     ready work left (pool worker: nothing local, global or stealable).
template <class Arg>
struct batch_options {
  std::size_t max_size = 0;              // flush at this many arguments; 0: no limit
  duration max_wait = duration::zero();  // flush this long after the first; 0: no limit
  std::function<bool(std::span<const Arg>)> flush_if{};  // flush when true; empty: never
};

struct batcher_stats {
  std::uint64_t batches = 0;    // bulk calls started
  std::uint64_t items = 0;      // arguments sent in them
  std::uint64_t cancelled = 0;  // callers that left a batch before its flush
  // Why each batch was flushed.
  std::uint64_t by_size = 0, by_predicate = 0, by_time = 0, by_idle = 0;
};

namespace detail {
// What both batchers' constructors and stats() convert (shoal/bound_batcher.hpp uses them too).
template <class Arg>
flush_policy<Arg> policy_of(batch_options<Arg>&& o) {
  return {o.max_size, o.max_wait, std::move(o.flush_if)};
}

// The public face both batchers share over their state (batcher_state or bound_state):
// value_type, pending(), stats(), not copyable. noexcept where the state takes no lock.
template <class State>
class batcher_front {
 public:
  using value_type = typename item_traits<typename State::result_type>::value_type;

  batcher_front(const batcher_front&) = delete;
  batcher_front& operator=(const batcher_front&) = delete;

  /// Callers in the batch being filled now (a snapshot).
  [[nodiscard]] std::size_t pending() const noexcept(State::single_thread) {
    return state_.pending();
  }
  /// The counters so far (see batcher_stats).
  [[nodiscard]] batcher_stats stats() const noexcept(State::single_thread) {
    const batch_counters& c = state_.counters();
    return {c.batches, c.items, c.cancelled, c.by_size, c.by_predicate, c.by_time, c.by_idle};
  }

 protected:
  template <class... A>
  explicit batcher_front(A&&... state_args) : state_(std::forward<A>(state_args)...) {}
  ~batcher_front() = default;

  State state_;
};
}  // namespace detail

/// What `b(arg)` returns: an awaitable (see batcher::operator()).
template <class Arg, class Result>
using batch_call_awaiter = detail::batch_call<Arg, Result>;

/// Gathers the arguments of concurrent callers into bulk calls (see the top of this header).
template <class Arg, class Result>
class batcher : public detail::batcher_front<detail::batcher_state<Arg, Result>> {
  using front = detail::batcher_front<detail::batcher_state<Arg, Result>>;

 public:
  /// Bulk: shoal::task<std::vector<Result>>(std::span<Arg>) (it may await: a query, a sleep)
  /// or std::vector<Result>(std::span<Arg>) (when it is both, the awaiting one is called).
  template <class Bulk>
    requires detail::bulk_function<Bulk, Arg, Result>
  explicit batcher(Bulk bulk, batch_options<Arg> options = {})
      : front(std::move(bulk), detail::policy_of(std::move(options))) {}

  /// Joins the batch being filled with `arg`.
  /// Result: std::optional<T> with T = Result (or T for item_result<T>): the caller's own item;
  ///   nullopt when the call was cancelled.
  /// Errors: the caller's item error (item_result); the bulk function's exception, rethrown in
  ///   every caller of that batch; std::logic_error when the bulk function returned a wrong
  ///   number of results or when awaited with no executor on this thread; std::bad_alloc, or
  ///   what flush_if threw, when the call could not join (it joined nothing).
  /// Cancellation: the chain's stop token. Stopped before the await: nullopt at once, nothing
  ///   joins. Stopped while its batch fills: it leaves the batch (its argument is not sent) and
  ///   resumes promptly with nullopt. Stopped during the bulk call: the call goes on for the
  ///   others, and this caller gets nullopt when it returns. The bulk call runs under no token.
  /// Resumes on: the executor it suspended on (pinned there: each caller on its own worker).
  /// Thread-safety: any number of callers at once.
  /// Example: `shoal::batcher<user_id, prefs> get_prefs(fetch_prefs, {.max_size = 100});`
  ///          `std::optional<prefs> p = co_await get_prefs(user.id);`
  [[nodiscard]] batch_call_awaiter<Arg, Result> operator()(Arg arg) {
    return batch_call_awaiter<Arg, Result>(this->state_, std::move(arg));
  }
  // pending() and stats(): detail::batcher_front, from any thread.
};

namespace detail {
template <class T>
struct item_traits<item_result<T>> {
  using value_type = T;
  static T take(item_result<T>&& item) { return item.take(); }
};
}  // namespace detail

}  // namespace shoal
