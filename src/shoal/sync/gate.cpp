// SPDX-License-Identifier: Apache-2.0
#include "shoal/gate.hpp"

#include <cassert>

namespace shoal {

gate::~gate() {
  assert(in_flight_ == 0 && "shoal: gate destroyed with work inside");
  assert(closers_.empty() && "shoal: gate destroyed while coroutines wait to close it");
}

gate_token gate::enter() noexcept {
  const detail::spin_lock::guard guard(lock_);
  if (closed_) return gate_token();
  ++in_flight_;
  return gate_token(this);
}

detail::waiter gate::close() noexcept {
  {
    const detail::spin_lock::guard guard(lock_);
    closed_ = true;
  }
  return detail::waiter({&lock_, &closers_, &attempt_drain, this});
}

bool gate::is_closed() const noexcept {
  const detail::spin_lock::guard guard(lock_);
  return closed_;
}

std::size_t gate::in_flight() const noexcept {
  const detail::spin_lock::guard guard(lock_);
  return in_flight_;
}

void gate::leave() noexcept {
  detail::wake_list woken;
  {
    const detail::spin_lock::guard guard(lock_);
    assert(in_flight_ > 0);
    if (--in_flight_ != 0) return;
    while (detail::waiter* w = closers_.pop_front()) {
      w->grant();
      woken.push_back(*w);
    }
  }
  woken.wake_all();
}

bool gate::attempt_drain(void* self, detail::waiter& w, detail::wake_list& /*woken*/) noexcept {
  const auto& g = *static_cast<gate*>(self);
  g.lock_.assert_held();  // run by the wait queue under *wait_site::lock, which is lock_
  if (g.in_flight_ != 0) return false;
  w.grant();
  return true;
}

}  // namespace shoal
