// SPDX-License-Identifier: Apache-2.0
// shoal/fiber.hpp: stackful coroutines (fibers) on the same scheduler, and the hybrid of the two.
//
// `shoal::fiber(fn)` runs the plain function fn on a stack of its own (Boost.Context) and gives a
// `task<R>` that completes when fn returns; inside fn, at any call depth, `shoal::await(x)` waits
// for any awaitable x the way `co_await x` does in a task. A library of its own: link
// `shoal::fiber` (libshoal_fiber, which needs Boost.Context); the core needs no Boost. When to use
// which, the mechanism (environment, affinity, stacks, shutdown) and the costs:
// docs/design/fibers.md.
//
// Lifetime: the fiber's task is lazy (no stack is taken before it is awaited); fn is moved into it
// and destroyed with it. A fiber's task destroyed while the fiber is suspended unwinds the fiber's
// stack first (a `catch (...)` on a fiber must rethrow); as for a task, destroy it only when what
// it awaits holds nothing of it. Stacks are pooled; the stack of a fiber destroyed with an await
// still registered is retired, never reused. A fiber runs in its caller's chain: the caller's stop
// token and coroutine-local values; exceptions cross both ways.
//
// Thread-safety: a fiber is one chain of execution, one thread at a time. By default it is bound
// to the worker it starts on and resumes there; fiber_options::migrate lets it move.
#pragma once

#include <concepts>
#include <cstddef>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

#include "shoal/detail/awaitable_traits.hpp"
#include "shoal/detail/fiber.hpp"
#include "shoal/detail/with_env.hpp"
#include "shoal/task.hpp"

namespace shoal {

/// How a fiber runs: its stack size, guard page, affinity (detail/fiber.hpp lists the fields).
using fiber_options = detail::fiber_options;

/// The default usable stack size: 64 KiB; 256 KiB under AddressSanitizer, whose frames are larger.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr std::size_t fiber_default_stack_size = std::size_t{256} * 1024;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr std::size_t fiber_default_stack_size = std::size_t{256} * 1024;
#else
inline constexpr std::size_t fiber_default_stack_size = std::size_t{64} * 1024;
#endif
#else
inline constexpr std::size_t fiber_default_stack_size = std::size_t{64} * 1024;
#endif

/// Runs fn on a fiber, on a pooled stack of `options.stack_size` usable bytes (default
/// fiber_default_stack_size) above a guard page. A task: nothing happens before it is awaited.
///   Result: what fn returns (R may be void, an object type or an lvalue reference).
///   Errors: what fn throws; std::system_error or std::bad_alloc when no stack can be mapped
///           (with guard pages, past about 32,000 live fibers: see fiber_options::guard_page).
///   Cancellation: the caller's stop token flows into the fiber; fn decides what to do with it.
///   Resumes on: the thread the fiber ended on (its home worker when bound).
///   Thread-safety: as a task: awaited once, by one coroutine.
///   Example:
///     int total = co_await shoal::fiber([&] { return sum_rows(db); });   // sum_rows is plain
///     pool.spawn(shoal::fiber([&] { serve(connection); }));
template <class F>
  requires std::invocable<F&>
[[nodiscard]] task<std::invoke_result_t<F&>> fiber(F fn, fiber_options options = {}) {
  using result = std::invoke_result_t<F&>;
  detail::task_result<result> out;
  detail::fiber_call<F, result> call{&fn, &out};
  co_await detail::run_fiber(options, call.body());
  co_return out.take();
}

/// True when the calling code runs on a fiber (where shoal::await may be called).
/// Thread-safety: any thread.
[[nodiscard]] inline bool in_fiber() noexcept { return detail::in_fiber(); }

/// Waits, on a fiber, for what `co_await awaitable` would give: the fiber is switched out and
/// its worker runs other work until the awaitable completes. Always inlined, as the switch in it is
/// (detail/fiber_switch.hpp): a suspension's switch back in then returns through no frame entered
/// before it.
///   Result: what `co_await x` gives (an rvalue reference decays to a value).
///   Errors: what x throws; std::logic_error when not called on a fiber.
///   Cancellation: x's own, under the fiber's stop token (a sleep returns false when stopped).
///   Resumes on: the fiber's home worker when bound; else where x completed.
///   Thread-safety: the calling fiber only.
///   Example:
///     std::size_t read_some(int fd, shoal::fd_watch& w, char* buf, std::size_t n) {  // plain
///       for (;;) {
///         ssize_t got = ::read(fd, buf, n);
///         if (got >= 0) return got;
///         if (errno != EAGAIN || !shoal::await(w.readable())) throw io_error();
///       }
///     }
template <class Awaitable>
[[gnu::always_inline]] inline detail::wrapped_result_t<Awaitable> await(Awaitable&& awaitable) {
  using awaiter_type = decltype(detail::get_awaiter(std::forward<Awaitable>(awaitable)));
  using awaiter_object = std::remove_reference_t<awaiter_type>;
  awaiter_type awaiter = detail::get_awaiter(std::forward<Awaitable>(awaitable));
  if (!awaiter.await_ready()) {
    detail::fiber_wait wait{const_cast<void*>(static_cast<const void*>(std::addressof(awaiter))),
                            &detail::suspend_erased<awaiter_object>};
    detail::suspend_fiber(wait);  // throws std::logic_error outside a fiber
  } else {
    detail::require_fiber();  // the same error when it would not have suspended
  }
  return awaiter.await_resume();
}

/// Counters of the fiber stack pool, process-wide (a snapshot: fiber_stacks()).
struct fiber_stack_stats {
  std::size_t live = 0;          // stacks in use by fibers now
  std::size_t pooled = 0;        // stacks kept for reuse (per-thread caches and the shared pool)
  std::size_t mapped_bytes = 0;  // address space of live and pooled stacks, guard pages included
  std::size_t mapped_total = 0;  // stacks ever mapped (a reused stack is not mapped again)
  std::size_t reused_total = 0;  // fibers that started on a pooled stack
  std::size_t retired = 0;       // stacks of fibers destroyed while suspended (never reused)
};
/// The stack pool's counters now. Thread-safety: any thread.
[[nodiscard]] fiber_stack_stats fiber_stacks() noexcept;

/// At most this many stacks are kept for reuse in the shared pool (each thread also caches up to
/// 16); a stack released beyond it is unmapped. Default 1024. Thread-safety: any thread.
void set_fiber_stack_pool_limit(std::size_t stacks) noexcept;

/// Installs a SIGSEGV handler (chained to the one it replaces) that, when the fault is in the
/// guard page of the fiber running on the faulting thread, writes one line to stderr naming the
/// fiber and its stack before the process dies of the signal as it would have. Each thread that
/// runs fibers gets an alternate signal stack (64 KiB) the first time it runs one afterwards.
/// Call once, early (e.g. in main). Not under AddressSanitizer, which reports the overflow
/// itself. Thread-safety: any thread.
void report_fiber_stack_overflows();

}  // namespace shoal
