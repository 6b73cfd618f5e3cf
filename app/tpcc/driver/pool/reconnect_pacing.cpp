// SPDX-License-Identifier: Apache-2.0
// Pool-wide pacing of connection attempts (reconnect_pacing.hpp).
#include "driver/pool/reconnect_pacing.hpp"

#include <algorithm>

namespace tpcc::driver::pool {

reconnect_pacing::reconnect_pacing(std::chrono::milliseconds min, std::chrono::milliseconds max,
                                   std::uint64_t seed) noexcept
    : min_(std::max<duration>(min, std::chrono::milliseconds(1))),
      max_(std::max<duration>(max, min_)),
      random_(static_cast<std::minstd_rand::result_type>(seed % 2147483646U + 1U)) {}

reconnect_pacing::duration reconnect_pacing::jittered() noexcept {
  const duration half = backoff_ / 2;
  std::uniform_int_distribution<duration::rep> spread(0, (backoff_ - half).count());
  return half + duration(spread(random_));
}

reconnect_pacing::duration reconnect_pacing::admit(shoal::time_point now) {
  if (!failing()) return duration::zero();
  if (probing_) return jittered();  // the probe's outcome decides: ask again later
  if (now < next_) return next_ - now;
  probing_ = true;
  return duration::zero();
}

void reconnect_pacing::succeeded() noexcept {
  backoff_ = duration::zero();
  probing_ = false;
}

void reconnect_pacing::failed(shoal::time_point now, bool probe) {
  if (!failing()) {
    backoff_ = min_;
  } else if (probe) {
    backoff_ = std::min(backoff_ * 2, max_);
    probing_ = false;
  }
  next_ = std::max(next_, now + jittered());
}

}  // namespace tpcc::driver::pool
