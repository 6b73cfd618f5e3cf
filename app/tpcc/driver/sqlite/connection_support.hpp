// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/sqlite/connection_support.hpp: helpers shared by connection.cpp and copy.cpp.
//
// What: the driver's outcomes for a refused, cancelled or aborted call, and the visitor that
// binds a driver value to a statement parameter. Internal to the SQLite driver.
// Thread-safety: plain functions; binder on the connection's job thread, like the statement.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "driver/outcome.hpp"

namespace tpcc::driver::sqlite {

[[nodiscard]] inline outcome failed(std::string text) {
  return outcome::make(outcome_kind::failed, "", std::move(text));
}

[[nodiscard]] inline outcome cancelled_outcome(std::string_view context) {
  return failed("cancelled: " + std::string(context) +
                " was interrupted (transaction rolled back)");
}

[[nodiscard]] inline outcome aborted_outcome() {
  return failed("current transaction is aborted by an earlier failure: rollback() first");
}

// std::visit(binder{stmt, i}, v) binds v to parameter i (from 1); SQLite's result code.
struct binder {
  sqlite3_stmt* stmt;
  int index;
  int operator()(std::monostate) const noexcept { return sqlite3_bind_null(stmt, index); }
  int operator()(std::int64_t v) const noexcept { return sqlite3_bind_int64(stmt, index, v); }
  int operator()(double v) const noexcept { return sqlite3_bind_double(stmt, index, v); }
  int operator()(const std::string& v) const noexcept {
    // A null destructor is SQLITE_STATIC: the value outlives the step that reads it.
    return sqlite3_bind_text64(stmt, index, v.data(), v.size(), nullptr, SQLITE_UTF8);
  }
};

}  // namespace tpcc::driver::sqlite
