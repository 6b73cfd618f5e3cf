// SPDX-License-Identifier: Apache-2.0
// shoal/clock.hpp: the time every shoal timer is measured in.
//
// What: shoal's clock is std::chrono::steady_clock. Each executor reports its own `now()`, so a
// test's manual scheduler can run a fake clock and every timer, sleep and deadline under it
// follows the fake time. `shoal::now()` asks the executor running on this thread, and falls back
// to steady_clock outside any executor.
//
// Thread-safety: `now()` may be called from any thread.
#pragma once

#include <chrono>

namespace shoal {

using clock = std::chrono::steady_clock;
using time_point = clock::time_point;
using duration = std::chrono::nanoseconds;

// The current executor's time, or steady_clock::now() when no executor runs on this thread.
[[nodiscard]] time_point now() noexcept;

}  // namespace shoal
