// SPDX-License-Identifier: Apache-2.0
// The multi-row INSERT baseline (insert_rows.hpp).
#include "loader/insert_rows.hpp"

#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tpcc::loader {
namespace {

using driver::call;
using driver::outcome;
using driver::statement;
using driver::statement_result;

// A statement whose text is built at run time; never moves once made (kept in a deque).
struct owned_statement {
  std::string name;
  std::string sql;
  statement stmt;
};

std::string insert_sql(const driver::bulk_rows& rows, std::size_t count) {
  std::string sql = "INSERT INTO " + std::string(rows.table) + " (";
  for (std::size_t c = 0; c < rows.columns.size(); ++c) {
    if (c > 0) sql += ", ";
    sql += rows.columns[c];
  }
  sql += ") VALUES ";
  std::size_t param = 1;
  for (std::size_t r = 0; r < count; ++r) {
    sql += r > 0 ? ", (" : "(";
    for (std::size_t c = 0; c < rows.columns.size(); ++c, ++param) {
      if (c > 0) sql += ", ";
      sql += '$';
      sql += std::to_string(param);
    }
    sql += ')';
  }
  return sql;
}

// The INSERT of `count` rows into rows.table, made on first use.
const statement& insert_statement(const driver::bulk_rows& rows, std::size_t count) {
  static std::mutex lock;
  static std::deque<owned_statement> made;
  static std::map<std::pair<std::string, std::size_t>, const statement*> index;
  const std::scoped_lock guard(lock);
  auto key = std::pair(std::string(rows.table), count);
  if (auto found = index.find(key); found != index.end()) return *found->second;
  owned_statement& s = made.emplace_back();
  s.name = "tpcc_insert_" + key.first + "_" + std::to_string(count);
  s.sql = insert_sql(rows, count);
  s.stmt = {s.name, s.sql};
  index.emplace(std::move(key), &s.stmt);
  return s.stmt;
}

// One call per group of up to rows_per_insert rows, with those rows' values.
std::vector<call> insert_calls(const driver::bulk_rows& rows) {
  std::vector<call> calls;
  const std::size_t width = rows.columns.size();
  for (std::size_t first = 0; first < rows.rows(); first += rows_per_insert) {
    const std::size_t count = std::min(rows_per_insert, rows.rows() - first);
    auto begin = rows.values.begin() + static_cast<std::ptrdiff_t>(first * width);
    auto end = begin + static_cast<std::ptrdiff_t>(count * width);
    calls.push_back({&insert_statement(rows, count), std::vector<driver::value>(begin, end)});
  }
  return calls;
}

}  // namespace

shoal::task<outcome> insert_rows(driver::session& s, const driver::bulk_rows& rows) {
  const std::vector<call> calls = insert_calls(rows);
  const std::vector<statement_result> results =
      co_await s.execute_batch(calls, driver::then::nothing);
  co_return first_failure(results);
}

}  // namespace tpcc::loader
