// SPDX-License-Identifier: Apache-2.0
// A thread_pool worker: its loop, its queues and how it goes idle (worker.hpp).
#include "pool/worker.hpp"

#include <pthread.h>

#include <algorithm>
#include <optional>
#include <string>

#include "pool/full_fence.hpp"
#include "pool/pool_state.hpp"
#include "shoal/detail/transfer.hpp"

namespace shoal::detail {
namespace {

thread_local worker* this_worker = nullptr;

constexpr unsigned max_lifo_streak = 3;
// Forked children taken in a row while other local work waits: a fork tree goes depth first,
// but a ring or pinned item still gets a turn at least every 65 resumptions from the loop.
constexpr unsigned max_fork_streak = 64;
constexpr std::uint64_t global_check_interval = 61;  // prime: avoids lockstep with other periods
constexpr std::uint64_t timer_check_interval = 16;
constexpr std::uint64_t io_check_interval = 32;
constexpr std::size_t preallocated_queue_slots = 64;

void notify_forks(void* pool) noexcept { static_cast<pool_state*>(pool)->notify_work_relaxed(); }

void cpu_relax() noexcept {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

worker::worker(pool_state& pool, std::size_t index, const thread_pool_options& options)
    : pool_(&pool),
      index_(index),
      spin_rounds_(options.spin_rounds),
      shuffle_(options.shuffle),
      rng_(pool.shuffle_seed() * 0x9E3779B97F4A7C15ULL + index + 1),
      ring_(options.local_queue_capacity) {
  spill_.reserve(ring_.capacity() / 2 + 1);
  overflow_share_.reserve(ring_.capacity() / 2 + 1);
  // Room made now, where a failure is an exception, for the queues a post pushes onto (a post
  // cannot report one): see post().
  pinned_.reserve(preallocated_queue_slots);
  inbox_.reserve(preallocated_queue_slots);
  draining_.reserve(preallocated_queue_slots);
  forks_.pool = &pool;
  forks_.idle = &pool.idle_count();
  forks_.notify = &notify_forks;
  forks_.notify_arg = &pool;
  set_fork_support(&forks_);
}

worker* worker::current() noexcept { return this_worker; }

std::uint64_t worker::random() noexcept {  // xorshift64
  rng_ ^= rng_ << 13;
  rng_ ^= rng_ >> 7;
  rng_ ^= rng_ << 17;
  return rng_;
}

worker_stats worker::stats() const noexcept {
  return {resumed_.load(std::memory_order_relaxed), stolen_.load(std::memory_order_relaxed),
          parked_.load(std::memory_order_relaxed), timers_fired_.load(std::memory_order_relaxed)};
}

void worker::start_thread() {
  thread_ = std::thread([this] { run(); });
  const std::string name = "shoal-w" + std::to_string(index_);
  pthread_setname_np(thread_.native_handle(), name.substr(0, 15).c_str());
}

void worker::join_thread() {
  if (thread_.joinable()) thread_.join();
}

void worker::push_unpinned(std::coroutine_handle<> h) noexcept {
  if (!ring_.push(h)) {
    // Full: spill half of the ring and `h` to the global queue, where any worker can take them.
    spill_.clear();
    for (std::size_t i = 0; i < ring_.capacity() / 2; ++i) {
      if (auto item = ring_.pop()) spill_.push_back(item.address());
    }
    spill_.push_back(h.address());
    pool_->push_global(spill_);
  }
  pool_->notify_work_relaxed();
}

void worker::post(std::coroutine_handle<> h, bool pinned) noexcept {
  if (executor::current() == this) {  // this worker's thread, in its own loop
    if (pinned) {
      pinned_.push_back(h);
      // seq_cst: pairs with try_finish's load under the finish mutex (pool_state.hpp): a
      // decision that does not see this comes before it, and its work is not dropped unseen.
      if (parked_in_pool_) owner_work_while_idle_.store(true, std::memory_order_seq_cst);
    } else {
      push_unpinned(h);
    }
    return;
  }
  if (!pinned && this_worker == this) {
    // From a sync_wait nested on this worker, which is blocked in it: not onto its ring with a
    // wake-up that may be missed (no one would run it), but onto the global queue, whose post is
    // fenced (pool_state.hpp, "Waking"). Pinned work goes to the inbox below, drained on return.
    pool_->push_global(h);
    return;
  }
  {
    // Allocation: room for 64 items was made by the constructor; inbox_ and draining_ swap, each
    // keeping its capacity, so the inbox allocates only while it grows past the most it ever
    // held. Out of memory then terminates (noexcept: a post cannot report it; the same for
    // pinned_ above). docs/design/scheduler.md.
    const mutex_lock lock(inbox_mutex_);
    inbox_.push_back({h, pinned});
    inbox_nonempty_.store(true, std::memory_order_release);  // pairs with drain_inbox's acquire
  }
  parker_.unpark();
}

namespace {

// pinned_'s entries: a coroutine's address, with the low bit set for sticky work (a frame is
// aligned to at least 8 bytes, so the bit is free).
constexpr std::uintptr_t sticky_bit = 1;

bool is_sticky(std::coroutine_handle<> h) noexcept {
  return (reinterpret_cast<std::uintptr_t>(h.address()) & sticky_bit) != 0;
}

void* unmarked_address(std::coroutine_handle<> h) noexcept {
  // Pointer arithmetic, not a cast from an integer: clears the mark on a marked entry.
  return static_cast<char*>(h.address()) -
         (reinterpret_cast<std::uintptr_t>(h.address()) & sticky_bit);
}

std::coroutine_handle<> unmarked(std::coroutine_handle<> h) noexcept {
  return std::coroutine_handle<>::from_address(unmarked_address(h));
}

}  // namespace

// Sticky work is pinned work that before_blocking gives up: marked in pinned_ (see above).
void worker::post_sticky(std::coroutine_handle<> h) noexcept {
  if (executor::current() != this) {
    post(h, false);  // not made here (or here, blocked in a nested sync_wait): nothing to keep
    return;
  }
  post(std::coroutine_handle<>::from_address(static_cast<char*>(h.address()) + sticky_bit), true);
}

// sync_wait is about to block this thread: the sticky entries of pinned_ go to the global queue
// (in their order), the bound ones stay. Then, whenever this worker holds work another worker may
// take (those entries, its ring, its fork deque), a fenced notify: the pushes onto the ring and
// the deque woke nobody reliably (notify_work_relaxed), which was safe only while this worker
// would run them itself (pool_state.hpp, "Waking").
void worker::before_blocking() noexcept {
  if (this_worker != this) return;
  spill_.clear();
  for (std::size_t n = pinned_.size(); n > 0; --n) {
    const std::coroutine_handle<> h = pinned_.pop_front();
    if (is_sticky(h)) {
      spill_.push_back(unmarked_address(h));
    } else {
      pinned_.push_back(h);
    }
  }
  if (!spill_.empty()) pool_->push_global(spill_);
  if (!spill_.empty() || !ring_.empty() || !forks_.deque.empty()) pool_->notify_work();
}

void worker::defer(std::coroutine_handle<> h) noexcept {
  if (this_worker != this || shuffle_ || parked_in_pool_) {
    post(h, true);
    return;
  }
  if (lifo_) pinned_.push_back(lifo_);
  lifo_ = h;
}

void worker::drain_inbox() {
  if (!inbox_nonempty_.load(std::memory_order_acquire)) return;  // pairs with post
  {
    const mutex_lock lock(inbox_mutex_);
    draining_.swap(inbox_);
    inbox_nonempty_.store(false, std::memory_order_relaxed);
  }
  inbox_active_ = inbox_active_ || !draining_.empty();
  for (const inbox_item& item : draining_) {
    if (item.pinned) {
      pinned_.push_back(item.h);
    } else {
      push_unpinned(item.h);
    }
  }
  draining_.clear();
  if (shuffle_) shuffle_pinned();
}

void worker::fire_due_timers() noexcept {
  if (timers_.empty()) return;
  const time_point t = clock::now();
  while (timer_node* node = timers_.pop_expired(t)) {
    count(timers_fired_);
    node->fire(*node);
  }
}

void worker::shuffle_pinned() noexcept {
  if (pinned_.size() < 2) return;
  std::swap(pinned_[0], pinned_[random() % pinned_.size()]);
}

void worker::shuffle_ring() noexcept {
  // Rotate the ring by a random amount: only the owner pushes, so this cannot fail.
  const std::size_t n = ring_.size();
  if (n < 2) return;
  for (std::size_t k = random() % n; k > 0; --k) {
    if (auto h = ring_.pop()) ring_.push(h);
  }
}

std::coroutine_handle<> worker::pop_ring_or_pinned() noexcept {
  if (shuffle_) {
    shuffle_ring();
    shuffle_pinned();
  }
  // Alternate on a toggle of its own (not the tick's parity, which a loop of an even period
  // would pin to one value), so neither queue starves the other.
  pinned_turn_ = !pinned_turn_;
  const bool pinned_first = pinned_turn_;
  if (pinned_first && !pinned_.empty()) return unmarked(pinned_.pop_front());
  if (auto h = ring_.pop()) return h;
  if (!pinned_.empty()) return unmarked(pinned_.pop_front());
  return nullptr;
}

std::coroutine_handle<> worker::next_local() noexcept {
  ++tick_;
  if (tick_ % timer_check_interval == 0) fire_due_timers();
  if (tick_ % io_check_interval == 0) poll_io();
  if (tick_ % global_check_interval == 0) {
    if (auto h = pool_->pop_global(*this)) return h;
  }
  if (lifo_) {
    if (lifo_streak_ < max_lifo_streak) {
      ++lifo_streak_;
      return std::exchange(lifo_, nullptr);
    }
    pinned_.push_back(std::exchange(lifo_, nullptr));
  }
  lifo_streak_ = 0;
  if (fork_streak_ < max_fork_streak) {
    if (auto h = pop_forked()) {
      ++fork_streak_;
      return h;
    }
  }
  fork_streak_ = 0;
  drain_inbox();
  if (auto h = pop_ring_or_pinned()) return h;
  if (auto h = pop_forked()) return h;
  fire_due_timers();
  drain_inbox();
  return pop_ring_or_pinned();
}

// The newest forked child: of the fork deque, else of the bound stack (children of chains bound
// here, which only this worker may run: served with the deque, before the pinned queue, so a
// bound fork tree unfolds depth first too).
std::coroutine_handle<> worker::pop_forked() noexcept {
  return forks_.deque.pop_or([this]() noexcept { return forks_.bound.pop(); });
}

std::coroutine_handle<> worker::steal() noexcept {
  const std::size_t n = pool_->size();
  if (n < 2) return nullptr;
  const std::size_t start = random() % n;
  for (std::size_t i = 0; i < n; ++i) {
    worker& victim = pool_->at((start + i) % n);
    if (&victim == this) continue;
    if (auto h = victim.forks_.deque.steal()) {
      count(stolen_);
      return h;
    }
    if (auto h = victim.ring_.steal_into(ring_)) {
      count(stolen_);
      return h;
    }
  }
  return nullptr;
}

std::coroutine_handle<> worker::next_remote() noexcept {
  if (auto h = pool_->pop_global(*this)) return h;
  return steal();
}

bool worker::has_local_work() const noexcept {
  return lifo_ || !pinned_.empty() || !ring_.empty() || !forks_.deque.empty() ||
         !forks_.bound.empty() || inbox_nonempty_.load(std::memory_order_acquire);
}

bool worker::claim_sleeping() noexcept {
  bool expected = true;
  return sleeping_.compare_exchange_strong(expected, false, std::memory_order_acq_rel);
}

bool worker::timer_due() const noexcept {
  const auto next = timers_.next_deadline();
  return next && *next <= clock::now();
}

bool worker::poll_io() noexcept { return reactor_.active() && reactor_.poll_now() != 0; }

// With no work found, this worker would go straight to its reactor's wait: no idle hook to run
// first, no reason to spin. That wait dispatches what is ready as well, so a non-blocking poll
// before it would be a second epoll call whenever nothing is ready (docs/design/reactor.md).
bool worker::parks_in_reactor_at_once() const noexcept {
  return reactor_.active() && !idle_hooks_.any() && !inbox_active_ && !pool_->worth_spinning();
}

bool worker::spin_for_work() noexcept {
  // Spinning pays while other workers run and may produce work to steal, or while other
  // threads are handing this worker work (a ping-pong: the answer comes in microseconds, far
  // sooner than a futex wake-up). Otherwise work can only come from this worker's own timers:
  // park at once rather than burn CPU between them.
  const bool handed_work = std::exchange(inbox_active_, false);
  if (!pool_->worth_spinning() && !handed_work) return false;
  pool_->begin_spinning();
  bool found = false;
  for (unsigned i = 0; i < spin_rounds_ && !found; ++i) {
    // Ready work only: a global push claimed and not yet published is left to park (see there).
    found = has_local_work() || pool_->any_ready_stealable_work() || timer_due();
    for (int k = 0; k < 16 && !found; ++k) cpu_relax();
    // Now and then give the core away: the thread we wait for may be queued behind us on it.
    if (!found && i % 4 == 3) {
      std::this_thread::yield();
      found = poll_io();  // an answer on a socket is work too
    }
  }
  // The last spinner to find work wakes a sleeper, so that work arriving in bursts spreads.
  if (pool_->end_spinning() && found) pool_->notify_work();
  return found;
}

// The deadline of a park while only a claimed global push is pending: the next timer's, or
// sooner, after the current back-off, which doubles for the next one (up to a millisecond).
std::optional<time_point> worker::claim_deadline() noexcept {
  const time_point backoff = clock::now() + claim_backoff_;
  claim_backoff_ = std::min(claim_backoff_ * 2, max_claim_backoff);
  const std::optional<time_point> timer = timers_.next_deadline();
  return timer && *timer < backoff ? *timer : backoff;
}

void worker::park() {
  timers_armed_.store(!timers_.empty(), std::memory_order_relaxed);  // published by enter_idle
  pool_->enter_idle();
  parked_in_pool_ = true;
  sleeping_.store(true, std::memory_order_seq_cst);
  full_fence();  // pairs with pool_state::notify_work
  // Only what this worker may run: its own queues, the global queue, other rings. (Pinned work
  // in another worker's inbox is not ours; counting it would keep us awake, spinning, until
  // its owner drains it.)
  const bool work = has_local_work() || pool_->any_ready_stealable_work();
  // Only a global push claimed and not yet published (its producer preempted between its two
  // stores, mpmc_ring.hpp): nothing to run yet, and the producer's wake-up may miss us. Sleep,
  // with a deadline that doubles while it lasts, rather than cycle here at full speed.
  const bool claimed = !work && pool_->any_stealable_work();
  const bool finished = !work && !claimed && pool_->stopping() && pool_->try_finish();
  if (!work && !finished) {
    count(parked_);
    parker_.park(claimed ? claim_deadline() : timers_.next_deadline());  // may dispatch I/O
  }
  if (!claimed) claim_backoff_ = min_claim_backoff;
  // acq_rel: pairs with claim_sleeping's CAS. Already false: a waker claimed this worker and
  // counted it as spinning (pool_state::wake_one); it searches for work under that count.
  searching_ = !sleeping_.exchange(false, std::memory_order_acq_rel);
  parked_in_pool_ = false;
  pool_->leave_idle(*this);
}

// Ends the spinning count a waker gave this worker. Having found work, the last spinner wakes
// another sleeper if more work waits (the chain that spreads a burst over the pool); having found
// none, it goes on to spin or park, whose rechecks follow this decrement (pool_state.hpp).
void worker::stop_searching(bool found) noexcept {
  searching_ = false;
  if (pool_->end_spinning() && found) pool_->notify_work();
}

bool worker::wait_for_work() {
  if (searching_) stop_searching(false);
  if (pool_->finished()) return false;
  if (!parks_in_reactor_at_once() && poll_io()) return true;
  if (idle_hooks_.run()) return true;  // a hook made work ready: run it rather than wait
  if (spin_for_work()) return true;
  park();
  return !pool_->finished();
}

void worker::run() {
  if (!pool_->wait_for_launch()) return;  // start() failed part-way: leave without running
  this_worker = this;
  reactor_.set_owner_thread();
  executor_scope scope(this);
  for (;;) {
    std::coroutine_handle<> h = next_local();
    if (!h) h = next_remote();
    if (h) {
      if (searching_) stop_searching(true);
      // The next item's frame was most likely last written by another core (work posted from
      // outside): start fetching it while this one runs. A hint only: it may be gone by then.
      if (void* next = ring_.peek()) __builtin_prefetch(next);
      count(resumed_);
      forks_.handoffs = 0;
      resume(h);
      continue;
    }
    if (!wait_for_work()) break;
  }
  this_worker = nullptr;
  pool_->worker_exited();
}

}  // namespace shoal::detail
