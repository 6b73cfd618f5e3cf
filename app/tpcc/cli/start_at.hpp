// app/tpcc/cli/start_at.hpp: an agreed wall-clock start (--start-at), so that several client
// processes begin their warm-up together.
//
// What: parse_start_at() reads an ISO 8601 UTC time, 2026-11-21T10:00:00Z (seconds may carry
// a fraction: 10:00:00.250Z), or Unix epoch seconds (1795082400, a fraction allowed), from 1970 to
// 2199; nullopt for anything else (a zone other than Z, a month 13, a 30 February...).
// sleep_until_wall() waits until the system clock reads `at`, in steps of at most a second so
// that a clock stepped meanwhile (NTP) is followed.
//
// Awaiting sleep_until_wall:
//   Result: bool: true when `at` was reached (at once when it is past), false when stopped.
//   Errors: std::logic_error with no executor on this thread.
//   Cancellation: the chain's stop token (a sleep wakes at once).
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one awaiting coroutine per call.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

#include "shoal/task.hpp"

namespace tpcc::run {

[[nodiscard]] std::optional<std::chrono::system_clock::time_point> parse_start_at(
    std::string_view text);
[[nodiscard]] shoal::task<bool> sleep_until_wall(std::chrono::system_clock::time_point at);

}  // namespace tpcc::run
