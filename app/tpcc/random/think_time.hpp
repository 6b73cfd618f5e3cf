// SPDX-License-Identifier: Apache-2.0
// app/tpcc/random/think_time.hpp: the think time a terminal waits after each transaction
// (TPC-C clause 5.2.5.4).
//
// What: Tt = -ln(r) x mean, r uniform in (0, 1] (negative exponential), truncated at 10 x mean:
// a draw beyond it is clamped to it (probability e^-10, about 4.5e-5). The mean of the clamped
// draw is mean x (1 - e^-10), 0.0045% under the mean. Means per type: txn::think_mean_seconds.
// Lifetime: a plain function. Thread-safety: as thread-safe as the rng passed in.
#pragma once

#include <chrono>

#include "random/rng.hpp"

namespace tpcc::random {

// The truncation point, in means.
inline constexpr double think_time_truncation = 10.0;

// One think time with the given mean (seconds, >= 0), in [0, 10 x mean].
[[nodiscard]] std::chrono::nanoseconds think_time(rng& r, double mean_seconds) noexcept;

}  // namespace tpcc::random
