// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_detail.cpp: ISO 8601 times and phase names (see json_detail.hpp).
#include "report/json_detail.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <ctime>
#include <string>

namespace tpcc::report::detail {

std::string iso_utc(std::chrono::system_clock::time_point t) {
  using namespace std::chrono;
  const auto ms = time_point_cast<milliseconds>(t);
  const std::time_t seconds = system_clock::to_time_t(
      time_point_cast<system_clock::duration>(time_point_cast<std::chrono::seconds>(ms)));
  auto fraction = (ms.time_since_epoch() % 1000).count();
  if (fraction < 0) fraction += 1000;
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  std::array<char, 64> b{};
  std::snprintf(b.data(), b.size(), "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                static_cast<int>(fraction));
  return b.data();
}

namespace {

bool digits(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Each field in its range, the year within what a nanosecond clock holds with room to add a
// run's durations (1970 to 2200): no overflow when merge shifts times.
bool plausible(const std::tm& tm) {
  return tm.tm_year >= 1970 && tm.tm_year <= 2200 && tm.tm_mon >= 1 && tm.tm_mon <= 12 &&
         tm.tm_mday >= 1 && tm.tm_mday <= 31 && tm.tm_hour >= 0 && tm.tm_hour <= 23 &&
         tm.tm_min >= 0 && tm.tm_min <= 59 && tm.tm_sec >= 0 && tm.tm_sec <= 60;
}

}  // namespace

std::optional<std::chrono::system_clock::time_point> parse_iso_utc(std::string_view text) {
  std::tm tm{};
  int fraction = 0;
  int used = 0;
  const std::string s(text);
  if (std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &used) != 6) {
    return std::nullopt;
  }
  std::size_t at = static_cast<std::size_t>(used);
  if (at < s.size() && s[at] == '.') {
    if (at + 4 > s.size() || !digits(s.substr(at + 1, 3))) return std::nullopt;
    fraction = std::stoi(s.substr(at + 1, 3));
    at += 4;
  }
  if (at + 1 != s.size() || s[at] != 'Z' || !plausible(tm)) return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  const std::time_t seconds = timegm(&tm);
  return std::chrono::system_clock::from_time_t(seconds) + std::chrono::milliseconds(fraction);
}

std::optional<stats::phase> parse_phase(std::string_view name) {
  using stats::phase;
  for (const phase p :
       {phase::starting, phase::warmup, phase::measuring, phase::draining, phase::done}) {
    if (name == stats::to_string(p)) return p;
  }
  return std::nullopt;
}

}  // namespace tpcc::report::detail
