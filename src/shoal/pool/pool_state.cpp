// The shared half of a thread_pool (pool_state.hpp).
#include "pool/pool_state.hpp"

#include <random>
#include <stdexcept>

namespace shoal::detail {
namespace {

std::size_t worker_count(const thread_pool_options& options) {
  if (options.workers != 0) return options.workers;
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

constexpr std::size_t preallocated_global_slots = 1024;

std::uint64_t pick_seed(const thread_pool_options& options) {
  if (options.shuffle_seed != 0) return options.shuffle_seed;
  std::random_device device;
  return (std::uint64_t{device()} << 32) | device() | 1;
}

}  // namespace

pool_state::pool_state(thread_pool& owner, const thread_pool_options& options)
    : owner_(&owner), shuffle_seed_(pick_seed(options)) {
  const std::size_t n = worker_count(options);
  global_.reserve(preallocated_global_slots);  // see push_global
  workers_.reserve(n);
  for (std::size_t k = 0; k < n; ++k) {
    workers_.push_back(std::make_unique<worker>(*this, k, options));
  }
}

// Allocation: room for 1024 handles was made by the constructor; past that global_ grows to the
// most it ever held, then never allocates again. Growing is the only failure, and a post cannot
// report one: out of memory there terminates (noexcept), as documented in
// docs/design/scheduler.md.
void pool_state::push_global(std::coroutine_handle<> h) noexcept {
  {
    const mutex_lock lock(global_mutex_);
    global_.push_back(h);
    global_size_.store(global_.size(), std::memory_order_release);  // pairs with global_empty
  }
  notify_work();
}

void pool_state::push_global(const std::vector<std::coroutine_handle<>>& batch) noexcept {
  const mutex_lock lock(global_mutex_);
  for (std::coroutine_handle<> h : batch) global_.push_back(h);
  global_size_.store(global_.size(), std::memory_order_release);  // pairs with global_empty
}

std::coroutine_handle<> pool_state::pop_global(worker& into) noexcept {
  if (global_empty()) return nullptr;
  const mutex_lock lock(global_mutex_);
  if (global_.empty()) return nullptr;
  // Take a fair share, bounded by half the local ring, so one worker does not hoard it.
  std::size_t take = global_.size() / workers_.size() + 1;
  take = std::min(take, into.ring().capacity() / 2);
  std::coroutine_handle<> first = global_.pop_front();
  for (std::size_t i = 1; i < take && !global_.empty(); ++i) {
    if (!into.ring().push(global_[0])) break;
    global_.pop_front();
  }
  global_size_.store(global_.size(), std::memory_order_release);
  return first;
}

void pool_state::notify_work() noexcept {
  std::atomic_thread_fence(std::memory_order_seq_cst);  // pairs with worker::park's fence
  if (idle_.load(std::memory_order_seq_cst) == 0) return;
  if (spinning_.load(std::memory_order_seq_cst) != 0) return;
  wake_one();
}

void pool_state::notify_work_relaxed() noexcept {
  if (workers_.size() < 2) return;
  if (idle_.load(std::memory_order_relaxed) == 0) return;
  if (spinning_.load(std::memory_order_relaxed) != 0) return;
  wake_one();
}

void pool_state::wake_one() noexcept {
  for (auto& w : workers_) {
    if (w->claim_sleeping()) {
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
  if (!global_empty()) return true;
  for (const auto& w : workers_) {
    if (!w->ring().empty()) return true;
  }
  return false;
}

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
  if (any_queued_work()) return false;
  for (const auto& w : workers_) {
    if (w->owner_work_while_idle() || w->timers_armed()) return false;
  }
  return true;
}

bool pool_state::try_finish() noexcept {
  {
    const mutex_lock lock(finish_mutex_);
    if (finished_.load(std::memory_order_relaxed)) return true;  // written under this lock
    // Re-read under the lock: a refusal (also under it) may have withdrawn the request.
    if (!stopping_.load(std::memory_order_acquire) || !quiescent()) return false;
    // acquire: pairs with spawned_ended's release, ordered before its worker went idle.
    const std::size_t suspended = live_spawned_.load(std::memory_order_acquire);
    if (suspended != 0) {
      refuse_stop(suspended);
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
  // release: pairs with try_finish's acquire (through this worker's later enter_idle).
  static_cast<pool_state*>(self)->live_spawned_.fetch_sub(1, std::memory_order_release);
}

void pool_state::start() {
  // Once: a pool is not restarted after stop (its finished state is final).
  // acquire: pairs with the release in start() or stop's join, whichever came last.
  if (started_.load(std::memory_order_acquire) || stopping_.load(std::memory_order_acquire)) {
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
  // acq_rel: pairs with a refusal's store; only the request that sets it wakes the workers.
  const bool first = !stopping_.exchange(true, std::memory_order_acq_rel);
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
  started_.store(false, std::memory_order_release);  // pairs with running()'s acquire
}

}  // namespace shoal::detail
