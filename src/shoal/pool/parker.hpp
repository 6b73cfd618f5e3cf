// parker.hpp: puts one worker thread to sleep until another thread unparks it or a timeout.
//
// A single-token futex parker. state_: 0 empty, 1 notified, -1 parked.
// park(): consumes a pending token and returns at once; else sleeps until unpark() or timeout.
// unpark(): leaves a token; issues the wake syscall only when the thread is actually asleep.
// Why no wake-up is lost: unpark's exchange to 1 either happens before park's decrement (park
// sees 1, consumes it, returns) or after park published -1 (unpark sees -1 and calls futex wake;
// the kernel's futex_wait rechecks state_ == -1 atomically before sleeping).
// Spurious returns are allowed; callers recheck their queues.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>

#include "shoal/clock.hpp"

namespace shoal::detail {

class parker {
 public:
  // Sleeps until unpark() or until `until` (if given). Owner thread only.
  void park(std::optional<time_point> until) noexcept;
  // Any thread.
  void unpark() noexcept;

 private:
  std::atomic<std::int32_t> state_{0};
};

}  // namespace shoal::detail
