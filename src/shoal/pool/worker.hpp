// SPDX-License-Identifier: Apache-2.0
// worker.hpp: one thread of a thread_pool, and the executor coroutines running on it see.
//
// Queues, in the order the worker serves them:
//   lifo_    one deferred continuation, run next (at most 3 times in a row, then demoted);
//   forks_   children forked here by when_all / when_any / task_group (detail/fork_deque.hpp),
//            newest first (at most 64 in a row while other local work waits), oldest first for
//            thieves; then, in the same turn and streak, its bound stack: the children forked by
//            chains bound here (detail/bound_fork_stack.hpp), newest first, owner-only;
//   pinned_  work only this worker may run (bound chains, continuations), owner-only FIFO; also
//            its sticky work (post_sticky: an actor's hand-overs), marked in the low bit, which
//            before_blocking moves to the global queue;
//   ring_    stealable local work (spmc_ring), FIFO; overflow spills half to the global queue;
//   inbox_   what other threads post to this worker, drained into pinned_/ring_;
//   then the pool's global queue, other workers' fork deques (steal the oldest one) and rings
//   (steal half).
// Timers live in a heap owned by this worker and fire on its thread. Descriptors watched from
// this worker (shoal/fd_watch.hpp) are registered with its reactor, which it polls without
// blocking every few dozen resumptions and before it goes idle, and sleeps in when idle.
// Idle hooks (shoal/detail/idle_hooks.hpp) run when its queues, the global queue, stealing and
// a non-blocking I/O poll all found nothing, before it spins or parks.
//
// Thread-safety: everything but the inbox, the ring's consumer side, the parker and the
// counters is touched only by the worker's own thread.
#pragma once

#include <atomic>
#include <chrono>
#include <coroutine>
#include <cstdint>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "pool/fifo.hpp"
#include "pool/parker.hpp"
#include "pool/spmc_ring.hpp"
#include "shoal/detail/fork_deque.hpp"
#include "shoal/detail/mutex.hpp"
#include "shoal/detail/timer_heap.hpp"
#include "shoal/executor.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal::detail {

class pool_state;

class worker final : public executor {
 public:
  worker(pool_state& pool, std::size_t index, const thread_pool_options& options);
  ~worker() override = default;

  void post(std::coroutine_handle<> h, bool pinned) noexcept override;
  void defer(std::coroutine_handle<> h) noexcept override;
  void post_sticky(std::coroutine_handle<> h) noexcept override;
  void before_blocking() noexcept override;
  [[nodiscard]] time_point now() const noexcept override { return clock::now(); }
  void add_timer(timer_node& node) override { timers_.push(node); }
  bool cancel_timer(timer_node& node) noexcept override { return timers_.erase(node); }
  reactor* io_reactor() noexcept override { return &reactor_; }
  bool add_idle_hook(idle_hook& hook) noexcept override {
    idle_hooks_.add(hook);
    return true;
  }

  void start_thread();
  void join_thread();
  void unpark() noexcept { parker_.unpark(); }
  // Atomically claims this worker if it is asleep (so one waker wakes it once).
  bool claim_sleeping() noexcept;

  [[nodiscard]] pool_state& pool() const noexcept { return *pool_; }
  [[nodiscard]] std::size_t index() const noexcept { return index_; }
  [[nodiscard]] worker_stats stats() const noexcept;
  // Items posted to this worker by other threads and not yet drained. Any thread.
  [[nodiscard]] bool has_inbox_work() const noexcept {
    return inbox_nonempty_.load(std::memory_order_acquire);  // pairs with post
  }
  spmc_ring& ring() noexcept { return ring_; }
  // Scratch for pool_state::pop_overflow: the entries it took, with room for a share.
  std::vector<void*>& overflow_share() noexcept { return overflow_share_; }
  fork_deque& forks() noexcept { return forks_.deque; }
  // True when, while counted idle, this worker made work ready in its owner-only queues (the
  // reactor it sleeps in dispatched an event to a chain bound here). Read by try_finish and
  // cleared by leave_idle, both under the pool's finish mutex.
  [[nodiscard]] bool owner_work_while_idle() const noexcept {
    return owner_work_while_idle_.load(std::memory_order_seq_cst);  // pairs with post's store
  }
  // Whether this worker had a timer armed when it last went idle (a timer is work to come: stop
  // waits for it). Its heap changes only on its own thread, so while it is counted idle this
  // stays true. Written before enter_idle (whose seq_cst increment publishes it), read by
  // try_finish after its load of the idle count.
  [[nodiscard]] bool timers_armed() const noexcept {
    return timers_armed_.load(std::memory_order_relaxed);  // ordered by the idle count
  }
  void clear_owner_work_while_idle() noexcept {
    owner_work_while_idle_.store(false, std::memory_order_relaxed);  // under the finish mutex
  }

  // This worker's share of its pool's count of live spawned chains (pool_state::add_spawned):
  // written only by this worker's thread, read by the stop decision.
  void add_spawned(std::int64_t delta) noexcept {
    // release: pairs with spawned_count's acquire.
    spawned_.store(spawned_.load(std::memory_order_relaxed) + delta, std::memory_order_release);
  }
  [[nodiscard]] std::int64_t spawned_count() const noexcept {
    return spawned_.load(std::memory_order_acquire);  // pairs with add_spawned
  }

  static worker* current() noexcept;

 private:
  void run();
  std::coroutine_handle<> next_local() noexcept;
  std::coroutine_handle<> next_remote() noexcept;
  std::coroutine_handle<> pop_ring_or_pinned() noexcept;
  std::coroutine_handle<> pop_forked() noexcept;
  std::coroutine_handle<> steal() noexcept;
  bool wait_for_work();
  void stop_searching(bool found) noexcept;
  bool spin_for_work() noexcept;
  bool poll_io() noexcept;
  [[nodiscard]] bool parks_in_reactor_at_once() const noexcept;
  bool timer_due() const noexcept;
  bool has_local_work() const noexcept;
  void park();
  std::optional<time_point> claim_deadline() noexcept;
  void drain_inbox();
  void fire_due_timers() noexcept;
  void push_unpinned(std::coroutine_handle<> h) noexcept;
  void shuffle_pinned() noexcept;
  void shuffle_ring() noexcept;
  std::uint64_t random() noexcept;
  void count(std::atomic<std::uint64_t>& counter) noexcept {
    counter.store(counter.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  pool_state* pool_;
  std::size_t index_;
  unsigned spin_rounds_;
  bool shuffle_;
  std::uint64_t rng_;
  std::thread thread_;

  std::coroutine_handle<> lifo_;
  unsigned lifo_streak_ = 0;
  detail::fork_support forks_;  // lent to when_all / task_group: executor::fork_support()
  unsigned fork_streak_ = 0;
  bool pinned_turn_ = false;   // pop_ring_or_pinned's alternation
  bool inbox_active_ = false;  // drained cross-thread work since it last went idle
  static constexpr std::chrono::microseconds min_claim_backoff{50};
  static constexpr std::chrono::microseconds max_claim_backoff{1000};
  std::chrono::microseconds claim_backoff_ = min_claim_backoff;  // see claim_deadline
  bool parked_in_pool_ = false;  // inside park(), counted idle by the pool
  bool searching_ = false;       // woken by pool_state::wake_one, holding its spinning count
  std::uint64_t tick_ = 0;
  fifo<std::coroutine_handle<>> pinned_;
  spmc_ring ring_;
  std::vector<void*> spill_;           // reused by push_unpinned: global queue entries
  std::vector<void*> overflow_share_;  // see overflow_share()
  timer_heap timers_;
  idle_hooks idle_hooks_;  // run by wait_for_work before spinning or parking

  struct inbox_item {
    std::coroutine_handle<> h;
    bool pinned;
  };
  mutex inbox_mutex_;
  std::vector<inbox_item> inbox_ SHOAL_GUARDED_BY(inbox_mutex_);
  std::vector<inbox_item> draining_;
  std::atomic<bool> inbox_nonempty_{false};

  reactor reactor_;
  parker parker_{reactor_};
  std::atomic<bool> sleeping_{false};
  std::atomic<bool> owner_work_while_idle_{false};
  std::atomic<bool> timers_armed_{false};

  std::atomic<std::int64_t> spawned_{0};
  std::atomic<std::uint64_t> resumed_{0};
  std::atomic<std::uint64_t> stolen_{0};
  std::atomic<std::uint64_t> parked_{0};
  std::atomic<std::uint64_t> timers_fired_{0};
};

}  // namespace shoal::detail
