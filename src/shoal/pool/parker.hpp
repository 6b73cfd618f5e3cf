// SPDX-License-Identifier: Apache-2.0
// parker.hpp: puts one worker thread to sleep until another thread unparks it or a timeout.
//
// A single-token parker. state_: 0 empty, 1 notified, -1 parked on the futex, -2 parked in the
// worker's reactor (when it watches descriptors, it sleeps in epoll so that I/O wakes it too).
// park(): consumes a pending token and returns at once; else sleeps until unpark() or timeout
// (or, in the reactor, an I/O event, which it dispatches).
// unpark(): leaves a token; issues the wake syscall only when the thread is actually asleep.
// Why no wake-up is lost: unpark's exchange to 1 either happens before park published its
// sleeping state (park sees 1, consumes it, returns) or after (unpark sees -1 and calls futex
// wake, whose kernel side rechecks state_ == -1 atomically before sleeping; or sees -2 and
// writes the reactor's eventfd, which stays readable until the reactor's wait consumes it).
// Spurious returns are allowed; callers recheck their queues.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>

#include "shoal/clock.hpp"
#include "shoal/detail/reactor.hpp"

namespace shoal::detail {

class parker {
 public:
  explicit parker(reactor& io) noexcept : io_(&io) {}

  // Sleeps until unpark() or until `until` (if given). Owner thread only.
  void park(std::optional<time_point> until) noexcept;
  // Any thread.
  void unpark() noexcept;

 private:
  void park_on_futex(std::optional<time_point> until) noexcept;
  void park_in_reactor(std::optional<time_point> until) noexcept;

  reactor* io_;
  std::atomic<std::int32_t> state_{0};
};

}  // namespace shoal::detail
