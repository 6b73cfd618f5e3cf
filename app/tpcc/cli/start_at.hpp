// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/start_at.hpp: reading an agreed wall-clock start (--start-at), so that several
// client processes begin their warm-up together (the wait itself: run/wall_clock.hpp).
//
// What: parse_start_at() reads an ISO 8601 UTC time, 2026-11-21T10:00:00Z (seconds may carry
// a fraction: 10:00:00.250Z), or Unix epoch seconds (1795082400, a fraction allowed), from 1970 to
// 2199; nullopt for anything else (a zone other than Z, a month 13, a 30 February...).
// Thread-safety: a pure function.
#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace tpcc::cli {

[[nodiscard]] std::optional<std::chrono::system_clock::time_point> parse_start_at(
    std::string_view text);

}  // namespace tpcc::cli
