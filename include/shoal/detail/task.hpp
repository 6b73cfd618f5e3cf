// SPDX-License-Identifier: Apache-2.0
// shoal/detail/task.hpp: promise, result storage and awaiters behind shoal/task.hpp.
//
// Lifetime: the task object owns the frame. The frame is created suspended, started by the first
// co_await (which records the awaiter as continuation and hands its env down), and suspends at
// its final point, where control goes back to the continuation by symmetric transfer.
// Thread-safety: a task and its frame are used by one thread at a time.
#pragma once

#include <algorithm>
#include <coroutine>
#include <cstddef>
#include <exception>
#include <memory>
#include <new>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <variant>

#include "shoal/detail/env_awaiter.hpp"
#include "shoal/detail/fork_handoff.hpp"
#include "shoal/detail/frame_class.hpp"
#include "shoal/detail/join_point.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/detail/transfer.hpp"
#include "shoal/frame_allocator.hpp"

namespace shoal {
template <class T>
class task;
}  // namespace shoal

namespace shoal::detail {

// True for task<T>.
template <class T>
inline constexpr bool is_task_v = false;
template <class T>
inline constexpr bool is_task_v<task<T>> = true;

// Every shoal coroutine frame comes from the recycling frame allocator, aligned for its
// promise (CRTP: Promise is the coroutine's promise type). An ordinary frame (promise and locals
// aligned to 16 bytes or less) takes the size-class cache and no extra byte. With
// SHOAL_CORO_ALIGNED_ALLOCATION (set with clang's -fcoro-aligned-allocation by shoal's CMake
// target) clang passes every frame's own alignment, locals included, to the align_val_t pair;
// without the flag clang would pick the aligned delete with two arguments and fail to compile an
// over-aligned promise, so the pair exists only with it. See shoal/frame_allocator.hpp.
template <class Promise>
struct frame_allocated {
  static void* operator new(std::size_t size) { return allocate(size, alignof(Promise)); }
  static void operator delete(void* frame, std::size_t size) noexcept {
    deallocate(frame, size, alignof(Promise));
  }
#if SHOAL_CORO_ALIGNED_ALLOCATION
  static void* operator new(std::size_t size, std::align_val_t alignment) {
    return allocate(size, frame_alignment(alignment));
  }
  static void operator delete(void* frame, std::size_t size, std::align_val_t alignment) noexcept {
    deallocate(frame, size, frame_alignment(alignment));
  }
#endif

 private:
  static std::size_t frame_alignment(std::align_val_t frame) noexcept {
    return std::max(static_cast<std::size_t>(frame), alignof(Promise));
  }
  static void* allocate(std::size_t size, std::size_t alignment) {
    if (alignment <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) return frame_allocate_sized(size);
    return frame_allocate(size, std::align_val_t{alignment});
  }
  static void deallocate(void* frame, std::size_t size, std::size_t alignment) noexcept {
    if (alignment <= __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
      frame_deallocate_sized(frame, size);
    } else {
      frame_deallocate(frame, size, std::align_val_t{alignment});
    }
  }

  friend Promise;
  frame_allocated() = default;
};

// The outcome of a coroutine: nothing yet, a value, or an exception. A tagged union rather than
// std::variant: setting and destroying it are a store and a test on the paths every task takes.
template <class T>
class task_result {
  using stored =
      std::conditional_t<std::is_reference_v<T>, std::add_pointer_t<std::remove_reference_t<T>>, T>;
  enum class state : unsigned char { empty, value, error };

 public:
  task_result() noexcept {}  // NOLINT(modernize-use-equals-default): the union stays unset
  task_result(const task_result&) = delete;
  task_result& operator=(const task_result&) = delete;
  ~task_result() { clear(); }

  template <class U>
  void set_value(U&& value) {
    if (state_ != state::empty) [[unlikely]] {
      clear();
    }
    set_first_value(std::forward<U>(value));
  }
  // set_value when nothing is stored yet (a coroutine's co_return, which runs once): no test of
  // a previous outcome on the path every task takes.
  template <class U>
  void set_first_value(U&& value) {
    if constexpr (std::is_reference_v<T>) {
      ::new (static_cast<void*>(std::addressof(value_))) stored(std::addressof(value));
    } else {
      ::new (static_cast<void*>(std::addressof(value_))) stored(std::forward<U>(value));
    }
    state_ = state::value;
  }
  void set_exception(std::exception_ptr e) noexcept {
    clear();
    ::new (static_cast<void*>(std::addressof(error_))) std::exception_ptr(std::move(e));
    state_ = state::error;
  }
  // The stored exception, or null.
  [[nodiscard]] std::exception_ptr error() const noexcept { return failed() ? error_ : nullptr; }
  [[nodiscard]] bool failed() const noexcept { return state_ == state::error; }

  // Rethrows a stored exception; otherwise returns the value (moved out for rvalue access).
  T take() {
    rethrow_if_failed();
    if constexpr (std::is_reference_v<T>) {
      return static_cast<T>(*value_);
    } else {
      return std::move(value_);  // a value: checked by rethrow_if_failed
    }
  }
  // The value, known to be there (a when_all child when none failed): no test of the outcome.
  std::add_lvalue_reference_t<T> known_value() noexcept {
    if constexpr (std::is_reference_v<T>) {
      return *value_;
    } else {
      return value_;
    }
  }
  std::add_lvalue_reference_t<T> get() {
    rethrow_if_failed();
    if constexpr (std::is_reference_v<T>) {
      return *value_;
    } else {
      return value_;
    }
  }

 private:
  void clear() noexcept {
    if (state_ == state::value) {
      value_.~stored();
    } else if (state_ == state::error) {
      error_.~exception_ptr();
    }
    state_ = state::empty;
  }
  // Rethrows a stored exception; throws std::logic_error when there is no outcome at all.
  void rethrow_if_failed() const {
    if (state_ != state::value) [[unlikely]] {
      throw_outcome();
    }
  }
  [[noreturn, gnu::cold, gnu::noinline]] void throw_outcome() const {
    if (failed()) std::rethrow_exception(error_);
    throw std::logic_error("shoal: the result of a task that has not completed");
  }

  union {
    stored value_;
    std::exception_ptr error_;
  };
  state state_ = state::empty;
};

template <>
class task_result<void> {
 public:
  void set_exception(std::exception_ptr e) noexcept { exception_ = std::move(e); }
  [[nodiscard]] std::exception_ptr error() const noexcept { return exception_; }
  [[nodiscard]] bool failed() const noexcept { return exception_ != nullptr; }
  void take() const {
    if (exception_) std::rethrow_exception(exception_);
  }
  void get() const { take(); }

 private:
  std::exception_ptr exception_;
};

// Final suspension of a task: hand control back to whoever awaited it or, for a task started
// as a when_all/when_any child, report its end to its join (after which the frame may be
// destroyed by the parent at any moment: nothing of it is touched again) and go on into the
// parent, when this child ended its wait, or into the next forked child (fork_handoff.hpp).
struct final_transfer {
  bool await_ready() const noexcept { return false; }
  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> self) noexcept {
    auto& promise = self.promise();
    if (promise.fork != nullptr) {
      return transfer_nonnull(promise.fork->child_ended(self.address(), promise.result().failed()));
    }
    return transfer(promise.continuation);
  }
  void await_resume() const noexcept {}
};

// Initial suspension of a task: when it starts, its env becomes the thread's current env.
struct initial_suspend_env {
  promise_base* promise;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  void await_resume() const noexcept { current_env = promise->env; }
};

template <class T>
class task_promise_common : public promise_base {
 public:
  initial_suspend_env initial_suspend() noexcept { return {this}; }
  template <class Awaitable>
  auto await_transform(Awaitable&& awaitable) {
    return wrap_in_env(std::forward<Awaitable>(awaitable), *this);
  }
  final_transfer final_suspend() const noexcept { return {}; }
  void unhandled_exception() noexcept { result_.set_exception(std::current_exception()); }
  task_result<T>& result() noexcept { return result_; }

 protected:
  task_result<T> result_;
};

template <class T>
class task_promise final : public task_promise_common<T>, public frame_allocated<task_promise<T>> {
 public:
  task<T> get_return_object() noexcept;
  template <class U = T>
    requires std::is_convertible_v<U&&, T>
  void return_value(U&& value) {
    this->result_.set_first_value(std::forward<U>(value));
  }
};

template <class T>
class task_promise<T&> final : public task_promise_common<T&>,
                               public frame_allocated<task_promise<T&>> {
 public:
  task<T&> get_return_object() noexcept;
  void return_value(T& value) noexcept { this->result_.set_first_value(value); }
};

template <>
class task_promise<void> final : public task_promise_common<void>,
                                 public frame_allocated<task_promise<void>> {
 public:
  task<void> get_return_object() noexcept;
  void return_void() const noexcept {}
};

// For launchers that start a task while it stays owned by its task object (when_all of a vector):
// its frame.
struct task_access {
  template <class Task>
  static auto handle(const Task& t) noexcept {
    return t.h_;
  }
};

// Starts the awaited task and transfers into it; the task's result is the await's result.
template <class T, bool Rvalue>
class task_awaiter {
 public:
  explicit task_awaiter(std::coroutine_handle<task_promise<T>> h) noexcept : h_(h) {}

  bool await_ready() const noexcept { return false; }
  template <class Promise>
  std::coroutine_handle<> await_suspend(std::coroutine_handle<Promise> caller) noexcept {
    h_.promise().continuation = caller;
    h_.promise().env = env_of(caller);
    h_.promise().parent = promise_of(caller);
    return transfer(h_);
  }
  decltype(auto) await_resume() {
    if constexpr (Rvalue) {
      return h_.promise().result().take();
    } else {
      return h_.promise().result().get();
    }
  }

 private:
  std::coroutine_handle<task_promise<T>> h_;
};

}  // namespace shoal::detail
