// SPDX-License-Identifier: Apache-2.0
// One sqlite3 connection, used by blocking calls on its job thread (connection.hpp).
#include "driver/sqlite/connection.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <thread>
#include <utility>

#include "driver/sqlite/connection_support.hpp"

namespace tpcc::driver::sqlite {
namespace {

std::string statement_context(const statement& stmt) {
  return "statement '" + std::string(stmt.name) + "'";
}

// "$N" with N >= 1 gives N-1; anything else is not one of ours.
bool dollar_number(const char* name, std::size_t& index) {
  if (name == nullptr || name[0] != '$') return false;
  const char* first = name + 1;
  const char* last = first + std::strlen(first);
  std::size_t n = 0;
  const auto [end, ec] = std::from_chars(first, last, n);
  if (ec != std::errc{} || end != last || n == 0) return false;
  index = n - 1;
  return true;
}

std::string column_bytes(const void* data, int size) {
  if (data == nullptr || size <= 0) return {};
  return {static_cast<const char*>(data), static_cast<std::size_t>(size)};
}

row read_row(sqlite3_stmt* stmt) {
  const int n = sqlite3_column_count(stmt);
  std::vector<value> columns;
  columns.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    switch (sqlite3_column_type(stmt, i)) {
      case SQLITE_INTEGER:
        columns.emplace_back(static_cast<std::int64_t>(sqlite3_column_int64(stmt, i)));
        break;
      case SQLITE_FLOAT:
        columns.emplace_back(sqlite3_column_double(stmt, i));
        break;
      case SQLITE_NULL:
        columns.emplace_back(std::monostate{});
        break;
      case SQLITE_TEXT: {
        const void* text = sqlite3_column_text(stmt, i);  // before the size, as SQLite asks
        columns.emplace_back(column_bytes(text, sqlite3_column_bytes(stmt, i)));
        break;
      }
      default: {  // SQLITE_BLOB
        const void* blob = sqlite3_column_blob(stmt, i);
        columns.emplace_back(column_bytes(blob, sqlite3_column_bytes(stmt, i)));
        break;
      }
    }
  }
  return row(std::move(columns));
}

outcome cannot_open(const std::string& path, const std::string& why) {
  return failed("cannot open SQLite database '" + path + "': " + why);
}

}  // namespace

connection::connection(sqlite3* db, const settings& tuning) noexcept
    : db_(db), busy_timeout_(tuning.busy_timeout) {}

connection::~connection() {
  prepared_.clear();  // finalizes every statement before the close
  inserts_.clear();
  sqlite3_close_v2(db_);
}

open_connection_result connection::open(const std::string& path, const settings& tuning) {
  sqlite3* db = nullptr;
  const int flags =
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  if (rc != SQLITE_OK) {
    std::string why = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close_v2(db);
    return cannot_open(path, why);
  }
  std::unique_ptr<connection> c(new connection(db, tuning));
  if (outcome o = c->configure(); !o.ok()) return cannot_open(path, o.message);
  return c;
}

// The busy handler (rather than sqlite3_busy_timeout) so that waiting honours interrupt().
outcome connection::configure() {
  sqlite3_busy_handler(db_, &connection::on_busy, this);
  sqlite3_stmt* raw = nullptr;
  int rc = sqlite3_prepare_v2(db_, "PRAGMA journal_mode=WAL", -1, &raw, nullptr);
  const std::unique_ptr<sqlite3_stmt, stmt_deleter> mode(raw);
  if (rc == SQLITE_OK) rc = sqlite3_step(raw);
  if (rc != SQLITE_ROW) return failed(sqlite3_errmsg(db_));
  const std::string journal =
      column_bytes(sqlite3_column_text(raw, 0), sqlite3_column_bytes(raw, 0));
  if (journal != "wal" && journal != "memory") {
    return failed("journal mode is '" + journal + "', WAL could not be set");
  }
  return exec("PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=OFF");
}

outcome connection::begin() {
  if (cancelled()) return cancelled_outcome("BEGIN");
  // A transaction a previous borrower left open (it ended without commit or rollback) goes.
  if (sqlite3_get_autocommit(db_) == 0) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  txn_ = txn::none;
  outcome o = settle(exec("BEGIN IMMEDIATE"));
  if (o.ok()) txn_ = txn::open;
  return o;
}

statement_result connection::run(const statement& stmt, const std::vector<value>& params) {
  statement_result out;
  out.status = run_into(stmt, params, out);
  if (!out.ok()) out.status.statement = stmt.name;
  return out;
}

std::vector<statement_result> connection::run_batch(std::span<const call> calls, then after) {
  std::vector<statement_result> out;
  out.reserve(calls.size() + (after == then::commit ? 1 : 0));
  outcome first_failure;
  for (const call& c : calls) {
    statement_result r;
    if (first_failure.ok()) {
      r.status = run_into(*c.stmt, c.params, r);
      if (!r.ok()) r.status.statement = c.stmt->name;
      if (!r.ok()) first_failure = r.status;
    } else {
      r.status = first_failure;
    }
    out.push_back(std::move(r));
  }
  if (after == then::commit) {
    statement_result r;
    r.status = first_failure.ok() ? commit() : first_failure;
    if (first_failure.ok() && !r.ok()) r.status.statement = "COMMIT";
    out.push_back(std::move(r));
  }
  return out;
}

outcome connection::commit() {
  if (txn_ == txn::aborted) return aborted_outcome();
  if (cancelled()) return settle(cancelled_outcome("COMMIT"));
  outcome o = settle(exec("COMMIT"));
  if (o.ok()) txn_ = txn::none;
  return o;
}

// Never cancelled: it is how a cancelled transaction is cleaned up.
outcome connection::rollback() {
  txn_ = txn::none;
  if (sqlite3_get_autocommit(db_) != 0) return outcome::success();  // nothing open
  return exec("ROLLBACK");
}

void connection::interrupt() noexcept {
  cancel_.store(true, std::memory_order_release);  // pairs with cancelled()'s acquire load
  sqlite3_interrupt(db_);
}

outcome connection::run_into(const statement& stmt, const std::vector<value>& params,
                             statement_result& out) {
  if (txn_ == txn::aborted) return aborted_outcome();
  if (cancelled()) return settle(cancelled_outcome(statement_context(stmt)));
  outcome error;
  const prepared* p = prepare(stmt, error);
  if (p == nullptr) return settle(std::move(error));
  if (outcome o = bind(*p, stmt, params); !o.ok()) return settle(std::move(o));
  return settle(step_all(*p, stmt, out));
}

connection::prepared* connection::prepare(const statement& stmt, outcome& error) {
  if (auto found = prepared_.find(&stmt); found != prepared_.end()) return &found->second;
  sqlite3_stmt* raw = nullptr;
  const char* tail = nullptr;
  const int rc = sqlite3_prepare_v3(db_, stmt.sql.data(), static_cast<int>(stmt.sql.size()),
                                    SQLITE_PREPARE_PERSISTENT, &raw, &tail);
  prepared p{.handle = decltype(prepared::handle)(raw), .param_of = {}};
  if (rc != SQLITE_OK) {
    error = failure(rc, statement_context(stmt));
    return nullptr;
  }
  const char* end = stmt.sql.data() + stmt.sql.size();
  if (raw == nullptr || std::any_of(tail, end, [](char c) {
        return c != ' ' && c != '\n' && c != ';' && c != '\t';
      })) {
    error = failed(statement_context(stmt) + " must hold exactly one SQL statement");
    return nullptr;
  }
  const int count = sqlite3_bind_parameter_count(raw);
  for (int i = 1; i <= count; ++i) {
    std::size_t n = 0;
    const char* name = sqlite3_bind_parameter_name(raw, i);
    if (!dollar_number(name, n)) {
      error = failed(statement_context(stmt) + ": placeholder '" + (name != nullptr ? name : "?") +
                     "' is not $1..$n");
      return nullptr;
    }
    p.param_of.push_back(n);
  }
  return &prepared_.emplace(&stmt, std::move(p)).first->second;
}

outcome connection::bind(const prepared& p, const statement& stmt,
                         const std::vector<value>& params) {
  const std::size_t arity =
      p.param_of.empty() ? 0 : 1 + *std::max_element(p.param_of.begin(), p.param_of.end());
  if (params.size() != arity) {
    return failed(statement_context(stmt) + " takes " + std::to_string(arity) +
                  " parameters, was given " + std::to_string(params.size()));
  }
  sqlite3_stmt* s = p.handle.get();
  for (std::size_t i = 0; i < p.param_of.size(); ++i) {
    const int rc = std::visit(binder{s, static_cast<int>(i + 1)}, params[p.param_of[i]]);
    if (rc != SQLITE_OK) return failure(rc, statement_context(stmt));
  }
  return outcome::success();
}

outcome connection::step_all(const prepared& p, const statement& stmt, statement_result& out) {
  sqlite3_stmt* s = p.handle.get();
  int rc = SQLITE_OK;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) out.rows.push_back(read_row(s));
  outcome o = rc == SQLITE_DONE ? outcome::success() : failure(rc, statement_context(stmt));
  if (rc == SQLITE_DONE && sqlite3_stmt_readonly(s) == 0) out.affected = sqlite3_changes64(db_);
  sqlite3_reset(s);
  sqlite3_clear_bindings(s);
  return o;
}

outcome connection::exec(const char* sql) {
  const int rc = sqlite3_exec(db_, sql, nullptr, nullptr, nullptr);
  return rc == SQLITE_OK ? outcome::success() : failure(rc, sql);
}

outcome connection::failure(int rc, std::string_view context) {
  const int primary = rc & 0xff;
  if (primary == SQLITE_INTERRUPT || cancelled()) return cancelled_outcome(context);
  std::string text = std::string(context) + ": " + sqlite3_errmsg(db_);
  if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
    return outcome::make(outcome_kind::retryable, "", "database busy: " + text);
  }
  if (primary == SQLITE_IOERR || primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) {
    usable_ = false;
  }
  return failed(std::move(text));
}

// After a failure: a cancelled call rolls its transaction back at once; any other failure
// leaves it aborted until rollback().
outcome connection::settle(outcome o) {
  if (o.ok()) return o;
  if (cancelled()) {
    if (sqlite3_get_autocommit(db_) == 0) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
  }
  if (txn_ == txn::open) txn_ = txn::aborted;
  return o;
}

// Waits for another connection's lock in short sleeps, until the busy timeout or interrupt().
int connection::on_busy(void* self, int attempts) noexcept {
  auto& c = *static_cast<connection*>(self);
  const auto now = std::chrono::steady_clock::now();
  if (attempts == 0) c.busy_since_ = now;
  const auto left = c.busy_timeout_ - (now - c.busy_since_);
  if (c.cancelled() || left <= std::chrono::steady_clock::duration::zero()) return 0;
  const auto step = std::chrono::milliseconds(std::min(1 << std::min(attempts, 3), 5));
  std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(step, left));
  return 1;
}

}  // namespace tpcc::driver::sqlite
