// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/text.hpp: printf-style formatting into a std::string, for the reports.
//
// What: format(fmt, args...) renders at most 255 characters (longer output is cut, never
// overflows); put(out, {pieces...}) appends text pieces. Thread-safety: pure functions.
#pragma once

#include <algorithm>
#include <array>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <string_view>

namespace tpcc::report {

template <class... Args>
[[nodiscard]] std::string format(const char* fmt, Args... args) {
  std::array<char, 256> buffer{};
  const int n = std::snprintf(buffer.data(), buffer.size(), fmt, args...);
  return std::string(buffer.data(),
                     n < 0 ? 0 : std::min(static_cast<std::size_t>(n), buffer.size() - 1));
}

// Appends the pieces (g++ 12 at -O3 warns falsely on `"literal" + std::string(...)`).
inline void put(std::string& out, std::initializer_list<std::string_view> pieces) {
  for (const std::string_view p : pieces) out.append(p);
}

}  // namespace tpcc::report
