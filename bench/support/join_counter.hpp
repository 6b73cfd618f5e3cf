// SPDX-License-Identifier: Apache-2.0
// bench/support/join_counter.hpp: the join of the fan-out benchmarks: the last of N arrivals
// releases the one thread waiting for them.
//
// Thread-safety: arrive() from any thread; reset() and wait() from the waiting thread only.
// Memory ordering: everything each arriving thread did before arrive() happens-before wait()
// returns (acq_rel countdown, then the semaphore's release/acquire).
#pragma once

#include <atomic>
#include <cstdint>
#include <semaphore>

namespace shoal::bench {

class join_counter {
 public:
  // Expects `n` arrivals; call before starting the work that arrives.
  void reset(std::int64_t n) noexcept { left_.store(n, std::memory_order_relaxed); }

  void arrive() noexcept {
    // acq_rel: the last arriver acquires every earlier arriver's release.
    if (left_.fetch_sub(1, std::memory_order_acq_rel) == 1) done_.release();
  }

  // Blocks until the n-th arrival (pairs with the release in arrive()).
  void wait() { done_.acquire(); }

 private:
  std::atomic<std::int64_t> left_{0};
  std::binary_semaphore done_{0};
};

}  // namespace shoal::bench
