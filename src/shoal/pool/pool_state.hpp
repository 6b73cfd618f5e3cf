// SPDX-License-Identifier: Apache-2.0
// pool_state.hpp: what a thread_pool's workers share: the global injection queue, the idle and
// spinning counts that decide whom to wake, and the stop protocol.
//
// Waking (why no wake-up is lost): a poster to the global queue first makes the work visible,
// then issues a seq_cst fence (full_fence.hpp) and reads `spinning_` and `idle_`. A worker about
// to park increments `idle_` (seq_cst) and, after the same fence, rechecks every queue. By the
// fences' total order, either the worker's recheck sees the work, or the poster sees `idle_ > 0`
// and, if no worker is spinning (a spinner rechecks after leaving the spinning state), wakes a
// sleeping one. Work posted to a specific worker (its inbox) always unparks that worker. A worker
// pushing onto its own ring or fork deque skips the fence (`notify_work_relaxed`): the pusher is
// running and will run the item itself, so a wake-up missed there costs parallelism for a moment,
// never progress. That keeps a full fence off the hot path of every local post. It holds only
// while the pusher keeps running its loop: a worker about to block in a nested sync_wait first
// issues the fenced notify for what it holds (worker::before_blocking), and a post made to it
// from inside that sync_wait goes to the global queue (worker::post). The whole invariant, and
// the tests that pin each case: docs/design/scheduler.md, "Wake-ups".
//
// Stopping: once stop is requested, an idle worker that finds every worker idle while no queue
// holds work and no worker has a timer armed decides. When no chain started by spawn/spawn_on is
// left (`live_spawned_`), it declares the pool finished and wakes the rest; each exits its loop,
// and the last one to exit resumes every stop awaiter on the executor it was awaited from; the
// first of them to resume joins the threads (under join_mutex_, so that two awaiters never join
// at once). When some are left, suspended on something no worker will make ready by itself (an
// event, I/O, another thread), it refuses: under stop_mutex_ it clears the stop request and
// resumes every stop awaiter with the number left (they throw std::logic_error), and the pool
// keeps running. Requests and refusals both happen under stop_mutex_, so an awaiter is either
// refused or waits for a request still in force. An armed timer is work to come, not a refusal:
// a worker publishes whether it has one (`timers_armed`, worker.hpp) before it counts itself idle.
// Why no ready work is dropped: the decision (try_finish) and every worker's way out of the idle
// state (leave_idle) are serialised by finish_mutex_, so a worker counted idle by the decision
// stays idle until it is made. An idle worker runs nothing, but the reactor it sleeps in
// dispatches I/O events, which may make work ready in its owner-only queues (pinned, LIFO):
// it publishes that in `owner_work_while_idle` (see worker.hpp), which the decision reads under
// the same mutex. Work made ready after the decision belongs to a coroutine still suspended
// when the pool finished (shoal/thread_pool.hpp says what happens to those).
#pragma once

#include <atomic>
#include <coroutine>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "pool/blocking_subpool.hpp"
#include "pool/fifo.hpp"
#include "pool/mpmc_ring.hpp"
#include "pool/worker.hpp"
#include "shoal/detail/task.hpp"
#include "shoal/executor.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal::detail {

// Test seam: when set, the stop decision calls it between its two reads of work to come (the
// blocking calls in flight, then the queues; see quiescent), so that a test can finish a
// blocking call exactly there. Null in every program but that test; set it only while no stop
// decision can run (before the stop request that orders it with the deciding worker).
extern void (*stop_decision_probe)(const blocking_subpool& blocking) noexcept;

// Test seam: when true, notify_work_relaxed (and so notify_forked) wakes nobody, as its relaxed
// reads of a stale idle count may legally do: the protocol must make progress without those
// wake-ups ("Waking" above). False in every program but the tests that force a missed wake-up;
// set it only while no worker runs (before start(), after stop()).
extern bool drop_relaxed_wakeups;

class pool_state {
 public:
  pool_state(thread_pool& owner, const thread_pool_options& options);

  thread_pool& owner() const noexcept { return *owner_; }
  std::size_t size() const noexcept { return workers_.size(); }
  worker& at(std::size_t k) noexcept { return *workers_[k]; }

  // Global injection queue: a lock-free ring (mpmc_ring.hpp) of 1,024, and behind it, once the
  // ring is full, an overflow queue under a mutex. While the overflow holds anything every post
  // goes there too, so the queue stays FIFO: the ring holds the older items. An entry is the
  // address of a coroutine to resume, or (spawned_entry) a task spawned from outside the pool,
  // whose root the worker taking it makes (runnable).
  void push_global(std::coroutine_handle<> h) noexcept { push_entry(h.address()); }
  void push_global(const std::vector<void*>& batch) noexcept;
  // thread_pool::spawn from outside the pool: queues the task itself; no root, no count yet.
  void push_spawned(std::coroutine_handle<task_promise<void>> task) noexcept {
    push_entry(spawned_entry(task));
  }
  // Takes a share of the global queue: returns one, moves the rest into `into`'s ring.
  std::coroutine_handle<> pop_global(worker& into) noexcept;
  bool global_empty() const noexcept {
    // acquire: pairs with publish_overflow's release.
    return global_ring_.empty() && !overflow_nonempty_.load(std::memory_order_acquire);
  }

  // Called after making stealable work visible.
  void notify_work() noexcept;
  // The same, when the work was made visible by a seq_cst read-modify-write (the global ring's
  // claim of a position), which stands in for notify_work's fence (see pool_state.cpp).
  void notify_work_after_rmw() noexcept;
  // For a running worker's own ring pushes; see the header comment.
  void notify_work_relaxed() noexcept;
  void wake_one() noexcept;

  // Spinning / idle bookkeeping (see header comment).
  // True while fewer workers spin than half of the other workers that are busy.
  bool worth_spinning() const noexcept {
    const std::size_t idle = idle_.load(std::memory_order_relaxed);
    const std::size_t spinning = spinning_.load(std::memory_order_relaxed);
    const std::size_t others = workers_.size() - 1;
    const std::size_t busy = others > idle + spinning ? others - idle - spinning : 0;
    return busy > 2 * spinning;
  }
  void begin_spinning() noexcept { spinning_.fetch_add(1, std::memory_order_seq_cst); }
  // Returns true when the caller was the last spinner.
  bool end_spinning() noexcept { return spinning_.fetch_sub(1, std::memory_order_seq_cst) == 1; }
  // Returns the number of idle workers including the caller.
  std::size_t enter_idle() noexcept;
  // The idle count itself, for a worker's fork support (detail/fork_deque.hpp) to read.
  [[nodiscard]] const std::atomic<std::size_t>& idle_count() const noexcept { return idle_; }
  // Serialised with try_finish (see the header comment); clears `w`'s owner_work_while_idle.
  void leave_idle(worker& w) noexcept;

  // Work any idle worker could take: the global queue, another worker's ring or fork deque.
  bool any_stealable_work() const noexcept;
  // The same, but only work that can be taken now: a global ring position claimed by a producer
  // and not yet published does not count (mpmc_ring.hpp).
  bool any_ready_stealable_work() const noexcept;
  // Anything queued anywhere, inboxes included (pinned work only its owner may run).
  bool any_queued_work() const noexcept;
  bool stopping() const noexcept { return stopping_.load(std::memory_order_acquire); }
  bool finished() const noexcept { return finished_.load(std::memory_order_acquire); }
  // Called by an idle worker while stopping; true when the pool is finished.
  bool try_finish() noexcept;

  // Chains started by spawn/spawn_on and not ended: counted up by spawn, down by the completion
  // hook of their roots. Sharded: a worker of this pool counts in its own counter (no shared
  // cache line between a spawning thread and the workers ending the chains), any other thread
  // in `external_spawned_`; the live count is the sum (read by try_finish).
  void count_spawned() noexcept { add_spawned(1); }
  static void spawned_ended(void* self, std::coroutine_handle<> root) noexcept;

  // Stop protocol, driven by thread_pool.
  // Starts every worker thread, or (throwing what failed) none.
  void start();
  // Called first by each worker thread: true to run, false when start() failed part-way.
  bool wait_for_launch() const noexcept;
  // Requests stop and resumes `h` on `resume_on` once every worker has exited (at once if they
  // have), or once the stop is refused, with the number of suspended spawned chains in
  // `*refused`. Any number of awaiters, from any threads. Throws std::bad_alloc (nothing done).
  void request_stop(executor* resume_on, std::coroutine_handle<> h, std::size_t* refused);
  void worker_exited() noexcept;
  // Joins every worker thread; safe to call concurrently and repeatedly.
  void join();

  std::uint64_t shuffle_seed() const noexcept { return shuffle_seed_; }
  blocking_subpool& blocking() noexcept { return blocking_; }
  // Called by the blocking subpool when its last job in flight has finished: a pending stop
  // must be decided again (an idle worker may have seen the job in flight and parked).
  void blocking_drained() noexcept;
  // Started and not yet joined.
  bool running() const noexcept { return started_.load(std::memory_order_acquire); }

 private:
  thread_pool* owner_;
  std::uint64_t shuffle_seed_;
  std::vector<std::unique_ptr<worker>> workers_;

  mpmc_ring global_ring_;
  // Whether overflow_ holds anything: read by every post from outside and by searching workers,
  // written under global_mutex_ on a change only (publish_overflow): a cache line of its own.
  alignas(64) std::atomic<bool> overflow_nonempty_{false};
  alignas(64) mutex global_mutex_;
  fifo<void*> overflow_ SHOAL_GUARDED_BY(global_mutex_);

  // Written by workers going idle or spinning, read by every post: away from the rest.
  alignas(64) std::atomic<std::size_t> spinning_{0};
  std::atomic<std::size_t> idle_{0};
  mutex finish_mutex_;  // serialises try_finish with leave_idle; orders, guards no field

  struct stop_waiter {
    executor* resume_on;
    std::coroutine_handle<> h;
    std::size_t* refused;
  };

  // A spawned task's entry: its frame's address with the low bit set (a frame is aligned to at
  // least 8 bytes, so the bit is free).
  static constexpr std::uintptr_t spawned_tag = 1;
  static void* spawned_entry(std::coroutine_handle<task_promise<void>> task) noexcept {
    return static_cast<char*>(task.address()) + spawned_tag;  // sets the low bit
  }
  void push_entry(void* entry) noexcept;
  void publish_overflow() noexcept SHOAL_REQUIRES(global_mutex_);
  // True when `entry` went into the ring (by a seq_cst claim), false into the overflow.
  bool enqueue_global(void* entry) noexcept;
  std::coroutine_handle<> pop_overflow(worker& into) noexcept;
  // What worker `by` runs for a global queue entry: the coroutine; for a spawned task, the root
  // made here around it, counted in `by`'s share of the live spawned chains.
  std::coroutine_handle<> runnable(void* entry, worker& by) noexcept;
  void add_spawned(std::int64_t delta) noexcept;
  std::int64_t live_spawned() const noexcept;
  bool quiescent() const noexcept;
  // Some worker's ring or fork deque holds work (any_stealable_work without the global queue).
  bool any_worker_stealable_work() const noexcept;
  void launch(int how) noexcept;
  void abort_start() noexcept;
  void refuse_stop(std::size_t suspended) noexcept;

  static constexpr int launch_wait = 0;
  static constexpr int launch_run = 1;
  static constexpr int launch_abort = 2;
  std::atomic<int> launch_{launch_wait};  // what the worker threads do once created
  std::atomic<bool> started_{false};
  std::atomic<bool> stopping_{false};
  std::atomic<bool> finished_{false};
  std::atomic<bool> retired_{false};  // a stop completed (the pool never runs again)
  std::atomic<std::size_t> exited_{0};
  alignas(64) std::atomic<std::int64_t> external_spawned_{0};
  mutex stop_mutex_;
  std::vector<stop_waiter> stop_waiters_ SHOAL_GUARDED_BY(stop_mutex_);
  bool all_exited_ SHOAL_GUARDED_BY(stop_mutex_) = false;
  mutex join_mutex_;  // held while joining the worker threads (their std::thread is in worker)
  blocking_subpool blocking_;  // last: its threads post to the workers above
};

}  // namespace shoal::detail
