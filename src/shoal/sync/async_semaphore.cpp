// SPDX-License-Identifier: Apache-2.0
#include "shoal/async_semaphore.hpp"

#include <cassert>

namespace shoal {

async_semaphore::~async_semaphore() {
  assert(waiters_.empty() && "shoal: async_semaphore destroyed while coroutines wait on it");
}

bool async_semaphore::try_acquire() noexcept {
  const detail::spin_lock::guard guard(lock_);
  if (permits_ == 0) return false;  // also when anyone waits: they have the permits first
  --permits_;
  return true;
}

void async_semaphore::release(std::size_t n) noexcept {
  detail::wake_list woken;
  {
    const detail::spin_lock::guard guard(lock_);
    for (; n > 0; --n) {
      detail::waiter* w = waiters_.pop_front();
      if (w == nullptr) break;
      w->grant();  // handed over: the permit never becomes free, so nobody can barge
      woken.push_back(*w);
    }
    permits_ += n;
  }
  woken.wake_all();
}

std::size_t async_semaphore::available() const noexcept {
  const detail::spin_lock::guard guard(lock_);
  return permits_;
}

bool async_semaphore::attempt_acquire(void* self, detail::waiter& w,
                                      detail::wake_list& /*woken*/) noexcept {
  auto& sem = *static_cast<async_semaphore*>(self);
  sem.lock_.assert_held();  // run by the wait queue under *wait_site::lock, which is lock_
  if (sem.permits_ == 0) return false;
  assert(sem.waiters_.empty());
  --sem.permits_;
  w.grant();
  return true;
}

}  // namespace shoal
