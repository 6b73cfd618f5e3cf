// SPDX-License-Identifier: Apache-2.0
// shoal/detail/fiber.hpp: what shoal/fiber.hpp needs from the fiber library (libshoal_fiber).
//
// How a fiber runs: `shoal::fiber(fn)` is a task whose body awaits `run_fiber`, the *driver*: an
// ordinary shoal task (compiled in src/shoal/fiber/) that owns the fiber's stack and context and
// loops: switch into the fiber; when the fiber switches back leaving a `fiber_wait` (it called
// shoal::await on something not ready), `co_await` that wait as any task would; when the wait
// completes, switch into the fiber again. So every awaitable is awaited by a real shoal
// coroutine, the driver, with the chain's environment (home worker, stop token,
// coroutine-locals), and the fiber itself never touches a scheduler.
//
// `fiber_wait` is type-erased: the fiber fills it with the address of the awaiter (which lives on
// the fiber's stack, suspended with it) and a function that calls the awaiter's await_suspend
// with the driver's handle. The driver calls it only after the fiber has switched out: an
// awaiter may resume the driver on another thread before its await_suspend returns.
//
// Thread-safety: a fiber and its driver are one chain of execution; one thread at a time.
#pragma once

#include <coroutine>
#include <cstddef>
#include <exception>
#include <functional>
#include <type_traits>

#include "shoal/detail/awaitable_traits.hpp"
#include "shoal/detail/fiber_switch.hpp"
#include "shoal/detail/task.hpp"
#include "shoal/detail/transfer.hpp"

namespace shoal::detail {

struct fiber_options {
  // Usable stack bytes, rounded up to whole pages; 0: shoal::fiber_default_stack_size.
  std::size_t stack_size = 0;
  // A PROT_NONE page below the stack: an overflow faults there instead of corrupting memory.
  // Each guarded stack costs two of the kernel's vm.max_map_count memory maps (65530 by
  // default, so about 32,000 guarded fibers alive at once).
  bool guard_page = true;
  // False (the default): the fiber is bound to the worker it starts on (unless its caller's chain
  // is already bound elsewhere), and resumes only there. True: it may resume on whichever worker
  // completes what it awaits. Only for code that keeps no thread-local state (errno included)
  // across a shoal::await: see shoal/fiber.hpp.
  bool migrate = false;
  // Named in the stack-overflow report; a string with static storage duration, or null.
  const char* name = nullptr;
};

// What runs on the fiber's stack: run(self) must not let an exception escape, except
// fiber_unwind (fiber_switch.hpp).
struct fiber_body {
  void (*run)(void* self) = nullptr;
  void* self = nullptr;
};

// The driver: starts the fiber (taking a stack from the pool), runs it to completion, returns
// the stack. Errors: std::system_error or std::bad_alloc when no stack can be mapped.
task<void> run_fiber(fiber_options options, fiber_body body);

// True when the calling code runs on a fiber's stack.
[[nodiscard]] bool in_fiber() noexcept;

// Throws std::logic_error (saying so) unless the calling code runs on a fiber.
void require_fiber();

template <class Awaiter>
std::coroutine_handle<> suspend_erased(void* awaiter, fiber_driver_handle driver) {
  Awaiter& a = *static_cast<Awaiter*>(awaiter);
  using result = decltype(a.await_suspend(driver));
  if constexpr (std::is_void_v<result>) {
    a.await_suspend(driver);
    return {};
  } else if constexpr (std::is_same_v<result, bool>) {
    if (a.await_suspend(driver)) return {};
    return transfer(driver);  // declined: the driver goes on at once (see detail/transfer.hpp)
  } else {
    return a.await_suspend(driver);
  }
}

// The body of shoal::fiber(fn): calls fn on the fiber's stack and stores its outcome.
template <class F, class R>
struct fiber_call {
  F* fn;
  task_result<R>* out;

  static void run(void* self) {
    auto& call = *static_cast<fiber_call*>(self);
    try {
      if constexpr (std::is_void_v<R>) {
        std::invoke(*call.fn);
      } else {
        call.out->set_value(std::invoke(*call.fn));
      }
    } catch (const fiber_unwind&) {
      throw;
    } catch (...) {
      call.out->set_exception(std::current_exception());
    }
  }
  fiber_body body() noexcept { return {&fiber_call::run, this}; }
};

}  // namespace shoal::detail
