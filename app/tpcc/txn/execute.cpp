// SPDX-License-Identifier: Apache-2.0
// Back-off arithmetic of the retry wrapper (execute.hpp).
#include "txn/execute.hpp"

#include <algorithm>
#include <random>

namespace tpcc::txn {

std::chrono::nanoseconds backoff(const retry_policy& policy, int retry, double unit) noexcept {
  using std::chrono::nanoseconds;
  const nanoseconds first = policy.first_backoff;
  const nanoseconds cap = policy.max_backoff;
  nanoseconds ceiling = first;
  for (int k = 1; k < retry && ceiling < cap; ++k) ceiling *= 2;
  ceiling = std::min(ceiling, cap);
  const nanoseconds half = ceiling / 2;
  const auto spread = static_cast<double>((ceiling - half).count());
  return half + nanoseconds(static_cast<nanoseconds::rep>(spread * std::clamp(unit, 0.0, 1.0)));
}

double jitter_unit() noexcept {
  thread_local std::minstd_rand generator{std::random_device{}()};
  return std::uniform_real_distribution<double>(0.0, 1.0)(generator);
}

}  // namespace tpcc::txn
