// SPDX-License-Identifier: Apache-2.0
// shoal/future_run.hpp: run work on a thread_pool and get a cancelable_future of its result.
//
// `spawn_future` runs one piece of work as a job; `run_sequence` and `run_clustered` run a
// function over a container's elements, one job per element or per cluster. E (the first template
// argument, std::exception_ptr by default) is the failure type: what the work throws becomes
// failure_traits<E>::from_exception (or the with_failure reason). Costs: docs/design/futures.md.
// Lambdas: pass a coroutine lambda itself, `spawn_future(pool, [&]() -> task<int> {...})`: it is
// moved into the job and outlives the coroutine it makes. `spawn_future(pool, [&]() -> task<int>
// {...}())` would run a coroutine whose captures died with the temporary lambda.
//
// Lifetime: the jobs are the pool's spawned chains: pool.stop() waits for them (and refuses while
// one is suspended on what nothing will make ready). The future may be dropped at any time; the
// job still runs (cancel it first to skip it).
// Thread-safety: any thread, like pool.spawn.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <exception>
#include <type_traits>
#include <utility>

#include "shoal/detail/future_run.hpp"
#include "shoal/future.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal {

namespace detail {
template <class E, class Work, class Spawn>
auto start_job(Work&& work, Spawn&& spawn) {
  using work_type = std::remove_cvref_t<Work>;
  using V = job_value_t<work_type>;
  using state = spawned_state<V, E>;
  state_ptr<state> s(new state(runs_a_coroutine_v<work_type>));
  std::stop_token token = s->stop.get_token();
  s->add_ref_unshared();  // the job's reference: nothing else sees the state yet
  spawn(run_spawned<V, E, work_type>(std::forward<Work>(work), state_ptr<state>(s.get())),
        std::move(token));
  return future_access::adopt<cancelable_future<V, E>>(state_ptr<future_state<V, E>>(std::move(s)));
}

template <class Work>
concept spawnable_work = is_shoal_task_v<std::remove_cvref_t<Work>> || std::invocable<Work&>;
}  // namespace detail

/// Runs `work` as a job on the pool, detached (as pool.spawn): `work` is a task<X>, or a
/// function returning X, a task<X> or a future.
///   Result: a cancelable_future<V, E>: V is X (std::monostate for void); when the work yields a
///           future<U, E>, V is U and the result completes when that future does, without a thread
///           held while it waits.
///   Errors (thrown here): std::bad_alloc. Everything else is the future's failure.
///   Cancellation: cancel() on the returned future fills it at once with the canceled failure,
///                 then requests stop on the job's std::stop_token, the implicit token of the
///                 job's task environment: `shoal::stop_requested()`, sleeps, channels... inside
///                 the work see it. A job cancelled before it started never runs its work. Work
///                 that runs no coroutine (a function returning a value or a future) gets no stop
///                 token (so no stop state to allocate): cancel only keeps it from starting, as in
///                 asynqro.
///   Resumes on: nothing is awaited here; the work runs on a worker of the pool (any: unbound).
///   Thread-safety: any thread, like pool.spawn.
///   Example:
///     shoal::cancelable_future<int> f = shoal::spawn_future(pool, compute());  // task<int>
///     f.map([](int v) { return v * 2; }).on_success([](int v) { log(v); });
template <class E = std::exception_ptr, class Work>
  requires detail::spawnable_work<Work>
[[nodiscard]] auto spawn_future(thread_pool& pool, Work&& work) {
  return detail::start_job<E>(std::forward<Work>(work), [&](task<void> t, std::stop_token token) {
    pool.spawn(std::move(t), std::move(token));
  });
}

/// spawn_future, the job bound to worker k (as pool.spawn_on).
///   Errors (thrown here): std::bad_alloc; std::out_of_range for k >= pool.size().
///   Result, Cancellation, Thread-safety: as spawn_future; the work runs on worker k.
template <class E = std::exception_ptr, class Work>
  requires detail::spawnable_work<Work>
[[nodiscard]] auto spawn_future_on(thread_pool& pool, std::size_t k, Work&& work) {
  static_cast<void>(pool.worker(k));  // std::out_of_range before anything is allocated
  return detail::start_job<E>(std::forward<Work>(work), [&](task<void> t, std::stop_token token) {
    pool.spawn_on(k, std::move(t), std::move(token));
  });
}

namespace detail {
// f(element) or f(index, element).
template <class F, class Element>
struct element_call {
  using type = std::invoke_result_t<F&, const Element&>;
};
template <class F, class Element>
  requires std::invocable<F&, std::size_t, const Element&>
struct element_call<F, Element> {
  using type = std::invoke_result_t<F&, std::size_t, const Element&>;
};
template <class F, class Data>
concept element_function = std::invocable<F&, const typename Data::value_type&> ||
                           std::invocable<F&, std::size_t, const typename Data::value_type&>;

template <class E, class Data, class F>
auto run_split(thread_pool& pool, Data data, F f, std::size_t clusters) {
  using element = typename Data::value_type;
  using U = value_of_t<typename element_call<F, element>::type>;
  using out_type = rebind_sequence_t<Data, U>;
  using state = gather_state<U, E, out_type, Data, F>;
  const std::size_t n = data.size();
  if (n == 0) {
    return future_access::adopt<cancelable_future<out_type, E>>(
        future_access::ptr(future<out_type, E>::successful()));
  }
  clusters = std::clamp<std::size_t>(clusters, 1, n);
  state_ptr<state> s(new state(std::move(data), std::move(f), clusters));
  auto result =
      future_access::adopt<cancelable_future<out_type, E>>(state_ptr<future_state<out_type, E>>(s));
  std::size_t first = 0;
  for (std::size_t c = 0; c < clusters; ++c) {
    // Cluster sizes differ by at most one element.
    const std::size_t last = first + n / clusters + (c < n % clusters ? 1 : 0);
    pool.spawn(run_slice(s, first, last), s->stop.get_token());
    first = last;
  }
  return result;
}
}  // namespace detail

/// One job per element, f(element) (or f(index, element)) each, concurrently. `data` is moved
/// into the operation; f is called concurrently from several workers (it must allow that) and
/// receives const references to the elements.
///   Result: a cancelable_future<C<U>, E> of the results in the order of `data` (C is data's
///           container, rebound to U); an empty `data` succeeds at once.
///   Errors (thrown here): std::bad_alloc. What f throws fails the future.
///   Cancellation: as spawn_future's; jobs skip the elements they have not started once the
///                 future is complete (cancelled, or failed by an earlier element).
///   Thread-safety: any thread, like pool.spawn.
template <class E = std::exception_ptr, class Data, class F>
  requires detail::sequence_container<Data> && detail::element_function<F, Data>
[[nodiscard]] auto run_sequence(thread_pool& pool, Data data, F f) {
  const std::size_t n = data.size();
  return detail::run_split<E>(pool, std::move(data), std::move(f), n);
}

/// run_sequence's results, but the elements are split into at most pool.size() contiguous
/// clusters of at least `min_cluster` elements each, one job per cluster running its elements in
/// order: fewer jobs for cheap f. Result, Errors, Cancellation, Thread-safety: as run_sequence.
template <class E = std::exception_ptr, class Data, class F>
  requires detail::sequence_container<Data> && detail::element_function<F, Data>
[[nodiscard]] auto run_clustered(thread_pool& pool, Data data, F f, std::size_t min_cluster = 1) {
  const std::size_t n = data.size();
  const std::size_t by_size = n / std::max<std::size_t>(min_cluster, 1);
  return detail::run_split<E>(pool, std::move(data), std::move(f),
                              std::min(pool.size(), std::max<std::size_t>(by_size, 1)));
}

}  // namespace shoal
