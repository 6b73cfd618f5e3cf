// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/start_at.cpp: reading --start-at (see start_at.hpp).
#include "cli/start_at.hpp"

#include <charconv>
#include <cmath>

namespace tpcc::cli {
namespace {

using std::string_view;
using std::chrono::system_clock;

// Times are kept in 64-bit nanoseconds (good to 2262): accept 1970 to 2199.
constexpr int latest_year = 2199;
constexpr double latest_epoch_seconds = 7'258'118'400.0;  // 2200-01-01T00:00:00Z

// Exactly `digits` decimal digits at text[at...]; nullopt otherwise.
std::optional<int> digits_at(string_view text, std::size_t at, std::size_t digits) {
  if (at + digits > text.size()) return std::nullopt;
  int v = 0;
  const char* first = text.data() + at;
  const auto [end, error] = std::from_chars(first, first + digits, v);
  if (error != std::errc() || end != first + digits || *first == '-' || *first == '+') {
    return std::nullopt;
  }
  return v;
}

// A fraction ".ddd" (any number of digits, at least one) in nanoseconds; nullopt when malformed.
std::optional<std::chrono::nanoseconds> fraction(string_view text) {
  if (text.empty()) return std::chrono::nanoseconds(0);
  if (text.size() < 2 || text[0] != '.') return std::nullopt;
  double scale = 1e8;
  double ns = 0;
  for (const char c : text.substr(1)) {
    if (c < '0' || c > '9') return std::nullopt;
    ns += (c - '0') * scale;
    scale /= 10;
  }
  return std::chrono::nanoseconds(std::llround(ns));
}

// YYYY-MM-DDTHH:MM:SS[.fff]Z
std::optional<system_clock::time_point> iso_utc(string_view text) {
  if (text.size() < 20 || text.back() != 'Z' || text[4] != '-' || text[7] != '-' ||
      text[10] != 'T' || text[13] != ':' || text[16] != ':') {
    return std::nullopt;
  }
  const auto y = digits_at(text, 0, 4), mo = digits_at(text, 5, 2), d = digits_at(text, 8, 2);
  const auto h = digits_at(text, 11, 2), mi = digits_at(text, 14, 2), s = digits_at(text, 17, 2);
  const auto frac = fraction(text.substr(19, text.size() - 20));
  if (!y || !mo || !d || !h || !mi || !s || !frac || *y < 1970 || *y > latest_year || *h > 23 ||
      *mi > 59 || *s > 59) {
    return std::nullopt;
  }
  const std::chrono::year_month_day date{std::chrono::year(*y),
                                         std::chrono::month(static_cast<unsigned>(*mo)),
                                         std::chrono::day(static_cast<unsigned>(*d))};
  if (!date.ok()) return std::nullopt;
  const auto at = std::chrono::sys_days(date) + std::chrono::hours(*h) + std::chrono::minutes(*mi) +
                  std::chrono::seconds(*s) + *frac;
  return system_clock::time_point(
      std::chrono::duration_cast<system_clock::duration>(at.time_since_epoch()));
}

// Seconds since 1970-01-01T00:00:00Z, before 2200.
std::optional<system_clock::time_point> epoch_seconds(string_view text) {
  if (text.empty() || text.front() < '0' || text.front() > '9') return std::nullopt;
  double v = 0;
  const auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), v, std::chars_format::fixed);
  if (error != std::errc() || end != text.data() + text.size() || !(v < latest_epoch_seconds)) {
    return std::nullopt;
  }
  const auto ns = std::chrono::nanoseconds(std::llround(v * 1e9));
  return system_clock::time_point(std::chrono::duration_cast<system_clock::duration>(ns));
}

}  // namespace

std::optional<system_clock::time_point> parse_start_at(string_view text) {
  if (text.find('T') != string_view::npos) return iso_utc(text);
  return epoch_seconds(text);
}

}  // namespace tpcc::cli
