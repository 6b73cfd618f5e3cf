// SPDX-License-Identifier: Apache-2.0
// shoal/future.hpp: futures with a monadic API (asynqro's), awaitable.
//
// `future<T, E>` is a handle to a value of type T that is, or will be, either there (succeeded) or
// replaced by a failure of type E (failed): filled at most once, by a shoal::promise, a job
// (shoal/future_run.hpp) or the transformation that made it; E defaults to std::exception_ptr
// (shoal/future_failure.hpp). Transformations return a new future and never block: a function
// given to one runs once, on the thread that fills the future (at once when it is complete), so
// keep it short; a failure skips the functions that take a value, and what a function throws
// fails the result. co_await gives the value without blocking a thread; wait() blocks a thread
// that is no executor's. The rules in full and the costs: docs/design/futures.md.
//
// Lifetime: futures are reference-counted handles (one pointer), copyable and movable; the state
// lives while a handle, a promise or a pending operation refers to it. A default-constructed or
// moved-from future is invalid (valid() false): every accessor throws shoal::bad_future_access.
// Thread-safety: every const member may be called on one future, or on copies, from any number of
// threads at once (assigning to a future object is not synchronised, as for std::shared_ptr).
// Memory ordering: everything the filling thread did before filling happens-before the callbacks
// run and before is_completed() / wait / co_await observe it.
#pragma once

#include <chrono>
#include <concepts>
#include <cstddef>
#include <exception>
#include <functional>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>

#include "shoal/detail/future_awaiter.hpp"
#include "shoal/detail/future_state.hpp"
#include "shoal/detail/future_steps.hpp"
#include "shoal/executor.hpp"
#include "shoal/future_failure.hpp"

namespace shoal {

template <class T, class E = std::exception_ptr>
class future;
template <class T, class E = std::exception_ptr>
class cancelable_future;
template <class T, class E = std::exception_ptr>
class promise;

namespace detail {
template <class X>
struct future_traits {
  static constexpr bool is_future = false;
};
template <class T, class E>
struct future_traits<future<T, E>> {
  static constexpr bool is_future = true;
  using value_type = T;
  using failure_type = E;
};
template <class T, class E>
struct future_traits<cancelable_future<T, E>> : future_traits<future<T, E>> {};

template <class X>
concept a_future = future_traits<std::remove_cvref_t<X>>::is_future;

/// What every accessor of an invalid handle throws.
[[noreturn]] inline void throw_invalid_future() {
  throw bad_future_access("shoal::future: invalid handle (default-constructed or moved-from)");
}
}  // namespace detail

/// A handle to a value of type T, or a failure of type E, filled at most once (see the header).
/// T is an object type, never void (std::monostate is what a function returning void gives).
template <class T, class E>
class future {
  static_assert(std::is_object_v<T> && !std::is_array_v<T> && std::is_same_v<T, std::decay_t<T>>,
                "shoal::future<T, E>: T must be a non-const object type (std::monostate for "
                "none)");
  static_assert(future_failure_type<E>,
                "shoal::future<T, E>: E must be copyable and constructible from an exception "
                "(specialize shoal::failure_traits<E>; see shoal/future_failure.hpp)");
  using state_type = detail::future_state<T, E>;

 public:
  using value_type = T;
  using failure_type = E;
  using shoal_future_tag = void;

  /// An invalid future (valid() is false).
  future() noexcept = default;
  /// A failed future: lets flat_map / recover_with functions `return with_failure<E>(reason);`.
  future(with_failure<E>&& failure)  // NOLINT(google-explicit-constructor)
      : future(failed(std::move(failure).take())) {}

  /// A future that has succeeded with T(args...).
  template <class... Args>
    requires std::constructible_from<T, Args&&...>
  [[nodiscard]] static future successful(Args&&... args) {
    detail::state_ptr<state_type> s(new state_type());
    s->succeed(std::forward<Args>(args)...);
    return future(std::move(s));
  }
  /// A future that has failed with `failure`.
  [[nodiscard]] static future failed(E failure) {
    detail::state_ptr<state_type> s(new state_type());
    s->fail(std::move(failure));
    return future(std::move(s));
  }

  /// False for a default-constructed or moved-from future. Thread-safety: any thread (see the
  /// header).
  [[nodiscard]] bool valid() const noexcept { return static_cast<bool>(state_); }
  /// True once filled, either way (a snapshot). Errors: bad_future_access when invalid.
  [[nodiscard]] bool is_completed() const { return state().completed(); }
  /// True once filled with a value (a snapshot). Errors: bad_future_access when invalid.
  [[nodiscard]] bool is_succeeded() const { return state().succeeded(); }
  /// True once filled with a failure (a snapshot). Errors: bad_future_access when invalid.
  [[nodiscard]] bool is_failed() const { return state().failed(); }

  /// Blocks the calling thread until the future is complete (wait_for: or `timeout` has passed;
  /// true when complete). Errors: std::logic_error when it would block a thread that runs a
  /// shoal executor (a pool worker, a sync_wait loop): co_await the future there. A complete
  /// future returns at once on any thread.
  void wait() const { wait_impl(std::optional<std::chrono::steady_clock::time_point>()); }
  /// As wait(), for at most `timeout`. Result: true when complete. Errors: as wait().
  template <class Rep, class Period>
  bool wait_for(const std::chrono::duration<Rep, Period>& timeout) const {
    return wait_impl(std::optional<std::chrono::steady_clock::time_point>(
        std::chrono::steady_clock::now() +
        std::chrono::ceil<std::chrono::steady_clock::duration>(timeout)));
  }
  /// As wait(), until `deadline`. Result: true when complete. Errors: as wait().
  template <class Clock, class Duration>
  bool wait_until(const std::chrono::time_point<Clock, Duration>& deadline) const {
    return wait_impl(std::optional<std::chrono::time_point<Clock, Duration>>(deadline));
  }

  /// The value (waits as wait() does). Errors: the failure, thrown as co_await throws it.
  [[nodiscard]] const T& value() const {
    wait();
    const state_type& s = state();
    if (s.failed()) detail::throw_failure(s.failure());
    return s.value();
  }
  /// asynqro's name for value().
  [[nodiscard]] const T& result() const { return value(); }
  /// The failure (waits as wait() does). Errors: shoal::bad_future_access when it succeeded.
  [[nodiscard]] const E& failure() const {
    wait();
    const state_type& s = state();
    if (!s.failed()) throw bad_future_access("shoal::future::failure: the future succeeded");
    return s.failure();
  }

  /// Callbacks: f(const T&) on success, f(const E&) on failure, f() or f(const future&) when
  /// complete either way. Return this future (a copy of the handle), for chaining. Exceptions f
  /// throws are dropped. Errors: std::bad_alloc (nothing registered).
  template <class F>
    requires std::invocable<std::decay_t<F>&, const T&>
  future on_success(F&& f) const {
    return add_callback([f = std::forward<F>(f)](state_type& s) mutable {
      if (s.succeeded()) std::invoke(f, std::as_const(s.value()));
    });
  }
  /// f(const E&) once, when the future fails; as on_success.
  template <class F>
    requires std::invocable<std::decay_t<F>&, const E&>
  future on_failure(F&& f) const {
    return add_callback([f = std::forward<F>(f)](state_type& s) mutable {
      if (s.failed()) std::invoke(f, s.failure());
    });
  }
  /// f() or f(const future&) once, when the future completes either way; as on_success.
  template <class F>
    requires(std::invocable<std::decay_t<F>&> || std::invocable<std::decay_t<F>&, const future&>)
  future on_finished(F&& f) const {
    return add_callback([f = std::forward<F>(f)](state_type& s) mutable {
      if constexpr (std::invocable<std::decay_t<F>&, const future&>) {
        s.add_ref();
        std::invoke(f, future(detail::state_ptr<state_type>(&s)));
      } else {
        std::invoke(f);
      }
    });
  }

  /// future<U, E> with U = f(value) (std::monostate when f returns void).
  template <class F>
    requires std::invocable<std::decay_t<F>&, const T&>
  auto map(F&& f) const {
    using U = detail::value_of_t<std::invoke_result_t<std::decay_t<F>&, const T&>>;
    return step<detail::future_state<U, E>>(
        [f = std::forward<F>(f)](detail::future_state<U, E>& out, state_type& src) mutable {
          if (src.failed()) {
            out.fail(src.failure());
            return;
          }
          detail::guarded<E>(out, [&] { out.succeed(detail::invoke_value(f, src.value())); });
        });
  }

  /// future<T, E2> with E2 = f(failure); the value passes unchanged. Needs a copyable T.
  template <class F>
    requires std::invocable<std::decay_t<F>&, const E&> && std::copy_constructible<T>
  auto map_failure(F&& f) const {
    using E2 = std::remove_cvref_t<std::invoke_result_t<std::decay_t<F>&, const E&>>;
    static_assert(future_failure_type<E2>, "map_failure: the new failure type must be one");
    return step<detail::future_state<T, E2>>(
        [f = std::forward<F>(f)](detail::future_state<T, E2>& out, state_type& src) mutable {
          if (src.succeeded()) {
            out.succeed(src.value());
            return;
          }
          detail::guarded<E2>(out, [&] { out.fail(std::invoke(f, src.failure())); });
        });
  }

  /// f(value) returns a future<U, E> (or cancelable_future); the result completes with it.
  template <class F>
    requires std::invocable<std::decay_t<F>&, const T&>
  auto flat_map(F&& f) const {
    using R = std::remove_cvref_t<std::invoke_result_t<std::decay_t<F>&, const T&>>;
    static_assert(detail::a_future<R>, "flat_map: the function must return a shoal::future");
    using U = typename detail::future_traits<R>::value_type;
    static_assert(std::is_same_v<typename detail::future_traits<R>::failure_type, E>,
                  "flat_map: the returned future must have the same failure type");
    return step<detail::following_state<U, E>>(
        [f = std::forward<F>(f)](detail::following_state<U, E>& out, state_type& src) mutable {
          if (src.failed()) {
            out.fail(src.failure());
            return;
          }
          detail::guarded<E>(out, [&] {
            R inner = std::invoke(f, std::as_const(src.value()));
            out.follow(detail::future_access::state(inner));
          });
        });
  }

  /// flat_map ignoring the value: f() returns a future<U, E>.
  template <class F>
    requires std::invocable<std::decay_t<F>&>
  auto and_then(F&& f) const {
    return flat_map([f = std::forward<F>(f)](const T& /*ignored*/) mutable { return f(); });
  }

  /// map to a known value: the result succeeds with a copy of `v` when this one succeeds.
  template <class V>
  auto and_then_value(V&& v) const {
    return map([v = std::forward<V>(v)](const T& /*ignored*/) { return v; });
  }

  /// Fails with `rejected` (default: from shoal::value_rejected) unless pred(value) is true.
  /// Needs a copyable T.
  template <class F>
    requires std::predicate<std::decay_t<F>&, const T&> && std::copy_constructible<T>
  future filter(F&& pred, std::optional<E> rejected = std::nullopt) const {
    return step<state_type>([pred = std::forward<F>(pred), rejected = std::move(rejected)](
                                state_type& out, state_type& src) mutable {
      if (src.failed()) {
        out.fail(src.failure());
        return;
      }
      detail::guarded<E>(out, [&] {
        if (std::invoke(pred, std::as_const(src.value()))) {
          out.succeed(src.value());
        } else if (rejected) {
          out.fail(*rejected);
        } else {
          throw value_rejected();
        }
      });
    });
  }

  /// A failed future becomes successful with f(failure). Needs a copyable T.
  template <class F>
    requires std::invocable<std::decay_t<F>&, const E&> && std::copy_constructible<T>
  future recover(F&& f) const {
    return step<state_type>([f = std::forward<F>(f)](state_type& out, state_type& src) mutable {
      if (src.succeeded()) {
        out.succeed(src.value());
        return;
      }
      detail::guarded<E>(out, [&] { out.succeed(std::invoke(f, src.failure())); });
    });
  }

  /// A failed future completes as f(failure), a future<T, E>. Needs a copyable T.
  template <class F>
    requires std::invocable<std::decay_t<F>&, const E&> && std::copy_constructible<T>
  future recover_with(F&& f) const {
    using R = std::remove_cvref_t<std::invoke_result_t<std::decay_t<F>&, const E&>>;
    static_assert(detail::a_future<R>, "recover_with: the function must return a shoal::future");
    static_assert(std::is_same_v<typename detail::future_traits<R>::value_type, T> &&
                      std::is_same_v<typename detail::future_traits<R>::failure_type, E>,
                  "recover_with: the function must return a future<T, E>");
    return step<detail::following_state<T, E>>(
        [f = std::forward<F>(f)](detail::following_state<T, E>& out, state_type& src) mutable {
          if (src.succeeded()) {
            out.succeed(src.value());
            return;
          }
          detail::guarded<E>(out, [&] {
            R inner = std::invoke(f, src.failure());
            out.follow(detail::future_access::state(inner));
          });
        });
  }

  /// A failed future becomes successful with a copy of `v`.
  future recover_value(T v) const
    requires std::copy_constructible<T>
  {
    return recover([v = std::move(v)](const E& /*ignored*/) { return v; });
  }

  /// future<std::tuple<T, Us...>, E> once this and every other future has succeeded; fails with
  /// the first failure (in time). A tuple value contributes its elements: zipping a future of
  /// tuple<A, B> with one of C gives tuple<A, B, C>. Needs copyable values.
  template <class... Fs>
    requires(sizeof...(Fs) > 0 && (detail::a_future<Fs> && ...))
  auto zip(const Fs&... others) const {
    static_assert((std::is_same_v<typename detail::future_traits<Fs>::failure_type, E> && ...),
                  "zip: every future must have the same failure type");
    using zip_state = detail::zip_state<E, std::make_index_sequence<sizeof...(Fs) + 1>, T,
                                        typename detail::future_traits<Fs>::value_type...>;
    using result = detail::zip_result_t<T, typename detail::future_traits<Fs>::value_type...>;
    auto* s = new zip_state(state_ptr_copy(), detail::future_access::ptr(others)...);
    detail::state_ptr<detail::future_state<result, E>> owner(s);
    s->start();
    return future<result, E>(std::move(owner));
  }
  /// zip with a value known now.
  template <class V>
  auto zip_value(V&& v) const {
    return zip(future<std::decay_t<V>, E>::successful(std::forward<V>(v)));
  }

  /// On a future of a sequence container (std::vector<X>, std::deque, std::list):
  /// inner_map: each element through f (future<C<U>, E>); inner_filter: the elements pred keeps;
  /// inner_reduce: f(f(f(acc, x0), x1), ...); inner_flatten: a C<C2<Y>> into a C<Y>.
  template <class F>
    requires detail::sequence_container<T> &&
             std::invocable<std::decay_t<F>&, const typename T::value_type&>
  auto inner_map(F&& f) const {
    return map([f = std::forward<F>(f)](const T& seq) mutable {
      using U =
          detail::value_of_t<std::invoke_result_t<std::decay_t<F>&, const typename T::value_type&>>;
      detail::rebind_sequence_t<T, U> out;
      detail::reserve_for(out, seq.size());
      for (const auto& x : seq) out.push_back(detail::invoke_value(f, x));
      return out;
    });
  }
  /// On a future of a sequence container: the elements pred keeps (see inner_map).
  template <class F>
    requires detail::sequence_container<T> &&
             std::predicate<std::decay_t<F>&, const typename T::value_type&>
  future inner_filter(F&& pred) const {
    return map([pred = std::forward<F>(pred)](const T& seq) mutable {
      T out;
      for (const auto& x : seq) {
        if (std::invoke(pred, x)) out.push_back(x);
      }
      return out;
    });
  }
  /// On a future of a sequence container: f(f(f(acc, x0), x1), ...) (see inner_map).
  template <class F, class Acc>
    requires detail::sequence_container<T>
  auto inner_reduce(F&& f, Acc acc) const {
    return map([f = std::forward<F>(f), acc = std::move(acc)](const T& seq) mutable {
      Acc result = acc;
      for (const auto& x : seq) result = std::invoke(f, std::move(result), x);
      return result;
    });
  }
  /// On a future of a container of containers: a C<C2<Y>> into a C<Y> (see inner_map).
  auto inner_flatten() const
    requires detail::sequence_container<T> && detail::sequence_container<typename T::value_type>
  {
    return map([](const T& seq) {
      detail::rebind_sequence_t<T, typename T::value_type::value_type> out;
      for (const auto& inner : seq) {
        for (const auto& x : inner) out.push_back(x);
      }
      return out;
    });
  }

  /// Awaiting a future (`co_await f`, `co_await std::move(f)`):
  ///   Result: `co_await f` gives const T& into the state (valid while f lives); `co_await
  ///           std::move(f)` gives T (moved out when this handle is the only one left, or when T
  ///           is move-only, else a copy).
  ///   Errors: the failure: rethrown as is when E is std::exception_ptr, else
  ///           shoal::future_failure<E> carrying it; shoal::future_canceled when the chain is
  ///           stopped first; std::logic_error when it must wait and the thread runs no executor;
  ///           std::bad_alloc (a stoppable chain's node).
  ///   Cancellation: the awaiting chain's stop token (shoal/stop.hpp): a stop request wakes the
  ///                 await at once and it throws shoal::future_canceled (one requested before it
  ///                 begins: at once, without suspending). The future itself is untouched: it is
  ///                 still filled later, for its other handles. To cancel the work behind the
  ///                 future, cancel its provider (cancelable_future::cancel()).
  ///   Resumes on: the awaiting coroutine's own executor: its home worker (pinned) when the chain
  ///   is
  ///               bound, else posted to the worker it suspended on (which, like every unbound
  ///               wake-up in a pool, an idle sibling may take). Never on the filling thread; at
  ///               once, without suspending, when the future is already complete.
  ///   Thread-safety: any number of coroutines may await one future (or copies) at once.
  ///   Example:
  ///     shoal::future<int> f = fetch();
  ///     int v = co_await std::move(f);
  auto operator co_await() const& { return detail::future_awaiter<T, E, false>(&state()); }
  /// The same, moving the value out: see `operator co_await() const&`.
  auto operator co_await() && {
    check_valid();
    return detail::future_awaiter<T, E, true>(std::move(state_));
  }

  /// Two handles to the same state.
  friend bool operator==(const future& a, const future& b) noexcept {
    return a.state_.get() == b.state_.get();
  }

 protected:
  explicit future(detail::state_ptr<state_type> s) noexcept : state_(std::move(s)) {}
  [[nodiscard]] state_type& state() const {
    check_valid();
    return *state_;
  }

 private:
  template <class, class>
  friend class future;
  friend struct detail::future_access;

  void check_valid() const {
    if (!state_) [[unlikely]]
      detail::throw_invalid_future();
  }
  [[nodiscard]] detail::state_ptr<state_type> state_ptr_copy() const {
    check_valid();
    return state_;
  }

  template <class Out, class Body>
  auto step(Body&& body) const {
    auto out = detail::start_step<Out>(state(), std::forward<Body>(body));
    return future_of(std::move(out));
  }
  template <class U, class E2>
  static future<U, E2> future_of(detail::state_ptr<detail::future_state<U, E2>> s) noexcept {
    return future<U, E2>(std::move(s));
  }
  template <class U, class E2>
  static future<U, E2> future_of(detail::state_ptr<detail::following_state<U, E2>> s) noexcept {
    return future<U, E2>(detail::state_ptr<detail::future_state<U, E2>>(std::move(s)));
  }

  template <class Body>
  future add_callback(Body&& body) const {
    state_type& s = state();
    s.then(new detail::callback_node<T, E, std::decay_t<Body>>(std::forward<Body>(body)));
    return *this;
  }

  template <class Deadline>
  bool wait_impl(const std::optional<Deadline>& deadline) const {
    state_type& s = state();
    if (s.completed()) return true;
    if (executor::current() != nullptr) {
      throw std::logic_error(
          "shoal::future::wait would block a thread that runs a shoal executor (a pool "
          "worker, a sync_wait loop): co_await the future instead");
    }
    return detail::blocking_waiter<T, E>::wait(s, deadline);
  }

  detail::state_ptr<state_type> state_;
};

/// A future whose provider may be asked to give up: cancel() fills it at once with the failure
/// made from shoal::future_canceled (when it is not filled yet) and tells the provider (a job of
/// spawn_future / run_sequence / run_clustered gets a stop request on its std::stop_token; a
/// promise's owner sees is_filled()). Cancellation is a hint: work already running may finish,
/// its result is dropped. Every transformation returns a plain future, so nothing downstream can
/// cancel the source. Thread-safety: cancel() from any thread, any number of times.
template <class T, class E>
class cancelable_future : public future<T, E> {
 public:
  /// An invalid cancelable future (valid() is false).
  cancelable_future() noexcept = default;

  /// True when this call filled the future. Errors: what failure_traits<E>::from_exception
  /// throws (std::bad_alloc).
  bool cancel() const {
    auto& s = this->state();
    if (s.status() != detail::fill_status::pending) return false;
    // Fill first, then tell the provider: a job told first could fill it with its own result.
    if (!s.fail(failure_traits<E>::from_exception(std::make_exception_ptr(future_canceled())))) {
      return false;
    }
    s.on_cancel();
    return true;
  }

 private:
  friend struct detail::future_access;
  template <class, class>
  friend class promise;
  explicit cancelable_future(detail::state_ptr<detail::future_state<T, E>> s) noexcept
      : future<T, E>(std::move(s)) {}
};

/// zip as a free function: zip(a, b, c) is a.zip(b, c).
template <class F, class... Fs>
  requires(detail::a_future<F> && sizeof...(Fs) > 0 && (detail::a_future<Fs> && ...))
auto zip(const F& first, const Fs&... others) {
  return first.zip(others...);
}

/// future<C<T>, E> from a container C of future<T, E> (or cancelable_future): succeeds with the
/// values in the container's order once all have succeeded; fails with the first failure in
/// that order (waiting for the futures before it). An empty container succeeds at once.
/// Needs a copyable T. Cost: one state; it waits on one future at a time.
/// Errors (thrown here): shoal::bad_future_access when one of the futures is invalid.
template <class Futures>
  requires detail::a_future<typename Futures::value_type>
auto sequence(Futures futures) {
  for (const auto& f : futures) static_cast<void>(detail::future_access::state(f));
  using traits = detail::future_traits<typename Futures::value_type>;
  using T = typename traits::value_type;
  using E = typename traits::failure_type;
  using out_type = detail::rebind_sequence_t<Futures, T>;
  using state = detail::sequence_state<T, E, Futures, out_type, false>;
  auto* s = new state(std::move(futures));
  detail::state_ptr<detail::future_state<out_type, E>> owner(s);
  s->start();
  return detail::future_access::adopt<future<out_type, E>>(std::move(owner));
}

/// Like sequence, but never fails: future<pair<values, failures>, E>, both
/// std::unordered_map<std::size_t, ...> keyed by the input's position.
template <class Futures>
  requires detail::a_future<typename Futures::value_type>
auto sequence_with_failures(Futures futures) {
  for (const auto& f : futures) static_cast<void>(detail::future_access::state(f));
  using traits = detail::future_traits<typename Futures::value_type>;
  using T = typename traits::value_type;
  using E = typename traits::failure_type;
  using out_type =
      std::pair<std::unordered_map<std::size_t, T>, std::unordered_map<std::size_t, E>>;
  using state = detail::sequence_state<T, E, Futures, out_type, true>;
  auto* s = new state(std::move(futures));
  detail::state_ptr<detail::future_state<out_type, E>> owner(s);
  s->start();
  return detail::future_access::adopt<future<out_type, E>>(std::move(owner));
}

}  // namespace shoal
