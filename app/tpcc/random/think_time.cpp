// SPDX-License-Identifier: Apache-2.0
// Negative-exponential think times; see think_time.hpp.
#include "random/think_time.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace tpcc::random {

std::chrono::nanoseconds think_time(rng& r, double mean_seconds) noexcept {
  const double u = 1.0 - r.unit();  // in (0, 1]: ln never sees 0
  const double seconds =
      std::min(-std::log(u) * mean_seconds, think_time_truncation * mean_seconds);
  return std::chrono::nanoseconds{std::llround(seconds * 1e9)};
}

}  // namespace tpcc::random
