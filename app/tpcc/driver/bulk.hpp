// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/bulk.hpp: rows written in bulk by the loader (session::copy, session.hpp).
//
// What: a batch of rows for one table: the table's name, the columns in the order the values
// come, and the values row-major (columns.size() per row). PostgreSQL writes it with COPY FROM
// STDIN; SQLite with one prepared INSERT run per row. The names are written into SQL as they
// are, unquoted: `bulk_problem` accepts only plain lower-case identifiers, so nothing a caller
// passes can change the statement. Thread-safety: a plain value.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "driver/value.hpp"

namespace tpcc::driver {

struct bulk_rows {
  std::string_view table;
  std::span<const std::string_view> columns;
  std::vector<value> values;  // row-major

  [[nodiscard]] std::size_t rows() const noexcept {
    return columns.empty() ? 0 : values.size() / columns.size();
  }
  void clear() noexcept { values.clear(); }
};

// [a-z_][a-z0-9_]*, at most 63 characters (PostgreSQL's limit).
[[nodiscard]] constexpr bool plain_identifier(std::string_view name) noexcept {
  if (name.empty() || name.size() > 63 || (name[0] >= '0' && name[0] <= '9')) return false;
  for (const char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

// Why `rows` cannot be written (a caller's mistake, named), or empty when it can.
[[nodiscard]] inline std::string bulk_problem(const bulk_rows& rows) {
  const std::string table(rows.table);
  if (!plain_identifier(rows.table)) return "bulk rows: table '" + table + "' is not a plain name";
  if (rows.columns.empty()) return "bulk rows for '" + table + "': no columns";
  for (const std::string_view column : rows.columns) {
    if (!plain_identifier(column)) {
      return "bulk rows for '" + table + "': column '" + std::string(column) +
             "' is not a plain name";
    }
  }
  if (rows.values.size() % rows.columns.size() != 0) {
    return "bulk rows for '" + table + "': " + std::to_string(rows.values.size()) +
           " values do not make whole rows of " + std::to_string(rows.columns.size()) + " columns";
  }
  return {};
}

// "table (a, b, c)": the target of COPY and INSERT, for a well-formed `rows`.
[[nodiscard]] inline std::string bulk_target(const bulk_rows& rows) {
  std::string out(rows.table);
  out += " (";
  for (std::size_t i = 0; i < rows.columns.size(); ++i) {
    if (i > 0) out += ", ";
    out += rows.columns[i];
  }
  out += ')';
  return out;
}

}  // namespace tpcc::driver
