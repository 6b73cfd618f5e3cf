// app/tpcc/report/text.hpp: printf-style formatting into a std::string, for the reports.
//
// What: format(fmt, args...) renders at most 255 characters (longer output is cut, never
// overflows). Thread-safety: pure function.
#pragma once

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

namespace tpcc::report {

template <class... Args>
[[nodiscard]] std::string format(const char* fmt, Args... args) {
  std::array<char, 256> buffer{};
  const int n = std::snprintf(buffer.data(), buffer.size(), fmt, args...);
  return std::string(buffer.data(),
                     n < 0 ? 0 : std::min(static_cast<std::size_t>(n), buffer.size() - 1));
}

}  // namespace tpcc::report
