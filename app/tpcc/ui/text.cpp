// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/text.cpp: the screens' text tools (see text.hpp).
#include "ui/text.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace tpcc::ui {

std::string fixed(double v, int digits) {
  std::array<char, 64> b{};
  std::snprintf(b.data(), b.size(), "%.*f", digits, v);
  return b.data();
}

std::string clock_time(double seconds) {
  const auto total = static_cast<long long>(std::max(0.0, std::floor(seconds)));
  std::array<char, 32> b{};
  if (total >= 3600) {
    std::snprintf(b.data(), b.size(), "%lld:%02lld:%02lld", total / 3600, total / 60 % 60,
                  total % 60);
  } else {
    std::snprintf(b.data(), b.size(), "%lld:%02lld", total / 60, total % 60);
  }
  return b.data();
}

std::string short_number(double v) {
  if (v >= 1e6) return fixed(v / 1e6, 1) + "M";
  if (v >= 1e4) return fixed(v / 1e3, 0) + "k";
  if (v >= 1e3) return fixed(v / 1e3, 1) + "k";
  return fixed(v, 0);
}

std::string millis(std::uint64_t micros) { return fixed(static_cast<double>(micros) / 1000.0, 1); }

std::string progress_bar(double fraction, std::size_t width) {
  width = std::max<std::size_t>(width, 2);
  const std::size_t inner = width - 2;
  const double f = std::clamp(fraction, 0.0, 1.0);
  const auto full = static_cast<std::size_t>(std::floor(f * static_cast<double>(inner)));
  std::string bar = "[";
  bar.append(full, '#');
  bar.append(inner - full, '.');
  bar += ']';
  return bar;
}

std::string fit(const std::string& line, std::size_t width) {
  if (line.size() <= width) return line;
  if (width == 0) return {};
  std::string cut = line.substr(0, width - 1);
  cut += '~';
  return cut;
}

std::string printable(const std::string& line) {
  std::string out = line;
  for (char& c : out) {
    if (c == '\t') c = ' ';
    if (c < ' ' || c > '~') c = '?';
  }
  return out;
}

std::string pad_left(const std::string& text, std::size_t width) {
  if (text.size() >= width) return text;
  std::string out(width - text.size(), ' ');
  out += text;
  return out;
}

std::string pad_right(const std::string& text, std::size_t width) {
  if (text.size() >= width) return text;
  std::string out = text;
  out.append(width - text.size(), ' ');
  return out;
}

}  // namespace tpcc::ui
