// SPDX-License-Identifier: Apache-2.0
#include "shoal/async_event.hpp"

#include <cassert>

namespace shoal {

async_event::~async_event() {
  assert(waiters_.empty() && "shoal: async_event destroyed while coroutines wait on it");
}

void async_event::set() noexcept {
  detail::wake_list woken;
  {
    const detail::spin_lock::guard guard(lock_);
    set_.store(true, std::memory_order_release);  // pairs with the acquire load in is_set()
    while (detail::waiter* w = waiters_.pop_front()) {
      w->grant();
      woken.push_back(*w);
    }
  }
  woken.wake_all();
}

void async_event::reset() noexcept {
  const detail::spin_lock::guard guard(lock_);
  set_.store(false, std::memory_order_relaxed);  // under the lock: ordered with set() and waits
}

bool async_event::attempt_wait(void* self, detail::waiter& w,
                               detail::wake_list& /*woken*/) noexcept {
  auto& event = *static_cast<async_event*>(self);
  event.lock_.assert_held();  // run by the wait queue under *wait_site::lock, which is lock_
  if (!event.set_.load(std::memory_order_relaxed)) return false;  // under the lock
  w.grant();
  return true;
}

}  // namespace shoal
