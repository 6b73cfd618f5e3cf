// app/tpcc/cli/values.cpp: option value readers (see values.hpp).
#include "cli/values.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace tpcc::cli {

std::optional<std::int64_t> read_integer(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (error != std::errc() || end != text.data() + text.size() || text.empty()) {
    return std::nullopt;
  }
  return v;
}

std::optional<double> read_number(std::string_view text) {
  double v = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (error != std::errc() || end != text.data() + text.size() || text.empty() ||
      !std::isfinite(v)) {
    return std::nullopt;
  }
  return v;
}

std::optional<std::chrono::nanoseconds> read_duration(std::string_view text) {
  constexpr std::array<std::pair<std::string_view, double>, 4> units{
      {{"ms", 1e-3}, {"s", 1.0}, {"m", 60.0}, {"h", 3600.0}}};
  double scale = 1.0;
  for (const auto& [suffix, seconds] : units) {
    if (text.size() > suffix.size() && text.ends_with(suffix)) {
      const auto number = text.substr(0, text.size() - suffix.size());
      text = number;
      scale = seconds;
      break;
    }
  }
  const auto v = read_number(text);
  constexpr double longest = 1e6 * 3600;  // a million hours: far beyond any run, no overflow
  if (!v || *v < 0 || *v * scale > longest) return std::nullopt;
  return std::chrono::nanoseconds(std::llround(*v * scale * 1e9));
}

}  // namespace tpcc::cli
