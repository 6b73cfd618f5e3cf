// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/session.hpp: one connection, borrowed for one transaction.
//
// What: the whole surface transactions use. A transaction is
//   begin(); execute() / execute_batch() / copy() ...; commit() or rollback()
// always with an explicit BEGIN (on distributed engines an implicit transaction around a
// pipeline is not atomic). The isolation level is the database's (database.hpp).
//
// Round trips: a driver that can pipeline (PostgreSQL) sends BEGIN with the first statements,
// the statements of one execute_batch together, and, with `then::commit`, the COMMIT with the
// batch: a batch costs one round trip. round_trips() counts them so reports can show them.
//
// Bulk loading: copy(rows) writes a batch of rows (bulk.hpp) into rows.table inside the current
// transaction (after begin(), before commit(); called outside one, it behaves as execute does:
// PostgreSQL opens a transaction, SQLite writes the batch as a transaction of its own).
// The rows are visible to later statements of the transaction and to everyone after commit();
// nothing remains after rollback(). PostgreSQL streams them with COPY FROM STDIN (two round
// trips, one more when a BEGIN or a Sync is pending); SQLite runs one prepared INSERT per row in
// one job (one round trip). A malformed batch (bulk_problem) is refused with failed, naming the
// problem, before anything is sent. Any failure (a missing table, a duplicate key, a bad value)
// aborts the transaction like a failed statement: some rows may have been written, and the
// caller must rollback(). The caller keeps `rows` alive until the call completes.
//
// Failure: every call returns its outcome (outcome.hpp), never throws for database errors.
// After a failed statement the transaction is aborted: later statements of the same batch are
// not run (their outcome repeats the failure) and the caller must rollback(). After
// connection_lost the session is dead: the lease (database.hpp) gives it back for replacement.
//
// Awaiting any call:
//   Result: the outcome, with rows for statements.
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token: a call waiting for the server is abandoned with
//                 outcome connection_lost (the connection is then closed, since the server's
//                 state is unknown) — so runs stop promptly; a call not yet started returns
//                 failed "cancelled" at once.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "driver/bulk.hpp"
#include "driver/outcome.hpp"
#include "driver/statement.hpp"
#include "shoal/task.hpp"

namespace tpcc::driver {

// What to do after a batch, in the same round trip.
enum class then { nothing, commit };

class session {
 public:
  session() = default;
  session(const session&) = delete;
  session& operator=(const session&) = delete;
  virtual ~session() = default;

  virtual shoal::task<outcome> begin() = 0;
  virtual shoal::task<statement_result> execute(const statement& stmt,
                                                std::vector<value> params) = 0;
  // Independent statements (none needs another's result), results in order. With
  // then::commit, the transaction is committed after them; the commit's outcome is the last
  // element of the result (one more than calls.size()).
  virtual shoal::task<std::vector<statement_result>> execute_batch(std::span<const call> calls,
                                                                   then after) = 0;
  // Writes `rows` into their table (see "Bulk loading" above); its outcome.
  virtual shoal::task<outcome> copy(const bulk_rows& rows) = 0;
  virtual shoal::task<outcome> commit() = 0;
  virtual shoal::task<outcome> rollback() = 0;

  // Round trips to the server since this session was opened (monotonic).
  [[nodiscard]] virtual std::uint64_t round_trips() const noexcept = 0;
  // False once the connection is known to be broken.
  [[nodiscard]] virtual bool healthy() const noexcept = 0;
  // Asks the server to abandon the statement this session is running, if any, keeping the
  // connection: the call in flight then ends with the server's error (PostgreSQL: SQLSTATE
  // 57014, query_canceled, by libpq's cancel request; MySQL/MariaDB: error 1317, by KILL QUERY
  // on a connection of its own). True when the request was delivered; false when the driver
  // has none (SQLite, whose cancellation is its stop token's sqlite3_interrupt; the simulated
  // database): stop the call by its stop token instead. Thread-safety: any thread, while
  // another coroutine is inside a call of this session, for as long as the session lives; it
  // blocks for one connection to the server.
  virtual bool cancel() noexcept { return false; }
  // Whether `UPDATE ... RETURNING` runs as one statement (every engine but MySQL/MariaDB, whose
  // statement forms read the row back with a SELECT of its own): transactions may shape their
  // statements by it (New-Order's stock, txn/new_order.cpp), never their reads and writes.
  [[nodiscard]] virtual bool update_returning() const noexcept { return true; }

 protected:
  // execute() as a batch of one, for drivers whose execute_batch does all the work (PostgreSQL,
  // MySQL): the statement's result, or the batch's failure repeated.
  shoal::task<statement_result> execute_as_batch(const statement& stmt, std::vector<value> params);
};

}  // namespace tpcc::driver
