// SPDX-License-Identifier: Apache-2.0
// The compiled half of shoal/detail/actor_mailbox.hpp and shoal/detail/actor.hpp.
#include "shoal/detail/actor_mailbox.hpp"

#include "shoal/detail/actor.hpp"
#include "shoal/thread_pool.hpp"

namespace shoal::detail {

bool actor_mailbox::lock_or_push(actor_waiter& w) noexcept {
  // relaxed: only a first guess; every decision is made by a CAS below.
  actor_waiter* seen = state_.load(std::memory_order_relaxed);
  for (;;) {
    if (seen == nullptr) {
      // acquire: pairs with unlock()'s release CAS.
      if (state_.compare_exchange_weak(seen, locked_empty(), std::memory_order_acquire,
                                       std::memory_order_relaxed)) {
        return true;
      }
      continue;
    }
    w.next = seen == locked_empty() ? nullptr : seen;
    // release: publishes w's fields to the holder's exchange in take_stack().
    if (state_.compare_exchange_weak(seen, &w, std::memory_order_release,
                                     std::memory_order_relaxed)) {
      return false;
    }
  }
}

actor_waiter* actor_mailbox::take_stack() noexcept {
  // acquire: pairs with the release CAS of each push, so the nodes' fields are visible. The
  // context stays held (1): the oldest waiter is handed it below.
  actor_waiter* const top = state_.exchange(locked_empty(), std::memory_order_acquire);
  assert(top != nullptr && top != locked_empty());
  actor_waiter* oldest_first = nullptr;
  for (actor_waiter* w = top; w != nullptr;) {
    actor_waiter* const older = w->next;
    w->next = oldest_first;
    oldest_first = w;
    w = older;
  }
  pending_ = oldest_first->next;
  return oldest_first;
}

thread_pool* actor_current_pool() noexcept { return executor_pool(); }

actor_bounce actor_make_bounce() {
  for (;;) co_await actor_bounce_step{};
}

}  // namespace shoal::detail
