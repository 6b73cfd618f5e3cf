// SPDX-License-Identifier: Apache-2.0
// Bulk rows in COPY's text format (copy_text.hpp).
#include "driver/postgres/copy_text.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <string_view>
#include <variant>

namespace tpcc::driver::postgres {

namespace {

void append_text(std::string_view text, std::string& out) {
  for (const char c : text) {
    switch (c) {
      case '\\':
        out += "\\\\";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += c;
    }
  }
}

template <class Number>
void append_number(Number n, std::string& out) {
  std::array<char, 32> buffer{};  // an int64 takes 20, a shortest double at most 24
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), n).ptr;
  out.append(buffer.data(), end);
}

}  // namespace

void append_copy_value(const value& v, std::string& out) {
  if (const auto* n = std::get_if<std::int64_t>(&v)) {
    append_number(*n, out);
  } else if (const auto* d = std::get_if<double>(&v)) {
    append_number(*d, out);
  } else if (const auto* s = std::get_if<std::string>(&v)) {
    append_text(*s, out);
  } else {
    out += "\\N";
  }
}

std::size_t append_copy_rows(const bulk_rows& rows, std::size_t first, std::size_t max_bytes,
                             std::string& out) {
  const std::size_t width = rows.columns.size();
  const std::size_t count = rows.rows();
  std::size_t next = first;
  while (next < count && (next == first || out.size() < max_bytes)) {
    for (std::size_t c = 0; c < width; ++c) {
      if (c > 0) out += '\t';
      append_copy_value(rows.values[next * width + c], out);
    }
    out += '\n';
    ++next;
  }
  return next;
}

}  // namespace tpcc::driver::postgres
