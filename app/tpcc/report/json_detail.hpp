// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_detail.hpp: pieces shared by the JSON writer and reader (see json.hpp):
// wall-clock times as ISO 8601 UTC text, and phase names.
//
// Thread-safety: pure functions.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "stats/phase.hpp"

namespace tpcc::report::detail {

// "2024-05-01T12:00:00.123Z" (milliseconds, UTC).
[[nodiscard]] std::string iso_utc(std::chrono::system_clock::time_point t);
// The reverse of iso_utc (the fraction optional, "Z" required); nullopt when malformed.
[[nodiscard]] std::optional<std::chrono::system_clock::time_point> parse_iso_utc(
    std::string_view text);
// stats::to_string's names back to phases.
[[nodiscard]] std::optional<stats::phase> parse_phase(std::string_view name);

}  // namespace tpcc::report::detail
