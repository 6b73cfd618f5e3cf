// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/values.hpp: reading one option value (numbers, durations, names).
//
// What: each reader returns the value, or nullopt when the text is not one; durations are a
// number with a unit (ms, s, m, h; a bare number is seconds), e.g. 90s, 2m, 1.5h, 250ms, or
// several such pieces in decreasing units, each once: 1h30m, 2m30s, 1s500ms.
// Thread-safety: pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

namespace tpcc::cli {

[[nodiscard]] std::optional<std::int64_t> read_integer(std::string_view text);
[[nodiscard]] std::optional<double> read_number(std::string_view text);
[[nodiscard]] std::optional<std::chrono::nanoseconds> read_duration(std::string_view text);

// Concatenates text pieces (g++ 12 at -O3 warns falsely on `"literal" + std::string(...)`).
[[nodiscard]] std::string join(std::initializer_list<std::string_view> parts);

}  // namespace tpcc::cli
