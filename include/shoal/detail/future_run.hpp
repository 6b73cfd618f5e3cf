// SPDX-License-Identifier: Apache-2.0
// shoal/detail/future_run.hpp: the states and coroutines behind shoal/future_run.hpp.
#pragma once

#include <atomic>
#include <concepts>
#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <stop_token>
#include <type_traits>
#include <utility>
#include <vector>

#include "shoal/detail/future_state.hpp"
#include "shoal/detail/future_steps.hpp"
#include "shoal/future.hpp"
#include "shoal/stop.hpp"
#include "shoal/task.hpp"

namespace shoal::detail {

template <class X>
inline constexpr bool is_shoal_task_v = false;
template <class X>
inline constexpr bool is_shoal_task_v<task<X>> = true;

// What a job yields once its work is done: a task<X> is awaited, a future<U, E> followed.
template <class X>
struct job_value {
  using type = value_of_t<X>;
};
template <class X>
struct job_value<task<X>> : job_value<X> {};
template <class X>
  requires a_future<X>
struct job_value<X> {
  using type = typename future_traits<X>::value_type;
};
template <class Work>
struct work_result {
  using type = std::invoke_result_t<Work&>;
};
template <class X>
struct work_result<task<X>> {
  using type = task<X>;
};
template <class Work>
using job_value_t = typename job_value<std::remove_cvref_t<typename work_result<Work>::type>>::type;

// True when the work is, or makes, a coroutine: only then does the job get a stop token.
template <class Work>
inline constexpr bool runs_a_coroutine_v =
    is_shoal_task_v<std::remove_cvref_t<typename work_result<Work>::type>>;

// The state of spawn_future: cancel() requests stop of the job through `stop` (which has no
// stop state, and costs no allocation, when the work runs no coroutine).
template <class V, class E>
class spawned_state final : public following_state<V, E> {
 public:
  explicit spawned_state(bool stoppable)
      : stop(stoppable ? std::stop_source() : std::stop_source(std::nostopstate)) {}
  void on_cancel() noexcept override { stop.request_stop(); }
  std::stop_source stop;
};

// Fills `out` with what a job produced (a value, void, or a future to follow), unless nothing
// can read it any more (the future was dropped and nothing listens): then the fill's atomic
// operations are skipped, and the value is destroyed where it was made.
template <class V, class E, class... X>
void deliver(following_state<V, E>& out, X&&... produced) {
  if (out.unobserved()) return;
  if constexpr (sizeof...(X) == 1 && (a_future<std::remove_cvref_t<X>> && ...)) {
    static_assert(
        (std::is_same_v<typename future_traits<std::remove_cvref_t<X>>::failure_type, E> && ...),
        "spawn_future: a job returning a future must use the same failure type");
    out.follow(future_access::state(produced...));
  } else {
    out.succeed(std::forward<X>(produced)...);
  }
}

// The job of spawn_future: runs `work` (a task, or a function returning a value, a task or a
// future) unless cancelled before it started, and fills the state. Never throws.
template <class V, class E, class Work>
task<void> run_spawned(Work work, state_ptr<spawned_state<V, E>> out) {
  // Cancelled before it started (cancel() requests stop, then fills): never runs the work.
  if (stop_requested() || out->completed()) co_return;
  try {
    if constexpr (is_shoal_task_v<Work>) {
      if constexpr (std::is_void_v<typename Work::value_type>) {
        co_await std::move(work);
        deliver(*out);
      } else {
        deliver(*out, co_await std::move(work));
      }
    } else {
      using R = std::invoke_result_t<Work&>;
      if constexpr (std::is_void_v<R>) {
        std::invoke(work);
        deliver(*out);
      } else if constexpr (is_shoal_task_v<std::remove_cvref_t<R>>) {
        if constexpr (std::is_void_v<typename std::remove_cvref_t<R>::value_type>) {
          co_await std::invoke(work);
          deliver(*out);
        } else {
          deliver(*out, co_await std::invoke(work));
        }
      } else {
        deliver(*out, std::invoke(work));
      }
    }
  } catch (...) {
    fail_with_current_exception<E>(*out);
  }
}

// run_sequence / run_clustered: one slot per element, filled by the jobs; the last job to end
// assembles the container. The first failure fails it at once; jobs not started by then skip
// their elements, as do jobs started after a cancel.
template <class U, class E, class Out, class Data, class F>
class gather_state final : public future_state<Out, E> {
  using element = typename Data::value_type;

 public:
  gather_state(Data data, F f, std::size_t jobs)
      : data_(std::move(data)), f_(std::move(f)), slots_(data_.size()), pending_(jobs) {}

  void on_cancel() noexcept override { stop.request_stop(); }

  // Runs the elements [first, last) in order, then reports the job's end.
  void run(std::size_t first, std::size_t last) noexcept {
    auto at = std::next(data_.begin(), static_cast<std::ptrdiff_t>(first));
    for (std::size_t i = first; i < last; ++i, ++at) {
      if (this->status() != fill_status::pending || stop.stop_requested()) break;
      guarded<E>(*this, [&] {
        if constexpr (std::invocable<F&, std::size_t, const element&>) {
          slots_[i].emplace(invoke_value(f_, i, std::as_const(*at)));
        } else {
          slots_[i].emplace(invoke_value(f_, std::as_const(*at)));
        }
      });
    }
    job_ended();
  }
  [[nodiscard]] std::size_t size() const noexcept { return slots_.size(); }

  std::stop_source stop;

 private:
  void job_ended() noexcept {
    // acq_rel: the last job sees every slot the others filled.
    if (pending_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    if (this->status() == fill_status::pending) {
      guarded<E>(*this, [this] {
        Out out;
        reserve_for(out, slots_.size());
        for (auto& slot : slots_) out.push_back(std::move(*slot));
        this->succeed(std::move(out));
      });
    }
    slots_ = {};  // the last job: nothing reads the data or the slots any more
    data_ = Data{};
  }

  Data data_;
  F f_;
  std::vector<std::optional<U>> slots_;
  std::atomic<std::size_t> pending_;
};

template <class State>
task<void> run_slice(state_ptr<State> state, std::size_t first, std::size_t last) {
  state->run(first, last);
  co_return;
}

}  // namespace shoal::detail
