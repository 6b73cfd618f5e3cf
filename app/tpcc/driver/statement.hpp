// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/statement.hpp: a statement as transactions name it, and one call of it.
//
// What: a `statement` is a name and one SQL text with $1..$n placeholders, written once in the
// dialect every supported engine accepts (PostgreSQL, the PostgreSQL-compatible distributed
// engines, and SQLite, which reads $1 as a parameter). Statements are static objects owned by
// the transaction code; a driver prepares each one once per connection, the first time that
// connection runs it, and keys its prepared handle by the statement's address.
// A `call` pairs a statement with its parameters; a `statement_result` is what came back.
//
// MySQL and MariaDB (driver/mysql/) read the same `sql` with each $n turned into a `?` bound to
// parameter n (a parameter may be used several times). Where their dialect differs (no UPDATE
// ... RETURNING, CAST types, || as OR) a statement also carries `mysql`: the same effect as one
// or more statements separated by ';', run in order on the call's parameters; the call's rows
// are those of the one that returns rows, its affected count the sum of the others'
// (docs/tpcc/sql-portability.md).
//
// Thread-safety: statements are immutable; calls and results are plain values.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "driver/outcome.hpp"
#include "driver/value.hpp"

namespace tpcc::driver {

struct statement {
  std::string_view name;  // unique, a valid SQL identifier: used as the prepared name
  std::string_view sql;
  std::string_view mysql{};  // the MySQL/MariaDB form, when it differs (see above)
};

// A statement's family: its name less a trailing "_" and digits, so that a statement prepared
// once per district (tpcc_no_stock_01 .. tpcc_no_stock_10) is one statement to the error
// reports and to the simulated database.
[[nodiscard]] constexpr std::string_view family(std::string_view name) noexcept {
  std::size_t end = name.size();
  while (end > 0 && name[end - 1] >= '0' && name[end - 1] <= '9') --end;
  if (end == name.size() || end == 0 || name[end - 1] != '_') return name;
  return name.substr(0, end - 1);
}

struct call {
  const statement* stmt = nullptr;
  std::vector<value> params;
};

struct statement_result {
  outcome status;
  std::vector<row> rows;
  std::int64_t affected = 0;  // rows changed by INSERT / UPDATE / DELETE

  [[nodiscard]] bool ok() const noexcept { return status.ok(); }
};

// The first non-ok outcome of `results`, or ok when all are.
[[nodiscard]] outcome first_failure(std::span<const statement_result> results);

}  // namespace tpcc::driver
