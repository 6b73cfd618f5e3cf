// SPDX-License-Identifier: Apache-2.0
// Reading and writing packed lists (packed.hpp).
#include "txn/packed.hpp"

#include <charconv>
#include <stdexcept>

namespace tpcc::txn {
namespace {

[[noreturn]] void not_a_number(std::string_view text) {
  throw std::logic_error("a procedure returned '" + std::string(text) + "' where a number belongs");
}

}  // namespace

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  if (text.empty()) return out;
  for (;;) {
    const std::size_t at = text.find(separator);
    out.push_back(text.substr(0, at));
    if (at == std::string_view::npos) return out;
    text.remove_prefix(at + 1);
  }
}

std::int64_t int_field(std::string_view text) {
  std::int64_t n = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (error != std::errc{} || end != text.data() + text.size()) not_a_number(text);
  return n;
}

double number_field(std::string_view text) {
  double d = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), d);
  if (error != std::errc{} || end != text.data() + text.size()) not_a_number(text);
  return d;
}

std::string joined(std::span<const std::int64_t> values) {
  std::string out;
  for (const std::int64_t v : values) {
    if (!out.empty()) out.push_back(',');
    out += std::to_string(v);
  }
  return out;
}

}  // namespace tpcc::txn
