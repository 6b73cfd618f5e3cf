// SPDX-License-Identifier: Apache-2.0
// shoal/future_failure.hpp: what a failed shoal::future holds, and how exceptions become it.
//
// What: a `future<T, E>` (shoal/future.hpp) fails with a value of its failure type E
// (std::exception_ptr unless you name another). Three things turn into an E without you writing
// a conversion at each place:
//   - an exception thrown inside a transformation (map, flat_map, filter, recover, ...), inside a
//     job run by spawn_future / run_sequence / run_clustered, or by T's constructor while a
//     future is filled: `failure_traits<E>::from_exception(std::current_exception())`;
//   - `return shoal::with_failure<E>(reason);` from any transformation: the result fails with
//     `reason` itself (whatever the transformation's declared return type);
//   - cancel() and a promise destroyed unfilled: `from_exception` of a shoal::future_canceled or
//     a shoal::broken_promise exception.
// So E must be constructible from an exception; built in: std::exception_ptr (the exception
// itself), std::string (its what(), or "unknown exception"), and any E constructible from a
// std::exception_ptr. Any other E: specialize `shoal::failure_traits<E>` with
//   static E from_exception(std::exception_ptr e);
// It must not throw (it runs where nothing can report it: an exception from it terminates).
//
// Reading a failed future's value (value(), result(), co_await) throws: the exception itself
// when E is std::exception_ptr, else `shoal::future_failure<E>` carrying the failure. Inside a
// transformation that exception turns back into the same failure, unchanged.
//
// Thread-safety: the types here are plain values. with_failure is a helper for a return
// statement only: never store it (its conversion moves the reason out, once).
#pragma once

#include <concepts>
#include <exception>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace shoal {

// The failure of a cancelable_future whose cancel() filled it.
class future_canceled : public std::runtime_error {
 public:
  future_canceled() : std::runtime_error("shoal: future canceled") {}
};

// The failure of a future whose every promise was destroyed without filling it.
class broken_promise : public std::logic_error {
 public:
  broken_promise() : std::logic_error("shoal: promise destroyed without filling its future") {}
};

// The failure of filter() when the predicate rejects the value and no failure was given.
class value_rejected : public std::runtime_error {
 public:
  value_rejected() : std::runtime_error("shoal: filter rejected the value") {}
};

// Thrown by value()/result()/co_await on a failed future<T, E> when E is not
// std::exception_ptr; failure() is the future's failure.
template <class E>
class future_failure : public std::runtime_error {
 public:
  explicit future_failure(E failure)
      : std::runtime_error("shoal: the future failed"), failure_(std::move(failure)) {}
  [[nodiscard]] const E& failure() const noexcept { return failure_; }

 private:
  E failure_;
};

// Thrown by failure() on a future that succeeded, and by every accessor of an invalid
// (default-constructed or moved-from) future.
class bad_future_access : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// How an exception becomes a failure of type E (see the header comment).
template <class E>
struct failure_traits {
  static E from_exception(std::exception_ptr e)
    requires std::constructible_from<E, std::exception_ptr>
  {
    return E(std::move(e));
  }
};

template <>
struct failure_traits<std::string> {
  static std::string from_exception(const std::exception_ptr& e) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      return x.what();
    } catch (...) {
      return "unknown exception";
    }
  }
};

// True when E can be a future's failure type: failure_traits<E> makes one from an exception.
template <class E>
concept future_failure_type = std::copy_constructible<E> && requires(std::exception_ptr e) {
  { failure_traits<E>::from_exception(e) } -> std::convertible_to<E>;
};

namespace detail {
// What `with_failure` throws through a transformation's return statement; caught by the
// transformation, which fails with `failure`. Escapes only when E is not the future's failure
// type: then it is an ordinary exception (what() says so).
template <class E>
struct failure_carrier : std::exception {
  explicit failure_carrier(E f) : failure(std::move(f)) {}
  [[nodiscard]] const char* what() const noexcept override {
    return "shoal::with_failure<E> returned from a transformation of a future whose failure "
           "type is not E";
  }
  E failure;
};

template <class T>
inline constexpr bool is_future_like_v = requires { typename T::shoal_future_tag; };
}  // namespace detail

// Fails any transformation: `return shoal::with_failure<E>(reason);` where the transformation
// returns a T (map, recover, ...) or a future (flat_map, recover_with, ...). The future it
// produces fails with `reason`. E must be the future's failure type.
// Example:
//   f.map([](int x) -> int {
//     if (x < 0) return shoal::with_failure<std::string>("negative");
//     return x * 2;
//   });
template <class E>
class [[nodiscard]] with_failure {
 public:
  template <class... Args>
    requires std::constructible_from<E, Args&&...>
  explicit with_failure(Args&&... args) : failure_(std::forward<Args>(args)...) {}
  with_failure(const with_failure&) = delete;
  with_failure& operator=(const with_failure&) = delete;
  with_failure(with_failure&&) = delete;
  with_failure& operator=(with_failure&&) = delete;
  ~with_failure() = default;

  // Into any value type: throws the carrier the transformation turns into the failure.
  template <class U>
    requires(!detail::is_future_like_v<U>)
  [[noreturn]] operator U() && {  // NOLINT(google-explicit-constructor)
    throw detail::failure_carrier<E>(std::move(failure_));
  }

  // For future<T, E>'s constructor from a with_failure.
  E take() && { return std::move(failure_); }

 private:
  E failure_;
};

}  // namespace shoal
