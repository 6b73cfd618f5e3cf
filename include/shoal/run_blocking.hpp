// SPDX-License-Identifier: Apache-2.0
// shoal/run_blocking.hpp: run a function that blocks (a blocking syscall, a library that waits,
// a long computation that must not hold a worker) off the pool's workers, and await its result.
//
// What: `co_await shoal::run_blocking(f)` hands `f` to the blocking subpool of the thread_pool
// whose worker runs the calling coroutine, and suspends; the worker goes on with other work.
// The subpool has threads of its own, started only when a call finds none waiting (at most
// `thread_pool_options::blocking_threads`; calls beyond wait in FIFO order) and retired after
// `blocking_keep_alive` without work. `run_blocking(pool, f)` names the pool, for a coroutine not
// running on one (a sync_wait in main).
//
// Lifetime: `f` is moved into the awaiter (in the coroutine's frame) and called once, as an
// rvalue, on a subpool thread. With g++ 12, name a callable whose captures own resources
// (`auto f = [p = std::move(ptr)] {...}; co_await run_blocking(std::move(f));`): g++ 12 destroys
// a lambda temporary of a co_await expression twice (GCC bug 99576), which a lambda with only
// references or trivially destructible captures survives. The pool's stop waits for calls in flight
// (they will resume their coroutines); its join joins the subpool's threads.
//
// Thread-safety and memory ordering: everything the coroutine did before the co_await
// happens-before `f` runs; everything `f` did happens-before the coroutine resumes.
#pragma once

#include <type_traits>
#include <utility>

#include "shoal/detail/run_blocking.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal {

/// What run_blocking returns: an awaitable (see run_blocking), awaited at once.
template <class F>
using run_blocking_awaiter = detail::run_blocking_awaiter<std::decay_t<F>>;

/// Runs `f` on the blocking subpool of the pool whose worker runs the caller, and waits.
///   Result: what `f()` returns (void, a value, a reference).
///   Errors: rethrows what `f` threw. std::logic_error when awaited off a pool's worker without
///     naming the pool, or outside any executor, or once the pool is stopped (its join has joined
///     the subpool's threads; then `f` did not run); std::system_error when the subpool has no
///     thread and cannot start one (then `f` did not run). A stopped pool refuses rather than runs
///     `f`, as an executor shut down rejects new work: running it would take a thread started
///     after the stop, which the stop promised not to leave behind and nobody would join.
///   Cancellation: none: a stop request does not interrupt `f` (give it the token yourself:
///     `run_blocking([t = shoal::current_stop_token()] { ... })` if it can poll one).
///   Resumes on: the executor it was awaited on (the same worker; its home when the chain is bound
///     with schedule_on), as pinned work.
///   Thread-safety: any number of concurrent calls, from any workers.
///   Example:
///     std::string text = co_await shoal::run_blocking([&] { return read_whole_file(path); });
template <class F>
  requires std::is_invocable_v<std::decay_t<F>&&>
[[nodiscard]] run_blocking_awaiter<F> run_blocking(F&& f) {
  return run_blocking_awaiter<F>(thread_pool::current(), std::forward<F>(f));
}

/// run_blocking(f) on `pool`'s blocking subpool, for a coroutine not running on one (a
/// sync_wait in main). Result, Errors, Cancellation, Resumes on, Thread-safety: as run_blocking(f).
template <class F>
  requires std::is_invocable_v<std::decay_t<F>&&>
[[nodiscard]] run_blocking_awaiter<F> run_blocking(thread_pool& pool, F&& f) {
  return run_blocking_awaiter<F>(&pool, std::forward<F>(f));
}

}  // namespace shoal
