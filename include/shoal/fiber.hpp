// shoal/fiber.hpp: stackful coroutines (fibers) on the same scheduler, and the hybrid of the two.
//
// What: `shoal::fiber(fn)` runs the plain function `fn` on a stack of its own (Boost.Context)
// and gives a `task<R>` (R: what fn returns) that completes when fn returns. Inside fn, and in
// any plain function it calls at any depth, `shoal::await(x)` waits for any awaitable x (a task,
// a sleep, fd readiness, a channel, a mutex, a when_all, another fiber) the way `co_await x`
// does in a task: the fiber is switched out and its worker runs other work until x completes.
// So a synchronous, callback-free function becomes asynchronous without being rewritten; and a
// task awaits a fiber's result with a plain `co_await`, puts fibers in when_all or task_group,
// or spawns one on the pool with `pool.spawn(shoal::fiber(fn))`. This is a library of its own:
// link `shoal::fiber` (libshoal_fiber, which needs Boost.Context); the core needs no Boost.
// When to use which, and what each costs (measured): docs/design/fibers.md.
//
// Environment: a fiber runs in its caller's chain. Its stop token (shoal::current_stop_token(),
// shoal::stop_requested()) and coroutine-local values (key.get()) are the caller's, and every
// await inside the fiber passes them on, exactly as a task awaited by the caller would see
// them; `shoal::await(key.bind(v))` binds a value for the rest of the calling scope, as in a
// task. Exceptions cross both ways: one escaping fn is rethrown where the fiber's task is
// awaited; one thrown by an awaited operation is rethrown by shoal::await, inside the fiber.
//
// Affinity: by default a fiber is bound to the worker it starts on (or to its caller's home,
// when the caller's chain is bound), and everything it awaits resumes it there: code on a fiber
// may keep thread-local state, errno, or a pointer to a thread_local across an await (compilers
// cache a thread-local's address across calls). `fiber_options{.migrate = true}` lets it resume on
// whichever worker completes the await, for code that keeps no such state.
//
// Stacks: each fiber takes a stack of `stack_size` usable bytes (default fiber_default_stack_size,
// 64 KiB; 256 KiB when shoal is built with AddressSanitizer, whose frames are larger), mapped with
// mmap (memory is committed page by page as the fiber touches it) with a PROT_NONE guard page
// below it by default. Stacks are pooled: a finished fiber's stack goes back to a per-thread
// cache, then to a process-wide pool (bounded; fiber_stack_stats()), and the next fiber of the
// same size reuses it. An overflow hits the guard page: the process dies of SIGSEGV, and after
// report_fiber_stack_overflows() it first prints which fiber (its name, its stack) overflowed.
//
// Lifetime: the fiber's task is lazy like every task: nothing runs, and no stack is taken, before
// it is awaited. fn is moved into the task and destroyed with it. A fiber's task destroyed while
// the fiber is suspended (a chain destroyed mid-flight) unwinds the fiber's stack first: its
// destructors run (see detail::fiber_unwind: a `catch (...)` on a fiber must rethrow). What it
// awaited is not deregistered: as for a task (shoal/task.hpp), destroy a suspended fiber only
// when that holds nothing of it (it never registered, like std::suspend_always, or it was
// cancelled and completed). Because an await still registered keeps its node on the fiber's
// stack (an unstoppable co_await of a future is its own node), that stack is retired, never
// given to another fiber: its pages go back to the system and the range stays reserved and
// inaccessible, so a late completion faults at once instead of writing into another fiber's
// frames (fiber_stack_stats::retired counts them; each keeps its address range).
// Shutdown: a fiber spawned on a pool is a spawned chain like any other. thread_pool::stop waits
// for fibers whose awaits will complete by themselves (a sleep, work in the pool) and refuses
// to stop while some wait on what only another party can complete (stop requested on their
// token, a channel closed), exactly as for tasks (shoal/thread_pool.hpp).
//
// Cost (docs/benchmarks.md, stackful_bench): a fiber switch out and back in is about 16 ns
// (1.2-1.3 times bare Boost.Context's, some 6 times a task's); a fiber's memory is its touched
// stack pages (a few KiB) plus about 550 bytes of frames; a plain call inside a fiber costs what a
// plain call costs, where an awaited task costs a frame and two transfers, so deep call chains
// favour fibers.
//
// Thread-safety: a fiber is one chain of execution: one thread at a time. shoal::await may be
// called only on a fiber; the awaitable's own contract says which threads may complete it.
//
// Awaiting fiber(fn, options):
//   Result: what fn returns (R may be void, an object type or an lvalue reference).
//   Errors: what fn throws; std::system_error or std::bad_alloc when no stack can be mapped
//           (with guard pages, past about 32,000 live fibers: see fiber_options::guard_page).
//   Cancellation: the caller's stop token flows into the fiber; fn decides what to do with it.
//   Resumes on: the thread the fiber ended on (its home worker when bound).
//   Thread-safety: as a task: awaited once, by one coroutine.
//   Example:
//     int total = co_await shoal::fiber([&] { return sum_rows(db); });   // sum_rows is plain
//     pool.spawn(shoal::fiber([&] { serve(connection); }));
//
// Calling await(x), only on a fiber:
//   Result: what `co_await x` gives (an rvalue reference decays to a value).
//   Errors: what x throws; std::logic_error when not called on a fiber.
//   Cancellation: x's own, under the fiber's stop token (a sleep returns false when stopped).
//   Resumes on: the fiber's home worker when bound; else where x completed.
//   Thread-safety: the calling fiber only.
//   Example:
//     std::size_t read_some(int fd, shoal::fd_watch& w, char* buf, std::size_t n) {  // plain
//       for (;;) {
//         ssize_t got = ::read(fd, buf, n);
//         if (got >= 0) return got;
//         if (errno != EAGAIN || !shoal::await(w.readable())) throw io_error();
//       }
//     }
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

using fiber_options = detail::fiber_options;

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

// Runs fn on a fiber: see the header comment. A task: nothing happens before it is awaited.
template <class F>
  requires std::invocable<F&>
[[nodiscard]] task<std::invoke_result_t<F&>> fiber(F fn, fiber_options options = {}) {
  using result = std::invoke_result_t<F&>;
  detail::task_result<result> out;
  detail::fiber_call<F, result> call{&fn, &out};
  co_await detail::run_fiber(options, call.body());
  co_return out.take();
}

// True when the calling code runs on a fiber (where shoal::await may be called).
[[nodiscard]] inline bool in_fiber() noexcept { return detail::in_fiber(); }

// Waits, on a fiber, for what `co_await awaitable` would give: see the header comment.
// Always inlined, as the switch in it is (detail/fiber_switch.hpp): a suspension's switch back
// in then returns through no frame entered before it.
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

// Counters of the fiber stack pool, process-wide.
struct fiber_stack_stats {
  std::size_t live = 0;          // stacks in use by fibers now
  std::size_t pooled = 0;        // stacks kept for reuse (per-thread caches and the shared pool)
  std::size_t mapped_bytes = 0;  // address space of live and pooled stacks, guard pages included
  std::size_t mapped_total = 0;  // stacks ever mapped (a reused stack is not mapped again)
  std::size_t reused_total = 0;  // fibers that started on a pooled stack
  std::size_t retired = 0;       // stacks of fibers destroyed while suspended (never reused)
};
[[nodiscard]] fiber_stack_stats fiber_stacks() noexcept;

// At most this many stacks are kept for reuse in the shared pool (each thread also caches up to
// 16); a stack released beyond it is unmapped. Default 1024. Thread-safety: any thread.
void set_fiber_stack_pool_limit(std::size_t stacks) noexcept;

// Installs a SIGSEGV handler (chained to the one it replaces) that, when the fault is in the
// guard page of the fiber running on the faulting thread, writes one line to stderr naming the
// fiber and its stack before the process dies of the signal as it would have. Each thread that
// runs fibers gets an alternate signal stack (64 KiB) the first time it runs one afterwards.
// Call once, early (e.g. in main). Not under AddressSanitizer, which reports the overflow
// itself. Thread-safety: any thread.
void report_fiber_stack_overflows();

}  // namespace shoal
