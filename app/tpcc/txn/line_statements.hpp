// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/line_statements.hpp: one statement per order-line count, for the statements of
// New-Order that cover all of an order's lines at once.
//
// What: New-Order reads its items with one `SELECT ... WHERE i_id IN (...)` and writes its lines
// with one multi-row `INSERT ... VALUES (...), (...)`, instead of one statement per line: the
// same rows read and written in fewer statements, which is what the server spends most on per
// transaction (docs/tpcc/design/mysql-driver.md, "The server's cost per transaction"). A
// statement's text depends on the number of lines, so there is one statement per count
// (1..max_lines), named `<name>_NN`: one statement family to the reports and the simulated
// database (driver/statement.hpp, family()).
//
// Lifetime: built once (static objects of the transaction code), immutable after; the
// statements' views point into the object, which must outlive every call made of them.
// Thread-safety: immutable after construction.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "driver/statement.hpp"

namespace tpcc::txn {

inline constexpr std::size_t max_lines = 15;  // clause 2.4.1.3: O_OL_CNT is 5..15

class line_statements {
 public:
  /// The SQL of a statement covering `lines` lines (1..max_lines), $n placeholders.
  using text_of = std::function<std::string(std::size_t lines)>;

  /// Builds the statements `<name>_01` .. `<name>_15`; `mysql` may be empty (the same text).
  line_statements(std::string_view name, const text_of& sql, const text_of& mysql);
  line_statements(const line_statements&) = delete;
  line_statements& operator=(const line_statements&) = delete;
  ~line_statements() = default;

  /// The statement for `lines` lines. Errors: std::out_of_range unless 1 <= lines <= max_lines.
  [[nodiscard]] const driver::statement& of(std::size_t lines) const;

 private:
  std::array<std::string, max_lines> names_;
  std::array<std::string, max_lines> texts_;
  std::array<std::string, max_lines> mysql_texts_;
  std::array<driver::statement, max_lines> statements_;
};

/// "$first, $first+1, ..., $first+count-1": a list of `count` placeholders.
[[nodiscard]] std::string placeholder_list(std::size_t first, std::size_t count);

}  // namespace tpcc::txn
