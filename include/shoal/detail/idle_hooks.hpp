// SPDX-License-Identifier: Apache-2.0
// shoal/detail/idle_hooks.hpp: "run when idle" callbacks of an executor.
//
// What: an `idle_hook` is registered with an executor (executor::add_idle_hook) and stays
// registered until unlink(). Each time that executor runs out of ready work, before it waits for
// timers, I/O or other threads (a pool worker: after its own queues, the global queue and
// stealing all came up empty, before it spins or parks), it calls every registered hook on its
// own thread. A hook that made work ready returns true, and the executor looks for work again
// instead of waiting. shoal::batcher uses this to flush a half-full batch the moment nothing
// else could add to it.
//
// Rules for a hook: it runs under the list's lock, so it must be short, must not add or unlink
// hooks of the same executor, and must not resume coroutines (post them instead).
// Lifetime: unlink() returns only once the hook is neither running nor able to run again, so the
// hook's memory may be freed right after. An executor that is destroyed first orphans its hooks
// (unlink() then does nothing). Do not destroy a hook's owner and its executor concurrently.
// Thread-safety: add from the executor's own thread; unlink from any thread; run() from the
// executor's own thread.
#pragma once

#include <atomic>

#include "shoal/detail/spin_lock.hpp"

namespace shoal::detail {

class idle_hooks;

struct idle_hook {
  // Called on the executor's thread when it is idle; true when it made work ready.
  bool (*run)(idle_hook& self) noexcept = nullptr;

  // Stops calls to this hook; see the header comment. Idempotent.
  void unlink() noexcept;
  [[nodiscard]] bool linked() const noexcept {
    return list_.load(std::memory_order_acquire) != nullptr;  // pairs with add/unlink/orphan
  }

 private:
  friend class idle_hooks;
  std::atomic<idle_hooks*> list_{nullptr};
  idle_hook* prev_ = nullptr;  // guarded by the list's lock
  idle_hook* next_ = nullptr;  // guarded by the list's lock
};

class idle_hooks {
 public:
  idle_hooks() = default;
  idle_hooks(const idle_hooks&) = delete;
  idle_hooks& operator=(const idle_hooks&) = delete;
  ~idle_hooks() { orphan_all(); }

  void add(idle_hook& hook) noexcept {
    const spin_lock::guard guard(lock_);
    hook.prev_ = nullptr;
    hook.next_ = head_;
    if (head_ != nullptr) head_->prev_ = &hook;
    head_ = &hook;
    hook.list_.store(this, std::memory_order_release);  // pairs with idle_hook::linked
    any_.store(true, std::memory_order_release);        // pairs with run()'s acquire load
  }

  // True while a hook may be registered (a hint: one may be unlinking meanwhile).
  [[nodiscard]] bool any() const noexcept {
    return any_.load(std::memory_order_acquire);  // pairs with add's release store
  }
  // Calls every hook; true when one of them made work ready. One relaxed-cost load when empty.
  bool run() noexcept {
    if (!any_.load(std::memory_order_acquire)) return false;  // pairs with add's release store
    bool made_work = false;
    const spin_lock::guard guard(lock_);
    for (idle_hook* h = head_; h != nullptr; h = h->next_) made_work = h->run(*h) || made_work;
    return made_work;
  }

 private:
  friend struct idle_hook;

  void remove_locked(idle_hook& hook) noexcept SHOAL_REQUIRES(lock_) {
    if (hook.prev_ != nullptr) hook.prev_->next_ = hook.next_;
    if (hook.next_ != nullptr) hook.next_->prev_ = hook.prev_;
    if (head_ == &hook) head_ = hook.next_;
    hook.prev_ = hook.next_ = nullptr;
    hook.list_.store(nullptr, std::memory_order_release);  // pairs with idle_hook::linked
    if (head_ == nullptr) any_.store(false, std::memory_order_relaxed);
  }

  void orphan_all() noexcept {
    const spin_lock::guard guard(lock_);
    while (head_ != nullptr) remove_locked(*head_);
  }

  spin_lock lock_;
  idle_hook* head_ SHOAL_GUARDED_BY(lock_) = nullptr;
  std::atomic<bool> any_{false};
};

inline void idle_hook::unlink() noexcept {
  // acquire: pairs with the release stores in add / remove_locked.
  idle_hooks* list = list_.load(std::memory_order_acquire);
  if (list == nullptr) return;
  const spin_lock::guard guard(list->lock_);  // waits for a run() in progress
  if (list_.load(std::memory_order_relaxed) == list) list->remove_locked(*this);
}

}  // namespace shoal::detail
