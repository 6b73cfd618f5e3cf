// SPDX-License-Identifier: Apache-2.0
// shoal/detail/transfer.hpp: symmetric transfer that is safe on every compiler and flag set.
//
// What: `transfer(next)` is what every shoal `await_suspend` returns to pass control to another
// coroutine, and `resume(h)` is how every shoal run loop starts one. With compiler support
// (SHOAL_SYMMETRIC_TRANSFER=1) `transfer` returns `next` and the compiler tail-calls it. Without
// it, `transfer` parks `next` in a thread-local slot and returns `std::noop_coroutine()`; the
// enclosing `resume` loop then resumes it, so the stack never grows with the chain length.
//
// Why: g++ 12 does not turn symmetric transfer into a tail call at -O0, -O1 or under sanitizers
// (gcc bug 100897), and a long chain of synchronously completing awaits overflows the stack.
// clang always emits the tail call. The decision is made here, per translation unit, from what
// the compiler says about itself; define SHOAL_SYMMETRIC_TRANSFER=0/1 to force it. g++ builds
// count as safe only when SHOAL_GCC_SIBLING_CALLS is defined (shoal's own CMake defines it for
// optimised builds without sanitizers; a consumer may define it when it builds with -O2 or more).
//
// Thread-safety: the slot is thread-local; each thread runs its own loop.
#pragma once

#include <coroutine>
#include <utility>

#include "shoal/detail/task_env.hpp"

#if !defined(SHOAL_SYMMETRIC_TRANSFER)
#if defined(__clang__)
#define SHOAL_SYMMETRIC_TRANSFER 1
#elif defined(__GNUC__) && defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__) && \
    !defined(__SANITIZE_THREAD__) && defined(SHOAL_GCC_SIBLING_CALLS)
#define SHOAL_SYMMETRIC_TRANSFER 1
#else
#define SHOAL_SYMMETRIC_TRANSFER 0
#endif
#endif

namespace shoal::detail {

inline constexpr bool symmetric_transfer = SHOAL_SYMMETRIC_TRANSFER != 0;

// The resume loop's state on this thread (used only when symmetric_transfer is false).
struct trampoline_state {
  std::coroutine_handle<> next;
  bool running = false;
};
inline thread_local trampoline_state trampoline;

// Resumes `h` and, in loop mode, every coroutine it transfers to, until the chain suspends
// for real. Nested calls (a run loop started from inside a coroutine) keep their own chain.
// The env mirror (`current_env`, task_env.hpp) is saved and restored around the chain, so code
// outside any coroutine never sees a suspended chain's env.
inline void resume(std::coroutine_handle<> h) {
  task_env* const outer_env = current_env;
  if constexpr (symmetric_transfer) {
    h.resume();
  } else {
    trampoline_state& t = trampoline;
    const bool outer_running = std::exchange(t.running, true);
    const std::coroutine_handle<> outer_next = std::exchange(t.next, nullptr);
    while (h) {
      h.resume();
      h = std::exchange(t.next, nullptr);
    }
    t.running = outer_running;
    t.next = outer_next;
  }
  current_env = outer_env;
}

// Returned from await_suspend: hands control to `next` without growing the stack.
inline std::coroutine_handle<> transfer(std::coroutine_handle<> next) noexcept {
  if (!next) return std::noop_coroutine();
  if constexpr (symmetric_transfer) {
    return next;
  } else {
    trampoline_state& t = trampoline;
    if (t.running) {
      t.next = next;
    } else {
      resume(next);  // no loop below us yet: start one (costs one frame, once per chain)
    }
    return std::noop_coroutine();
  }
}

// transfer(next) for a `next` that is never null (std::noop_coroutine() when there is nothing to
// run): no test where the compiler makes the transfer.
inline std::coroutine_handle<> transfer_nonnull(std::coroutine_handle<> next) noexcept {
  if constexpr (symmetric_transfer) {
    return next;
  } else {
    return transfer(next);
  }
}

}  // namespace shoal::detail
