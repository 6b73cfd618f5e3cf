// SPDX-License-Identifier: Apache-2.0
// The shared half of a thread_pool (pool_state.hpp).
#include "pool/pool_state.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "pool/full_fence.hpp"
#include "shoal/detail/root_task.hpp"
#include "shoal/task.hpp"

namespace shoal::detail {
namespace {

std::size_t worker_count(const thread_pool_options& options) {
  if (options.workers != 0) return options.workers;
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

constexpr std::size_t global_ring_slots = 1024;

std::uint64_t pick_seed(const thread_pool_options& options) {
  if (options.shuffle_seed != 0) return options.shuffle_seed;
  std::random_device device;
  return (std::uint64_t{device()} << 32) | device() | 1;
}

}  // namespace

pool_state::pool_state(thread_pool& owner, const thread_pool_options& options)
    : owner_(&owner),
      shuffle_seed_(pick_seed(options)),
      global_ring_(global_ring_slots),
      blocking_(*this, options.blocking_threads, options.blocking_keep_alive) {
  const std::size_t n = worker_count(options);
  workers_.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    workers_.push_back(std::make_unique<worker>(*this, k, options));
  }
}

// Allocation: the ring's 1,024 cells were made by the constructor; past that the overflow queue
// grows to the most it ever held, then never allocates again. Growing is the only failure, and a
// post cannot report one: out of memory there terminates (noexcept), as documented in
// docs/design/scheduler.md.
void pool_state::push_entry(void* entry) noexcept {
  if (enqueue_global(entry)) {
    notify_work_after_rmw();
  } else {
    notify_work();
  }
}

// A spill from a full local ring: into the ring while it has room, the rest into the overflow
// under one lock (a worker flooding its own ring spills here every 128 posts).
void pool_state::push_global(const std::vector<void*>& batch) noexcept {
  std::size_t i = 0;
  // relaxed: as in enqueue_global.
  if (!overflow_nonempty_.load(std::memory_order_relaxed)) {
    while (i < batch.size()) {
      const std::size_t pushed = global_ring_.push_some(batch.data() + i, batch.size() - i);
      if (pushed == 0) break;
      i += pushed;
    }
  }
  if (i == batch.size()) return;
  const mutex_lock lock(global_mutex_);
  for (; i < batch.size(); ++i) overflow_.push_back(batch[i]);
  publish_overflow();
}

bool pool_state::enqueue_global(void* entry) noexcept {
  // relaxed: a stale zero only lets this item into the ring ahead of overflowed ones (a moment
  // of unfairness, never a loss); the ring's own ordering publishes it.
  if (!overflow_nonempty_.load(std::memory_order_relaxed) && global_ring_.push(entry)) return true;
  const mutex_lock lock(global_mutex_);
  overflow_.push_back(entry);
  publish_overflow();
  return false;
}

// Only a change of emptiness is stored: the flag's line is read by every idle or searching
// worker, and a store per post to it (the size, as it once was) cost the poster a transfer of
// that line per post while the workers polled it.
void pool_state::publish_overflow() noexcept {
  const bool nonempty = !overflow_.empty();
  // relaxed: written only under global_mutex_, which this thread holds.
  if (overflow_nonempty_.load(std::memory_order_relaxed) != nonempty) {
    overflow_nonempty_.store(nonempty, std::memory_order_release);  // pairs with global_empty
  }
}

// The root of a spawned task is made by the worker that takes it, from that worker's own frame
// cache: the poster writes one frame per spawn (the task's), and the root's lines stay on this
// core (docs/design/scheduler.md, "The entry path"). Counted here rather than by the poster:
// until now the task was queued, which a stop decision sees as work to come (not quiescent), so
// at no moment is the chain neither queued nor counted. Out of memory for the root terminates
// (noexcept), as for a post's queue room.
std::coroutine_handle<> pool_state::runnable(void* entry, worker& by) noexcept {
  const auto bits = reinterpret_cast<std::uintptr_t>(entry);
  if ((bits & spawned_tag) == 0) return std::coroutine_handle<>::from_address(entry);
  void* frame = static_cast<char*>(entry) - spawned_tag;
  // The poster wrote the task's frame on its core: start taking its first two lines (the resume
  // pointer, the promise) now, for writing, while the share taken with it is queued ahead of it.
  __builtin_prefetch(frame, 1);
  __builtin_prefetch(static_cast<char*>(frame) + 64, 1);
  auto task = std::coroutine_handle<task_promise<void>>::from_address(frame);
  root_task root = run_root<void>(task.promise().get_return_object(), nullptr);
  by.add_spawned(1);
  return root.start_with(&spawned_ended, this, nullptr);
}

std::coroutine_handle<> pool_state::pop_global(worker& into) noexcept {
  // Take a fair share, bounded by the room in the local ring, so one worker does not hoard it.
  const std::size_t room = into.ring().capacity() - into.ring().size();
  const std::size_t share = std::min(global_ring_.size() / workers_.size() + 1, room / 2 + 1);
  // The local ring has room for every item but the one returned: these pushes cannot fail.
  void* first = global_ring_.pop_some(
      share, [this, &into](void* entry) { into.ring().push(runnable(entry, into)); });
  if (first != nullptr) return runnable(first, into);
  return pop_overflow(into);
}

// Entries are moved out under the lock and made runnable (roots made) after it, so that a poster
// waiting for the lock does not wait for the allocations.
std::coroutine_handle<> pool_state::pop_overflow(worker& into) noexcept {
  // acquire: pairs with publish_overflow's release.
  if (!overflow_nonempty_.load(std::memory_order_acquire)) return nullptr;
  std::vector<void*>& taken = into.overflow_share();
  taken.clear();
  {
    const mutex_lock lock(global_mutex_);
    if (overflow_.empty()) return nullptr;
    // A fair share, and room in the local ring for all but the first.
    const std::size_t room = into.ring().capacity() - into.ring().size();
    std::size_t take = std::min(overflow_.size() / workers_.size() + 1, into.ring().capacity() / 2);
    take = std::min({take, overflow_.size(), room + 1});
    for (std::size_t i = 0; i < take; ++i) taken.push_back(overflow_.pop_front());
    publish_overflow();
  }
  for (std::size_t i = 1; i < taken.size(); ++i) into.ring().push(runnable(taken[i], into));
  return runnable(taken[0], into);
}

void pool_state::notify_work() noexcept {
  full_fence();  // pairs with worker::park's fence
  if (idle_.load(std::memory_order_seq_cst) == 0) return;
  if (spinning_.load(std::memory_order_seq_cst) != 0) return;
  wake_one();
}

// Why no fence here: the ring's claim of the position (a seq_cst CAS on its tail) and the seq_cst
// loads below are in the single total order S with the parking worker's seq_cst increment of
// idle_ and its fence. Were both to miss each other (this load not seeing the increment, the
// worker's read of the tail after its fence not seeing the claim), S would order the claim before
// the load (program order), the load before the increment (it read an older value), the
// increment before the fence, and the fence before the claim ([atomics.order]: a fence that
// happens before a read of an older value precedes the write it missed): a cycle. On x86 the
// claim's locked instruction is the barrier, and the fence's mfence goes away.
void pool_state::notify_work_after_rmw() noexcept {
  if (idle_.load(std::memory_order_seq_cst) == 0) return;
  if (spinning_.load(std::memory_order_seq_cst) != 0) return;
  wake_one();
}

bool drop_relaxed_wakeups = false;

void pool_state::notify_work_relaxed() noexcept {
  if (workers_.size() < 2) return;
  if (idle_.load(std::memory_order_relaxed) == 0) return;
  if (spinning_.load(std::memory_order_relaxed) != 0) return;
  if (drop_relaxed_wakeups) return;  // off the hot path: read only when about to wake
  wake_one();
}

// Coalesced wake-ups: the claimed sleeper is counted as spinning on its behalf before it is
// unparked, so the posts that follow see a spinner and wake nobody more until it has found work
// (it then wakes the next one if work is left: worker::stop_searching) or given up. A burst of
// posts from outside the pool costs one futex wake at a time, not one per post.
void pool_state::wake_one() noexcept {
  for (auto& w : workers_) {
    if (w->claim_sleeping()) {
      begin_spinning();  // handed to the worker, which ends it (worker::stop_searching)
      w->unpark();
      return;
    }
  }
}

std::size_t pool_state::enter_idle() noexcept {
  return idle_.fetch_add(1, std::memory_order_seq_cst) + 1;
}

void pool_state::leave_idle(worker& w) noexcept {
  // Once per park, never on the hot path. The lock orders this exit with any finish decision:
  // a decision made before it saw this worker idle, with nothing to run.
  const mutex_lock lock(finish_mutex_);
  idle_.fetch_sub(1, std::memory_order_seq_cst);
  w.clear_owner_work_while_idle();
}

bool pool_state::any_stealable_work() const noexcept {
  return !global_empty() || any_worker_stealable_work();
}

bool pool_state::any_ready_stealable_work() const noexcept {
  // acquire: pairs with publish_overflow's release.
  return global_ring_.front_published() || overflow_nonempty_.load(std::memory_order_acquire) ||
         any_worker_stealable_work();
}

bool pool_state::any_worker_stealable_work() const noexcept {
  for (const auto& w : workers_) {
    if (!w->ring().empty() || !w->forks().empty()) return true;
  }
  return false;
}

void (*stop_decision_probe)(const blocking_subpool& blocking) noexcept = nullptr;
void (*mpmc_push_claimed_probe)() noexcept = nullptr;

bool pool_state::any_queued_work() const noexcept {
  if (any_stealable_work()) return true;
  for (const auto& w : workers_) {
    if (w->has_inbox_work()) return true;
  }
  return false;
}

// Under finish_mutex_: every worker idle (and, under the lock, staying so), nothing queued
// anywhere, owner-only queues included, and no timer armed: no running coroutine is left to make
// work ready, and none will be made ready by the pool's own clock.
bool pool_state::quiescent() const noexcept {
  if (idle_.load(std::memory_order_seq_cst) < workers_.size()) return false;
  // A blocking call in flight will post its coroutine back: work to come, like a timer. Read
  // before the queues: its thread posts the continuation, then uncounts the call (seq_cst), so
  // a zero read here happens after that post, which the queue read below then sees (the worker
  // it went to is counted idle and, under finish_mutex_, cannot drain it meanwhile). Read after
  // them, the count could miss the call while they missed its continuation.
  const bool blocking_in_flight = blocking_.in_flight() != 0;
  if (stop_decision_probe != nullptr) stop_decision_probe(blocking_);
  if (blocking_in_flight || any_queued_work()) return false;
  for (const auto& w : workers_) {
    if (w->owner_work_while_idle() || w->timers_armed()) return false;
  }
  return true;
}

void pool_state::blocking_drained() noexcept {
  // seq_cst: after the subpool's seq_cst decrement; pairs with request_stop's exchange. Either
  // the decision read the count after the decrement (zero: it may finish), or this sees the
  // request and wakes the workers to decide again.
  if (!stopping_.load(std::memory_order_seq_cst)) return;
  for (auto& w : workers_) w->unpark();
}

bool pool_state::try_finish() noexcept {
  {
    const mutex_lock lock(finish_mutex_);
    if (finished_.load(std::memory_order_relaxed)) return true;  // written under this lock
    // Re-read under the lock: a refusal (also under it) may have withdrawn the request.
    if (!stopping_.load(std::memory_order_acquire) || !quiescent()) return false;
    const std::int64_t suspended = live_spawned();
    if (suspended != 0) {
      refuse_stop(static_cast<std::size_t>(suspended));
      return false;
    }
    // release: pairs with the acquire loads in finished(): a worker that sees it exits.
    finished_.store(true, std::memory_order_release);
  }
  for (auto& w : workers_) w->unpark();
  return true;
}

void pool_state::refuse_stop(std::size_t suspended) noexcept {
  std::vector<stop_waiter> waiters;
  {
    const mutex_lock lock(stop_mutex_);
    stopping_.store(false, std::memory_order_release);  // pairs with stopping()'s acquire
    waiters.swap(stop_waiters_);
  }
  for (const stop_waiter& w : waiters) {
    *w.refused = suspended;
    w.resume_on->post(w.h, true);  // the post publishes *refused to the awaiter
  }
}

void pool_state::spawned_ended(void* self, std::coroutine_handle<> root) noexcept {
  root.destroy();
  static_cast<pool_state*>(self)->add_spawned(-1);
}

void pool_state::add_spawned(std::int64_t delta) noexcept {
  worker* w = worker::current();
  if (w != nullptr && &w->pool() == this) {
    w->add_spawned(delta);
  } else {
    // release: pairs with live_spawned's acquire (through this thread's later synchronisation
    // with the deciding worker, as before the counter was sharded).
    external_spawned_.fetch_add(delta, std::memory_order_release);
  }
}

// Under finish_mutex_, every worker idle: each worker's own count was written before it went
// idle (its seq_cst enter_idle, which the decision's read of the idle count follows).
std::int64_t pool_state::live_spawned() const noexcept {
  // acquire: pairs with add_spawned's release.
  std::int64_t live = external_spawned_.load(std::memory_order_acquire);
  for (const auto& w : workers_) live += w->spawned_count();
  return live;
}

void pool_state::start() {
  // Once: a pool is not restarted after stop (its finished state is final).
  // acquire: pairs with the release in start() or stop's join, whichever came last.
  if (started_.load(std::memory_order_acquire) || stopping_.load(std::memory_order_acquire) ||
      retired_.load(std::memory_order_acquire)) {
    throw std::logic_error("shoal::thread_pool::start called twice, or after stop");
  }
  started_.store(true, std::memory_order_release);  // pairs with running()'s acquire
  // All or nothing: the threads wait for the launch, so one that cannot be created (out of
  // memory or threads) leaves the pool as never started.
  try {
    for (auto& w : workers_) w->start_thread();
  } catch (...) {
    abort_start();
    throw;
  }
  launch(launch_run);
}

void pool_state::launch(int how) noexcept {
  launch_.store(how, std::memory_order_release);  // pairs with wait_for_launch's acquire
  launch_.notify_all();
}

void pool_state::abort_start() noexcept {
  launch(launch_abort);
  for (auto& w : workers_) w->join_thread();
  launch_.store(launch_wait, std::memory_order_relaxed);  // no worker thread is left to read it
  started_.store(false, std::memory_order_release);       // pairs with running()'s acquire
}

bool pool_state::wait_for_launch() const noexcept {
  int how = launch_.load(std::memory_order_acquire);  // pairs with launch's release
  while (how == launch_wait) {
    launch_.wait(launch_wait, std::memory_order_acquire);
    how = launch_.load(std::memory_order_acquire);
  }
  return how == launch_run;
}

void pool_state::request_stop(executor* resume_on, std::coroutine_handle<> h,
                              std::size_t* refused) {
  mutex_lock lock(stop_mutex_);
  if (all_exited_) {
    lock.unlock();
    resume_on->post(h, true);
    return;
  }
  stop_waiters_.push_back({resume_on, h, refused});  // may throw: nothing requested yet
  // seq_cst: pairs with a refusal's store (only the request that sets it wakes the workers), and
  // with blocking_drained's read (see there).
  const bool first = !stopping_.exchange(true, std::memory_order_seq_cst);
  lock.unlock();
  if (first) {
    for (auto& w : workers_) w->unpark();  // sleepers re-evaluate: maybe the pool is done
  }
}

void pool_state::worker_exited() noexcept {
  // acq_rel: pairs with the other workers' increments; the last one sees everything they did.
  if (exited_.fetch_add(1, std::memory_order_acq_rel) + 1 != workers_.size()) return;
  std::vector<stop_waiter> waiters;
  {
    const mutex_lock lock(stop_mutex_);
    all_exited_ = true;
    waiters.swap(stop_waiters_);
  }
  // The workers are leaving their loops: posting to another executor is all that may happen
  // here. Each awaiter joins the threads (pool_stop_awaiter::await_resume).
  for (const stop_waiter& w : waiters) w.resume_on->post(w.h, true);
}

void pool_state::join() {
  const mutex_lock lock(join_mutex_);
  for (auto& w : workers_) w->join_thread();
  blocking_.shutdown();  // nothing in flight (the pool finished): its threads wait or retired
  retired_.store(true, std::memory_order_release);   // pairs with start()'s acquire
  started_.store(false, std::memory_order_release);  // pairs with running()'s acquire
}

}  // namespace shoal::detail
