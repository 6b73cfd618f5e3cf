// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/sqlite/connection.hpp: one sqlite3 connection, used by blocking calls.
//
// What: the SQLite side of a session: opening with the driver's pragmas, statements prepared
// once (SQLITE_PREPARE_PERSISTENT) and kept by the address of their `statement`, $N
// placeholders bound by name, rows typed by each column's storage class, SQLite's result codes
// turned into outcomes, and the transaction's state (none, open, aborted by a failure).
// copy() (copy.cpp) writes bulk rows with one INSERT per (table, columns), prepared once and
// cached by its target text, stepped once per row.
//
// Thread-safety: every member runs on the connection's job thread, one call at a time, except
// interrupt(), which any thread may call while the connection exists: it sets `cancel_`
// (release; arm() and the busy handler read it) and calls sqlite3_interrupt, which SQLite allows
// from another thread. A call that finds `cancel_` set, or that SQLite interrupts, fails with
// "cancelled" and rolls back its transaction, so the connection is clean for its next user.
#pragma once

#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "driver/bulk.hpp"
#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "driver/sqlite/sqlite.hpp"
#include "driver/statement.hpp"

namespace tpcc::driver::sqlite {

class connection;
using open_connection_result = std::variant<std::unique_ptr<connection>, outcome>;

class connection {
 public:
  // Opens `path` (created when missing) and applies the pragmas; failed names the path.
  static open_connection_result open(const std::string& path, const settings& tuning);

  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;
  ~connection();

  outcome begin();
  statement_result run(const statement& stmt, const std::vector<value>& params);
  // The calls in order, stopping at the first failure (the rest repeat it), then the commit.
  std::vector<statement_result> run_batch(std::span<const call> calls, then after);
  outcome commit();
  outcome rollback();
  // Inserts every row of `rows`, stopping at the first failure (which aborts the transaction).
  // With no transaction open, the rows go as one of their own: all or nothing.
  outcome copy(const bulk_rows& rows);

  // False after an error that leaves the file unusable (I/O error, corruption, not a database).
  [[nodiscard]] bool usable() const noexcept { return usable_; }

  // Any thread: abandons the running call and every call until the next arm().
  void interrupt() noexcept;
  // Job thread or the owner between jobs: clears an earlier interrupt().
  void arm() noexcept { cancel_.store(false, std::memory_order_relaxed); }

 private:
  enum class txn : std::uint8_t { none, open, aborted };
  struct stmt_deleter {
    void operator()(sqlite3_stmt* s) const noexcept { sqlite3_finalize(s); }
  };
  struct prepared {
    std::unique_ptr<sqlite3_stmt, stmt_deleter> handle;
    std::vector<std::size_t> param_of;  // for SQLite's parameter i+1: N-1 of its name "$N"
  };

  connection(sqlite3* db, const settings& tuning) noexcept;
  [[nodiscard]] bool cancelled() const noexcept {
    return cancel_.load(std::memory_order_acquire);  // pairs with interrupt()'s release store
  }
  outcome configure();
  outcome run_into(const statement& stmt, const std::vector<value>& params, statement_result& out);
  prepared* prepare(const statement& stmt, outcome& error);
  outcome bind(const prepared& p, const statement& stmt, const std::vector<value>& params);
  outcome step_all(const prepared& p, const statement& stmt, statement_result& out);
  outcome exec(const char* sql);
  outcome copy_alone(const bulk_rows& rows, std::string_view context);
  outcome insert_all(const bulk_rows& rows, std::string_view context);
  outcome insert_row(sqlite3_stmt* insert, std::span<const value> row, std::string_view context);
  sqlite3_stmt* insert_for(const bulk_rows& rows, std::string_view context, outcome& error);
  outcome failure(int rc, std::string_view context);
  outcome settle(outcome o);
  static int on_busy(void* self, int attempts) noexcept;

  sqlite3* db_;
  std::chrono::milliseconds busy_timeout_;
  std::chrono::steady_clock::time_point busy_since_;
  std::atomic<bool> cancel_{false};
  txn txn_ = txn::none;
  bool usable_ = true;
  std::unordered_map<const statement*, prepared> prepared_;
  // copy()'s INSERTs, by bulk_target(): "table (a, b, ...)".
  std::unordered_map<std::string, std::unique_ptr<sqlite3_stmt, stmt_deleter>> inserts_;
};

}  // namespace tpcc::driver::sqlite
