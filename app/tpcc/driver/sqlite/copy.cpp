// SPDX-License-Identifier: Apache-2.0
// Bulk rows through one cached INSERT per (table, columns) (connection.hpp, copy()).
#include <sqlite3.h>

#include <string>
#include <utility>
#include <variant>

#include "driver/sqlite/connection.hpp"
#include "driver/sqlite/connection_support.hpp"

namespace tpcc::driver::sqlite {

namespace {

// "INSERT INTO table (a, b) VALUES (?, ?)"
std::string insert_sql(const std::string& target, std::size_t width) {
  std::string sql = "INSERT INTO " + target + " VALUES (";
  for (std::size_t i = 0; i < width; ++i) sql += i == 0 ? "?" : ", ?";
  sql += ')';
  return sql;
}

}  // namespace

outcome connection::copy(const bulk_rows& rows) {
  const std::string context = "copy into '" + std::string(rows.table) + "'";
  if (txn_ == txn::aborted) return aborted_outcome();
  if (cancelled()) return settle(cancelled_outcome(context));
  if (std::string problem = bulk_problem(rows); !problem.empty()) {
    return settle(failed(std::move(problem)));
  }
  if (rows.rows() == 0) return outcome::success();
  if (sqlite3_get_autocommit(db_) != 0) return copy_alone(rows, context);
  return settle(insert_all(rows, context));
}

// No transaction open: BEGIN, the rows, COMMIT; rolled back on any failure.
outcome connection::copy_alone(const bulk_rows& rows, std::string_view context) {
  outcome o = exec("BEGIN IMMEDIATE");
  if (o.ok()) o = insert_all(rows, context);
  if (o.ok()) o = exec("COMMIT");
  if (!o.ok() && sqlite3_get_autocommit(db_) == 0) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  return o;
}

outcome connection::insert_all(const bulk_rows& rows, std::string_view context) {
  outcome error;
  sqlite3_stmt* insert = insert_for(rows, context, error);
  if (insert == nullptr) return error;
  const std::size_t width = rows.columns.size();
  const std::span<const value> all(rows.values);
  for (std::size_t r = 0; r < rows.rows(); ++r) {
    // sqlite3_interrupt reaches only a running statement: look between rows as well.
    if (cancelled()) return cancelled_outcome(context);
    if (outcome o = insert_row(insert, all.subspan(r * width, width), context); !o.ok()) return o;
  }
  return outcome::success();
}

outcome connection::insert_row(sqlite3_stmt* insert, std::span<const value> row,
                               std::string_view context) {
  int rc = SQLITE_OK;
  for (std::size_t i = 0; i < row.size() && rc == SQLITE_OK; ++i) {
    rc = std::visit(binder{insert, static_cast<int>(i + 1)}, row[i]);
  }
  if (rc == SQLITE_OK) rc = sqlite3_step(insert);
  outcome o = rc == SQLITE_DONE ? outcome::success() : failure(rc, context);
  sqlite3_reset(insert);  // every parameter is bound again for the next row
  return o;
}

sqlite3_stmt* connection::insert_for(const bulk_rows& rows, std::string_view context,
                                     outcome& error) {
  std::string target = bulk_target(rows);
  if (auto found = inserts_.find(target); found != inserts_.end()) return found->second.get();
  const std::string sql = insert_sql(target, rows.columns.size());
  sqlite3_stmt* raw = nullptr;
  const int rc = sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &raw, nullptr);
  std::unique_ptr<sqlite3_stmt, stmt_deleter> handle(raw);
  if (rc != SQLITE_OK || raw == nullptr) {
    error = failure(rc, context);
    return nullptr;
  }
  return inserts_.emplace(std::move(target), std::move(handle)).first->second.get();
}

}  // namespace tpcc::driver::sqlite
