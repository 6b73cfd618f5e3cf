// SPDX-License-Identifier: Apache-2.0
// Folding chunk results into condition results (merge.hpp).
#include "check/merge.hpp"

#include <array>
#include <charconv>
#include <stdexcept>
#include <string_view>
#include <variant>

namespace tpcc::check {
namespace {

std::string fixed_two(double v) {
  std::array<char, 64> buffer{};
  const auto end =
      std::to_chars(buffer.data(), buffer.data() + buffer.size(), v, std::chars_format::fixed, 2)
          .ptr;
  return {buffer.data(), end};
}

std::string plain_number(double v) {
  std::array<char, 64> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v).ptr;
  return {buffer.data(), end};
}

std::string shown_value(const driver::value& v, shown as) {
  if (driver::is_null(v)) return "NULL";
  if (const auto* text = std::get_if<std::string>(&v)) return *text;
  const bool integral = std::holds_alternative<std::int64_t>(v);
  const double number =
      integral ? static_cast<double>(std::get<std::int64_t>(v)) : std::get<double>(v);
  switch (as) {
    case shown::money:
      return fixed_two(number);
    case shown::flag:
      return number != 0 ? "yes" : "no";
    case shown::count:
      break;
  }
  return integral ? std::to_string(std::get<std::int64_t>(v)) : plain_number(number);
}

void append_keys(std::string& out, const condition& c, const driver::row& r) {
  for (std::size_t i = 0; i < c.keys.size(); ++i) {
    if (c.keys[i].empty()) continue;
    if (!out.empty()) out += ' ';
    out += c.keys[i];
    out += '=';
    out += shown_value(r.at(first_key_column + i), shown::count);
  }
}

void append_values(std::string& out, const condition& c, const driver::row& r) {
  bool first = true;
  for (std::size_t i = 0; i < c.values.size(); ++i) {
    if (c.values[i].empty()) continue;
    out += first ? ": " : ", ";
    first = false;
    out += c.values[i];
    out += '=';
    out += shown_value(r.at(first_value_column + i), c.as);
  }
}

void check_shape(const condition& c, const driver::row& r) {
  if (r.size() != column_count) {
    throw std::logic_error("consistency condition " + std::string(c.clause) + " returned " +
                           std::to_string(r.size()) + " columns, expected " +
                           std::to_string(column_count));
  }
}

}  // namespace

condition_result start_result(const condition& c) {
  condition_result r;
  r.clause = c.clause;
  r.title = c.title;
  return r;
}

void fold_chunk(condition_result& into, const condition& c, const driver::statement_result& chunk,
                std::size_t max_offenders) {
  bool counted = false;
  for (const driver::row& r : chunk.rows) {
    check_shape(c, r);
    if (r.int_at(kind_column) == 0) {
      into.checked += r.int_at(first_key_column);
      into.offending += r.int_at(first_key_column + 1);
      counted = true;
    } else if (into.offenders.size() < max_offenders) {
      into.offenders.push_back(describe_offender(c, r));
    }
  }
  if (!counted) {
    throw std::logic_error("consistency condition " + std::string(c.clause) +
                           " returned no count row");
  }
  into.passed = into.error.empty() && into.offending == 0;
}

void fail_with(condition_result& into, const driver::outcome& why) {
  into.passed = false;
  into.error = std::string(driver::to_string(why.kind)) + ": " + why.message;
}

std::string describe_offender(const condition& c, const driver::row& r) {
  std::string out;
  append_keys(out, c, r);
  append_values(out, c, r);
  return out;
}

}  // namespace tpcc::check
