// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/values.cpp: option value readers (see values.hpp).
#include "cli/values.hpp"

#include <array>
#include <cctype>
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

namespace {

struct duration_unit {
  std::string_view suffix;
  double seconds;
};

// Longest first where one is a prefix of another ("ms" before "m"); the larger units rank higher.
constexpr std::array<duration_unit, 4> units{
    {{"h", 3600.0}, {"ms", 1e-3}, {"m", 60.0}, {"s", 1.0}}};

int rank(const duration_unit& u) {
  return u.seconds >= 3600 ? 3 : u.seconds >= 60 ? 2 : u.seconds >= 1 ? 1 : 0;
}

// Reads one "<number><unit>" piece off the front of `text`; nullopt when there is none.
std::optional<std::pair<double, const duration_unit*>> read_piece(std::string_view& text) {
  std::size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) != 0 || text[digits] == '.')) {
    ++digits;
  }
  const auto number = read_number(text.substr(0, digits));
  if (!number) return std::nullopt;
  text.remove_prefix(digits);
  for (const duration_unit& u : units) {
    if (text.starts_with(u.suffix)) {
      text.remove_prefix(u.suffix.size());
      return std::pair{*number, &u};
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::chrono::nanoseconds> read_duration(std::string_view text) {
  constexpr double longest = 1e6 * 3600;  // a million hours: far beyond any run, no overflow
  if (text.empty()) return std::nullopt;
  double seconds = 0;
  if (const auto bare = read_number(text)) {
    seconds = *bare;  // a bare number is seconds
    if (seconds < 0) return std::nullopt;
  } else {
    int last = 4;  // pieces in decreasing units, each unit at most once: 1h30m, 2m30s, 1s500ms
    while (!text.empty()) {
      const auto piece = read_piece(text);
      if (!piece || rank(*piece->second) >= last) return std::nullopt;
      last = rank(*piece->second);
      seconds += piece->first * piece->second->seconds;
    }
  }
  if (seconds > longest) return std::nullopt;
  return std::chrono::nanoseconds(std::llround(seconds * 1e9));
}

std::string join(std::initializer_list<std::string_view> parts) {
  std::string out;
  for (const std::string_view p : parts) out += p;
  return out;
}

}  // namespace tpcc::cli
