// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/value.hpp: the values that go into statements and come back in rows.
//
// What: a parameter or a column is NULL, an integer, a floating-point number or text. TPC-C's
// identifiers and counts are integers; its money and rates (NUMERIC in the schema) travel as
// double, which holds every value the benchmark produces (at most 12 significant digits) exactly
// enough for its arithmetic and checks (clause 3.3 compares sums with a tolerance of a cent);
// dates travel as text. Drivers convert from their wire types by the column's declared type.
//
// Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace tpcc::driver {

using value = std::variant<std::monostate, std::int64_t, double, std::string>;

[[nodiscard]] inline bool is_null(const value& v) noexcept {
  return std::holds_alternative<std::monostate>(v);
}

// One result row: columns in SELECT order. Accessors throw std::logic_error naming the column
// index when the type is not the one asked for (a schema or statement mismatch, never data).
class row {
 public:
  row() = default;
  explicit row(std::vector<value> columns) : columns_(std::move(columns)) {}

  [[nodiscard]] std::size_t size() const noexcept { return columns_.size(); }
  [[nodiscard]] const value& at(std::size_t i) const { return columns_.at(i); }
  [[nodiscard]] bool null_at(std::size_t i) const { return is_null(at(i)); }
  [[nodiscard]] std::int64_t int_at(std::size_t i) const { return as<std::int64_t>(i, "integer"); }
  // A number: a double column, or an integer column widened.
  [[nodiscard]] double number_at(std::size_t i) const {
    if (const auto* n = std::get_if<std::int64_t>(&at(i))) return static_cast<double>(*n);
    return as<double>(i, "number");
  }
  [[nodiscard]] const std::string& text_at(std::size_t i) const {
    return as<std::string>(i, "text");
  }

 private:
  template <class T>
  const T& as(std::size_t i, const char* what) const {
    if (const T* v = std::get_if<T>(&at(i))) return *v;
    throw std::logic_error("column " + std::to_string(i) + " is not " + what);
  }
  std::vector<value> columns_;
};

}  // namespace tpcc::driver
