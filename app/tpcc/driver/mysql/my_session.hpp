// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/mysql/my_session.hpp: a driver session on one MySQL / MariaDB connection.
//
// What: the session interface (session.hpp) with Connector/C's non-blocking calls on shoal's
// reactor (connection.hpp). Every statement is a server-side prepared statement, prepared the
// first time this connection runs it (one round trip, once) and executed with binary
// parameters (one round trip each: the classic protocol answers every command before the next
// is read, and Connector/C has no pipelining). A statement with a `mysql` form of several
// steps (dialect.hpp) costs a round trip per step.
//
// Transactions: the connection runs with autocommit off, so begin() sends nothing: the
// transaction starts with its first statement on the server, atomic all the same, and ends with
// COMMIT or ROLLBACK (one round trip each; none when nothing was sent). A transaction left open
// by a previous borrower is rolled back at the next begin(). MySQL keeps a transaction usable
// after a failed statement; this session does not: after a failure it answers every later
// statement with that failure until rollback(), as the interface promises.
//
// With protocol=text (uri.hpp) a batch is instead one multi-statement text query: every call's
// steps with their parameters escaped into the SQL, joined by ';', with COMMIT at the end for
// then::commit: one round trip per batch, as on PostgreSQL. The server stops at the first
// failing statement (so a COMMIT after it never runs); the results come back in order.
//
// copy(): multi-row INSERT statements in the text protocol, values escaped by the library
// (mysql_real_escape_string), each up to 1 MiB of SQL (the default max_allowed_packet is 16 MiB):
// one round trip per statement.
//
// cancel(): KILL QUERY for this connection's server thread (mysql_thread_id, read when the
// session is made) on a blocking connection of its own (kill_query.hpp); the connection is kept.
//
// CALL (a step marked is_call, dialect.hpp): a procedure's result set is followed by the CALL's
// own status; the session reads it as part of the same step (prepared: mysql_stmt_next_result;
// text: the next result of the query), so a CALL is one call's rows like any SELECT.
//
// Cancellation: a stop request while waiting for the server closes the connection (its state
// is unknown) and the call returns connection_lost; the session is then unhealthy for good.
// Thread-safety: one coroutine at a time (session.hpp); healthy() by whoever holds it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "driver/mysql/connection.hpp"
#include "driver/mysql/dialect.hpp"
#include "driver/mysql/uri.hpp"
#include "driver/session.hpp"

namespace tpcc::driver::mysql {

// Where a statement's rows are fetched into: its metadata and one text buffer per column,
// made once per prepared statement and reused by every execution.
struct result_buffers {
  result_buffers() = default;
  result_buffers(const result_buffers&) = delete;
  result_buffers& operator=(const result_buffers&) = delete;
  ~result_buffers();
  MYSQL_RES* meta = nullptr;
  const MYSQL_FIELD* fields = nullptr;
  std::vector<MYSQL_BIND> binds;
  std::vector<std::string> buffers;
  std::vector<unsigned long> lengths;
  std::vector<my_bool> nulls;
  std::vector<my_bool> errors;
};

class my_session final : public session {
 public:
  // `text`: batches as multi-statement text queries (uri.hpp's protocol=text). `target`: where
  // cancel() connects to send KILL QUERY (kill_query.hpp).
  my_session(std::unique_ptr<connection> conn, bool text, uri target);
  ~my_session() override;
  my_session(const my_session&) = delete;
  my_session& operator=(const my_session&) = delete;

  shoal::task<outcome> begin() override;
  shoal::task<statement_result> execute(const statement& stmt, std::vector<value> params) override;
  shoal::task<std::vector<statement_result>> execute_batch(std::span<const call> calls,
                                                           then after) override;
  shoal::task<outcome> copy(const bulk_rows& rows) override;
  shoal::task<outcome> commit() override;
  shoal::task<outcome> rollback() override;

  [[nodiscard]] std::uint64_t round_trips() const noexcept override { return round_trips_; }
  [[nodiscard]] bool healthy() const noexcept override;
  // KILL QUERY for this connection's server thread, on a blocking connection of its own.
  bool cancel() noexcept override;
  [[nodiscard]] bool update_returning() const noexcept override { return false; }

 private:
  enum class op : std::uint8_t {
    prepare,
    execute,
    store,
    commit,
    rollback,
    query,
    store_text,
    next_result,
    stmt_next_result
  };
  struct prepared_step {
    step text;
    MYSQL_STMT* handle = nullptr;
    bool prepared = false;
    std::unique_ptr<result_buffers> result;  // made at the first execution returning rows
  };
  struct prepared {
    std::vector<prepared_step> steps;
  };

  shoal::task<bool> drive(op o, MYSQL_STMT* h, const std::string& text);
  shoal::task<statement_result> run_call(const call& c);
  shoal::task<std::vector<statement_result>> text_batch(std::span<const call> calls, then after);
  shoal::task<outcome> run_step(prepared_step& s, const call& c, statement_result& out,
                                bool& rows_taken);
  shoal::task<outcome> end(op o);
  shoal::task<outcome> finish_call(MYSQL_STMT* h, std::string_view name);
  outcome stmt_error(MYSQL_STMT* h, std::string_view name);
  outcome conn_error(std::string_view name);
  outcome drop(outcome why);
  outcome refusal() const;
  prepared& prepared_of(const statement& stmt);

  std::unique_ptr<connection> conn_;
  // For cancel(), from any thread: set once here, never changed.
  const uri kill_target_;
  const unsigned long server_thread_;
  std::unordered_map<const statement*, prepared> statements_;
  std::uint64_t round_trips_ = 0;
  int ret_int_ = 0;               // what the last non-blocking call returned (int calls)
  my_bool ret_bool_ = 0;          // (my_bool calls)
  MYSQL_RES* ret_res_ = nullptr;  // (mysql_store_result)
  bool text_ = false;             // batches as multi-statement text queries
  bool in_transaction_ = false;   // a statement was sent since the last COMMIT / ROLLBACK
  bool aborted_ = false;          // the open transaction failed; `failure_` says how
  outcome failure_;
  bool broken_ = false;
};

}  // namespace tpcc::driver::mysql
