// SPDX-License-Identifier: Apache-2.0
// shoal/detail/batch_core.hpp: what shoal::batcher and shoal::bound_batcher share, written once.
//
// The two batchers are one family: the same bulk functions, flush rules, counters and runner;
// they differ only in their home, where their callers run and how the state is guarded (any
// executor under a spin lock: batcher_state.hpp; one executor, no lock: bound_batcher_state.hpp).
// Here: the bulk function and the flush policy (batch_rules), the counters, the item a caller
// gets (item_traits), and the runner (run_batch) that calls the bulk function on a taken batch,
// checks the result count and hands the batch to its state's complete(). See
// docs/design/batcher.md.
#pragma once

#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "shoal/clock.hpp"
#include "shoal/detail/root_task.hpp"
#include "shoal/executor.hpp"
#include "shoal/task.hpp"

namespace shoal::detail {

/// The counters behind shoal::batcher_stats.
struct batch_counters {
  std::uint64_t batches = 0, items = 0, cancelled = 0;
  std::uint64_t by_size = 0, by_predicate = 0, by_time = 0, by_idle = 0;
};

/// Why a batch was flushed: the counter of its rule (null: not due).
using flush_rule = std::uint64_t batch_counters::*;

/// Counts a flush by `why` of `items` arguments.
inline void count_flush(batch_counters& c, flush_rule why, std::size_t items) noexcept {
  ++(c.*why);
  ++c.batches;
  c.items += items;
}

template <class Bulk, class Arg, class R>
concept async_bulk = std::is_invocable_r_v<task<std::vector<R>>, Bulk&, std::span<Arg>>;
template <class Bulk, class Arg, class R>
concept bulk_function =
    async_bulk<Bulk, Arg, R> || std::is_invocable_r_v<std::vector<R>, Bulk&, std::span<Arg>>;

/// What a caller gets from the bulk function's per-item result R: R itself, unless R carries an
/// error (shoal::item_result<T>, specialised in shoal/batcher.hpp), which is then rethrown.
template <class R>
struct item_traits {
  using value_type = R;
  static R take(R&& item) { return std::move(item); }
};

/// The caller's item (an R, or the proxy of one: std::vector<bool>'s) moved out of `item` into
/// the optional await_resume returns (one move), or the item's own error rethrown.
template <class R, class Item>
std::optional<typename item_traits<R>::value_type> take_item(Item&& item) {
  using value_type = typename item_traits<R>::value_type;
  if constexpr (std::is_same_v<R, value_type>) {
    return std::optional<value_type>(std::forward<Item>(item));
  } else {
    return std::optional<value_type>(item_traits<R>::take(std::forward<Item>(item)));
  }
}

/// The flush policy: shoal::batch_options, as the state keeps it.
template <class Arg>
struct flush_policy {
  std::size_t max_size = 0;
  duration max_wait = duration::zero();
  std::function<bool(std::span<const Arg>)> flush_if;
};

/// The bulk function (awaiting or plain) and the flush policy of one batcher.
template <class Arg, class R>
class batch_rules {
 public:
  template <class Bulk>
    requires bulk_function<Bulk, Arg, R>
  batch_rules(Bulk bulk, flush_policy<Arg> p)
      : policy_(std::move(p)),
        timed_(policy_.max_wait > duration::zero()),
        any_(policy_.max_size != 0 || policy_.flush_if || timed_) {
    if constexpr (async_bulk<Bulk, Arg, R>) {
      async_ = std::move(bulk);
    } else {
      sync_ = std::move(bulk);
    }
  }

  /// A rule besides idleness is set: joins must ask due().
  [[nodiscard]] bool any() const noexcept { return any_; }
  /// max_wait is set: a batch's first arrival sets its deadline.
  [[nodiscard]] bool timed() const noexcept { return timed_; }
  [[nodiscard]] time_point deadline_from(time_point first) const noexcept {
    return first + policy_.max_wait;
  }

  /// Which rule flushes `args` now (a caller just joined them), or null. When flush_if throws,
  /// calls `undo` (noexcept: takes the caller out again) and rethrows.
  template <class Undo>
  flush_rule due(const std::vector<Arg>& args, const executor& clock, time_point deadline,
                 Undo&& undo) const {
    if (!any_) return nullptr;  // only idleness flushes: one test per join
    if (policy_.max_size != 0 && args.size() >= policy_.max_size) return &batch_counters::by_size;
    if (policy_.flush_if) {
      bool flush = false;
      try {
        flush = policy_.flush_if(std::span<const Arg>(args));
      } catch (...) {
        undo();
        throw;
      }
      if (flush) return &batch_counters::by_predicate;
    }
    if (timed_ && clock.now() >= deadline) return &batch_counters::by_time;
    return nullptr;
  }

  [[nodiscard]] bool is_async() const noexcept { return static_cast<bool>(async_); }
  task<std::vector<R>> call_async(std::span<Arg> args) const { return async_(args); }
  std::vector<R> call_sync(std::span<Arg> args) const { return sync_(args); }

 private:
  std::function<task<std::vector<R>>(std::span<Arg>)> async_;
  std::function<std::vector<R>(std::span<Arg>)> sync_;
  flush_policy<Arg> policy_;  // never changes after construction: the two flags below hold
  bool timed_;
  bool any_;
};

/// The std::logic_error of a bulk function that returned a wrong number of results, naming
/// `who`; compiled in src/shoal/bound_batcher.cpp.
std::exception_ptr size_mismatch(const char* who) noexcept;

/// The runner: calls the bulk function on a taken batch, checks its result count and completes
/// it (State::complete, noexcept: delivers, recycles, resumes the callers).
template <class State, class Batch>
task<void> run_batch(State& state, Batch& b) {
  std::vector<typename State::result_type> results;
  std::exception_ptr failure;
  try {
    if (state.rules().is_async()) {
      results = co_await state.rules().call_async(std::span(b.args));
    } else {
      results = state.rules().call_sync(std::span(b.args));
    }
  } catch (...) {
    failure = std::current_exception();
  }
  if (!failure && results.size() != b.args.size()) failure = size_mismatch(State::name);
  state.complete(b, results, failure);
}

/// A batch's runner, made and not started (frames from the recycling frame allocator); bound
/// to `home` when given. Throws std::bad_alloc.
template <class State, class Batch>
std::coroutine_handle<> make_runner(State& state, Batch& b, executor* home) {
  return run_root<void>(run_batch(state, b), nullptr).start_with(&destroy_root, nullptr, home);
}

}  // namespace shoal::detail
