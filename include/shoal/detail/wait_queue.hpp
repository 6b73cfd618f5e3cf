// SPDX-License-Identifier: Apache-2.0
// shoal/detail/wait_queue.hpp: waiting, cancellation and wake-up, once for every primitive.
//
// What: async_event, async_semaphore, async_mutex, channel and gate each keep their state and
// one or two wait_lists behind a spin_lock. Awaiting one of their operations goes through
// `waiter`, the awaiter they all share: under the primitive's lock it asks the primitive to
// complete the operation at once (`wait_site::attempt`), and otherwise links itself at the tail
// of the primitive's list. A primitive that can satisfy a waiter (a release, a set, a send)
// takes it out of its list under the lock, records the outcome in it (`grant`, or nothing for a
// refusal such as close), and wakes it once the lock is released (`wake_list`).
//
// Cost: a waiter is a node living in the awaiting frame (list links, handle, wake target, a
// std::stop_callback): waiting allocates nothing.
//
// Cancellation: when the chain's stop token can be stopped, a waiting waiter registers a stop
// callback. The callback takes the primitive's lock and, if the waiter is still linked, unlinks
// it and wakes it with no grant. Whoever unlinks a waiter under the lock (the primitive granting
// or refusing it, or its stop callback) alone decides its outcome: a grant that came first is
// kept (a permit handed over is the waiter's; it is never lost nor given twice), a stop that came
// first leaves nothing to give back. A stop requested before the operation starts completes it
// at once with no grant, without touching the primitive.
//
// Resumption, and why no wake-up is lost: the waker must not resume a coroutine whose
// await_suspend is still running (still registering its stop callback), and must not resume it
// inline on its own thread. `handshake_` has two bits: await_suspend sets `suspended` when it
// has finished touching the waiter, the waker sets `woken` once the outcome is recorded. Both use
// one fetch_or, so exactly one of them sees the other's bit: if the waker comes second it posts
// the coroutine to its wake target (wake_target::of: the chain's home worker, pinned, when bound;
// else the executor it suspended on); if await_suspend comes second it returns false and the
// coroutine continues on its own thread at once. The waker never runs the coroutine itself.
//
// Thread-safety: every primitive operation, grant and stop may come from any thread. A waiter is
// awaited once, by one coroutine; it may be moved before it is awaited, never after.
#pragma once

#include <atomic>
#include <coroutine>
#include <optional>
#include <stop_token>
#include <utility>

#include "shoal/detail/spin_lock.hpp"
#include "shoal/detail/task_env.hpp"
#include "shoal/detail/unique_hold.hpp"

namespace shoal::detail {

class waiter;

// An intrusive FIFO of waiters. Thread-safety: none; guarded by its primitive's lock.
class wait_list {
 public:
  [[nodiscard]] bool empty() const noexcept { return head_ == nullptr; }
  void push_back(waiter& w) noexcept;
  // The oldest waiter, unlinked; nullptr when empty.
  [[nodiscard]] waiter* pop_front() noexcept;
  void erase(waiter& w) noexcept;

 private:
  waiter* head_ = nullptr;
  waiter* tail_ = nullptr;
};

// Waiters unlinked under a lock, to be woken (in the order added) once it is released.
// Thread-safety: a local of the thread that unlinked them.
class wake_list {
 public:
  wake_list() noexcept = default;
  wake_list(const wake_list&) = delete;
  wake_list& operator=(const wake_list&) = delete;
  ~wake_list() = default;

  [[nodiscard]] bool empty() const noexcept { return head_ == nullptr; }
  void push_back(waiter& w) noexcept;
  void wake_all() noexcept;

 private:
  waiter* head_ = nullptr;
  waiter* tail_ = nullptr;
};

// Completes `w`'s operation at once if the primitive `owner` can: true when done (and `w`
// granted if it succeeded), false when `w` must wait. Runs under the primitive's lock; waiters
// it satisfies on the way (a receiver handed a value) go to `woken`.
using attempt_fn = bool (*)(void* owner, waiter& w, wake_list& woken) noexcept;

// Runs after the attempt, outside the lock, before the waiters in `woken` are woken: a
// primitive whose state has two locks (a channel's two sides) serves the other side there.
using settle_fn = void (*)(void* owner, wake_list& woken) noexcept;

// Where a waiter waits: its primitive's lock, the list it joins, the attempt above, and an
// optional settle step.
// `near_waker`: an unbound waiter woken by a worker of the pool it waited in is posted to that
// worker rather than to the one it suspended on (a hand-over primitive, whose grant is held
// until the waiter runs, would otherwise wait on a cross-thread wake-up at every hand-over: the
// lock convoy of async_mutex under contention; a channel's producer and consumer woken across
// workers at every full or empty buffer).
struct wait_site {
  spin_lock* lock = nullptr;
  wait_list* list SHOAL_PT_GUARDED_BY(lock) = nullptr;
  attempt_fn attempt = nullptr;
  void* owner = nullptr;
  bool near_waker = false;
  settle_fn settle = nullptr;  // optional (see settle_fn)
};

// The awaiter of every waiting operation. Result: true when granted, false when cancelled or
// refused (derived awaiters give other result types).
class waiter {
 public:
  explicit waiter(const wait_site& site) noexcept : site_(site) {}
  // Movable until awaited (so it can be handed to with_timeout), never after.
  waiter(waiter&& other) noexcept : site_(other.site_) {}
  waiter(const waiter&) = delete;
  waiter& operator=(waiter&&) = delete;
  waiter& operator=(const waiter&) = delete;
  ~waiter() = default;

  bool await_ready() const noexcept { return false; }
  template <class Promise>
  bool await_suspend(std::coroutine_handle<Promise> h) {
    return suspend(h, env_of(h), wake_target::of(h));
  }
  bool await_resume() noexcept {
    stop_callback_.reset();  // waits for a stop callback running concurrently on another thread
    return granted_;
  }

  // By the primitive, under its lock: this waiter's operation succeeded.
  void grant() noexcept { granted_ = true; }

 protected:
  // The primitive this waiter waits on (wait_site::owner): for a derived awaiter's fast path.
  [[nodiscard]] void* owner() const noexcept { return site_.owner; }

 private:
  friend class wait_list;
  friend class wake_list;

  struct on_stop {
    waiter* self;
    void operator()() const noexcept { self->cancel(); }
  };

  static constexpr unsigned char suspended = 1;
  static constexpr unsigned char woken = 2;

  bool suspend(std::coroutine_handle<> h, const task_env* env, wake_target target);
  void cancel() noexcept;
  void wake() noexcept;

  wait_site site_;
  waiter* prev_ = nullptr;  // links: guarded by the site's lock while queued_
  waiter* next_ = nullptr;  // (and, once unlinked, owned by the wake_list it is in)
  bool queued_ = false;     // guarded by the site's lock
  bool granted_ = false;    // written by whoever unlinks it, before wake()
  std::atomic<unsigned char> handshake_{0};
  std::coroutine_handle<> handle_;
  wake_target target_;
  const void* pool_ = nullptr;  // near_waker sites, unbound waiters: the pool it waited in
  std::optional<std::stop_callback<on_stop>> stop_callback_;
};

// A waiter whose result is an RAII hold on `Resource` (empty when cancelled).
template <class Resource>
class scoped_waiter : public waiter {
 public:
  scoped_waiter(Resource& resource, waiter&& inner) noexcept
      : waiter(std::move(inner)), resource_(&resource) {}
  unique_hold<Resource> await_resume() noexcept {
    return unique_hold<Resource>(waiter::await_resume() ? resource_ : nullptr);
  }

 private:
  Resource* resource_;
};

}  // namespace shoal::detail
