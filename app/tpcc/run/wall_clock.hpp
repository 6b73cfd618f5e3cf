// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/wall_clock.hpp: waiting for an agreed wall-clock start (--start-at, read by
// cli/start_at.hpp), so that several client processes begin their warm-up together.
//
// What: sleep_until_wall() waits until the system clock reads `at`, in steps of at most a
// second so that a clock stepped meanwhile (NTP) is followed.
//
// Awaiting sleep_until_wall:
//   Result: bool: true when `at` was reached (at once when it is past), false when stopped.
//   Errors: std::logic_error with no executor on this thread.
//   Cancellation: the chain's stop token (a sleep wakes at once).
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one awaiting coroutine per call.
#pragma once

#include <chrono>

#include "shoal/task.hpp"

namespace tpcc::run {

[[nodiscard]] shoal::task<bool> sleep_until_wall(std::chrono::system_clock::time_point at);

}  // namespace tpcc::run
