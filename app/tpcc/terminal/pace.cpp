// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/pace.cpp: the pacing arithmetic of --rate (see pace.hpp).
#include "terminal/pace.hpp"

#include <cmath>

namespace tpcc::terminal {

std::chrono::nanoseconds mean_gap(double tpm, std::int64_t terminals) noexcept {
  if (!(tpm > 0) || terminals <= 0) return std::chrono::nanoseconds(0);
  const double seconds = static_cast<double>(terminals) * 60.0 / tpm;
  return std::chrono::nanoseconds(std::llround(seconds * 1e9));
}

std::chrono::nanoseconds draw_gap(random::rng& r, std::chrono::nanoseconds mean) noexcept {
  const double u = r.unit();  // in [0, 1): 1 - u is never 0
  const double gap = -std::log1p(-u) * static_cast<double>(mean.count());
  return std::chrono::nanoseconds(std::llround(gap));
}

}  // namespace tpcc::terminal
