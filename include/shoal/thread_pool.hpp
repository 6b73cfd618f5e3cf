// SPDX-License-Identifier: Apache-2.0
// shoal/thread_pool.hpp: the work-stealing scheduler.
//
// N worker threads, each with its own run queues and timer heap; work from outside the pool enters
// through a global queue; blocking work goes to the pool's blocking subpool
// (shoal/run_blocking.hpp). An idle worker spins briefly, then parks (on a futex, or in its epoll
// reactor while it watches a descriptor): an idle pool burns no CPU. The queues, the parking and
// the entry path: docs/design/scheduler.md.
// Affinity: `co_await pool.schedule_on(k)` moves the calling chain to worker k and binds it there;
// `co_await pool.schedule()` moves it into the pool unbound; `spawn_on(k, t)` starts a detached
// chain bound to k.
//
// Lifecycle: construct, start() once, use, `co_await pool.stop()` from a coroutine that does not
// run on the pool (typically `sync_wait(pool.stop())` in main). stop() ends the workers once no
// work is ready and no timer armed, or refuses while chains started by spawn/spawn_on wait on what
// no worker will make ready. A chain that entered the pool with schedule()/schedule_on() from
// elsewhere (a sync_wait) is its starter's: end it before stopping the pool. The destructor
// terminates the program if the pool was started and not stopped.
// Thread-safety: schedule, schedule_on, spawn, spawn_on and stop may be called from any thread;
// start once. A post happens-before the posted coroutine resumes.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stop_token>

#include "shoal/detail/thread_pool.hpp"
#include "shoal/executor.hpp"
#include "shoal/task.hpp"

namespace shoal {

class detached_task;  // shoal/detached_task.hpp

/// What stop(), schedule() and schedule_on() return: awaitables (see each below).
using pool_stop_awaiter = detail::pool_stop_awaiter;
using pool_schedule_awaiter = detail::pool_schedule_awaiter;
using pool_schedule_on_awaiter = detail::pool_schedule_on_awaiter;

/// How a thread_pool is built: its workers, queues, spinning, shuffling, blocking subpool.
struct thread_pool_options {
  std::size_t workers = 0;                    // 0: one per hardware thread
  std::size_t local_queue_capacity = 256;     // per worker, rounded up to a power of two
  unsigned spin_rounds = 64;                  // queue checks before an idle worker parks
  bool shuffle = detail::shuffle_by_default;  // run ready work in a seeded random order (debug)
  std::uint64_t shuffle_seed = 0;             // 0: pick one (read it back with shuffle_seed())
  /// The blocking subpool (shoal/run_blocking.hpp): at most this many threads, started on demand;
  /// one idle for `blocking_keep_alive` exits.
  std::size_t blocking_threads = 64;
  std::chrono::milliseconds blocking_keep_alive{10'000};
};

/// Counters of one worker since start (a snapshot: thread_pool::stats).
struct worker_stats {
  std::uint64_t resumed = 0;  // coroutines resumed by this worker
  std::uint64_t stolen = 0;   // of which taken from other workers' queues
  std::uint64_t parked = 0;   // times the worker went to sleep
  std::uint64_t timers_fired = 0;
};

/// The work-stealing scheduler: see the header. Non-copyable, non-movable.
class thread_pool {
 public:
  /// A pool not started yet: no thread runs before start(). Errors: std::bad_alloc.
  explicit thread_pool(thread_pool_options options = {});
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;
  /// Terminates the program if the pool was started and not stopped.
  ~thread_pool();

  /// Starts the workers, all or none.
  ///   Errors: std::logic_error when called twice, or after stop; std::system_error or
  ///           std::bad_alloc when a thread cannot be created (then none runs and the pool is as
  ///           never started).
  ///   Thread-safety: once, from one thread.
  void start();

  /// Stops the pool once no work is ready and no timer armed: the workers exit and are joined.
  ///   Result: void.
  ///   Errors: std::logic_error when awaited on one of this pool's workers, or outside any
  ///           executor; std::logic_error naming how many, when chains started by spawn or spawn_on
  ///           are still suspended once no work is ready and no timer armed (the stop is refused:
  ///           the pool keeps running; end them and stop again); std::bad_alloc.
  ///   Cancellation: none.
  ///   Resumes on: the executor it was awaited on, after every worker has exited and been joined
  ///               (at once when the pool was never started or is already stopped), or after the
  ///               refusal.
  ///   Thread-safety: any thread, any number of times, concurrently too.
  ///   Example: `shoal::sync_wait(pool.stop());`
  [[nodiscard]] pool_stop_awaiter stop() noexcept { return pool_stop_awaiter(*this); }

  /// Moves the calling chain into the pool, unbound.
  ///   Result: void. Errors: std::bad_alloc only in a bound when_all/when_any child, the first
  ///           time it rebinds (it gets its own copy of the environment its siblings share).
  ///   Cancellation: none.
  ///   Resumes on: some worker of this pool (the caller's own when already on one), unbound.
  ///   Thread-safety: any thread.
  ///   Example: `co_await pool.schedule();`
  [[nodiscard]] pool_schedule_awaiter schedule() noexcept { return pool_schedule_awaiter(*this); }
  /// Moves the calling chain to worker k and binds it there: every later wake-up of the chain
  /// (timers, yields, wake-ups from other threads) resumes it on k, and no other worker steals it.
  ///   Result: void. Errors: std::out_of_range (thrown here) when k >= size(); std::bad_alloc in
  ///           a when_all/when_any child, the first time it rebinds (as schedule()).
  ///   Cancellation: none. Resumes on: worker k, and the chain stays bound to it; in a
  ///               when_all/when_any child, only that child's chain (never its siblings).
  ///   Thread-safety: any thread.
  ///   Example: `co_await pool.schedule_on(terminal % pool.size());`
  [[nodiscard]] pool_schedule_on_awaiter schedule_on(std::size_t k);

  /// Starts `t` detached on some worker (unbound). An exception escaping `t` terminates the
  /// program, as with std::thread.
  ///   Errors: std::bad_alloc. Exception: `spawn(t)` from a thread that is not one of this pool's
  ///           workers queues the task itself and the worker that takes it makes its root, so out
  ///           of memory there terminates the program (as for a post; docs/design/scheduler.md,
  ///           "The entry path").
  ///   Thread-safety: any thread, while the pool runs.
  void spawn(task<void> t);
  /// spawn(t), the chain running under `token` (as under `with_stop_token(token, t)`, without
  /// that wrapper's frame: 8 bytes in the root instead). A token that cannot be stopped
  /// (`!token.stop_possible()`) is dropped: this is spawn(t), its entry path and errors included.
  void spawn(task<void> t, std::stop_token token);
  /// Starts `t` detached bound to worker k. Errors: std::out_of_range (thrown here) when
  /// k >= size(); std::bad_alloc. An exception escaping `t` terminates. Thread-safety: any thread.
  void spawn_on(std::size_t k, task<void> t);
  /// spawn_on(k, t), the chain running under `token` (spawn_on(k, t) when it cannot be stopped).
  void spawn_on(std::size_t k, task<void> t, std::stop_token token);
  /// The same for a coroutine that is its own root (shoal/detached_task.hpp): one frame per
  /// chain, no root frame around it.
  void spawn_on(std::size_t k, detached_task t, std::stop_token token);

  /// The number of workers. Thread-safety: any thread.
  [[nodiscard]] std::size_t size() const noexcept;
  /// Worker k's executor. Errors: std::out_of_range when k >= size().
  [[nodiscard]] executor& worker(std::size_t k);
  /// Worker k's counters (a snapshot). Errors: std::out_of_range when k >= size().
  [[nodiscard]] worker_stats stats(std::size_t k) const;
  /// The seed of the ready-queue shuffle: options.shuffle_seed, or the one picked when that was 0.
  [[nodiscard]] std::uint64_t shuffle_seed() const noexcept;
  /// Threads of the blocking subpool started and not retired (shoal/run_blocking.hpp).
  [[nodiscard]] std::size_t blocking_thread_count() const noexcept;
  /// The pool whose worker runs the calling thread, or nullptr.
  [[nodiscard]] static thread_pool* current() noexcept;

  /// Low level: makes `h` ready in the pool (the caller's worker when on one, else the global
  /// queue). Resumes on: a worker of the pool. Thread-safety: any thread.
  void post(std::coroutine_handle<> h) noexcept;

 private:
  friend class detail::pool_stop_awaiter;
  friend void detail::pool_run_blocking(thread_pool& pool, detail::blocking_job& job);
  bool running() const noexcept;
  void request_stop(executor* resume_on, std::coroutine_handle<> h, std::size_t* refused);
  void join();
  std::coroutine_handle<> spawned_root(detail::root_task root, executor* home);

  std::unique_ptr<detail::pool_state> state_;
};

}  // namespace shoal
