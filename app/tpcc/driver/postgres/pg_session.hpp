// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/postgres/pg_session.hpp: a driver session on one PostgreSQL connection.
//
// What: the session interface (session.hpp) in libpq pipeline mode. Each public call is at
// most one round trip: it queues what it has to say (a pending BEGIN, PREPAREs of statements
// this connection has not seen yet, the statements, a COMMIT), ends the batch with a flush
// request (the transaction goes on: results are needed before the caller continues) or a sync
// point (COMMIT / ROLLBACK: the transaction is over), sends it, and reads every result back.
// begin() sends nothing: BEGIN ISOLATION LEVEL ... travels with the first statements.
// After an error the server skips everything up to the next sync point; the skipped results
// come back PGRES_PIPELINE_ABORTED, and every statement of the batch after the failed one
// reports the first error. rollback() then sends [Sync,] ROLLBACK, Sync in one round trip.
// A transaction left open by a previous borrower is rolled back ahead of the next BEGIN.
//
// copy() (pg_copy.cpp): libpq forbids COPY in pipeline mode, so the session first brings the
// connection to rest inside the pipeline: a pending [Sync,] [ROLLBACK,] BEGIN, or a Sync closing
// statements sent with a flush request, goes with a sync point and its results are read (one
// round trip, skipped when nothing is pending). Then PQexitPipelineMode, `COPY t (cols) FROM
// STDIN` as a simple query (round trip: the server answers CopyInResponse), the rows encoded in
// text format (copy_text.hpp) in chunks of 64 KiB, each put with PQputCopyData and flushed
// (awaiting room in the socket: 3 MB batches never sit whole in libpq's buffer), PQputCopyEnd,
// and the result read (round trip), then PQenterPipelineMode. An error ends the COPY with the
// transaction aborted, as a failed statement does.
//
// Cancellation: a stop request while waiting for the server closes the connection (its state
// is unknown) and the call returns connection_lost; the session is then unhealthy for good.
// Thread-safety: one coroutine at a time (session.hpp); healthy() by whoever holds it.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "driver/database.hpp"
#include "driver/postgres/connection.hpp"
#include "driver/postgres/result.hpp"
#include "driver/session.hpp"

namespace tpcc::driver::postgres {

class pg_session final : public session {
 public:
  pg_session(std::unique_ptr<connection> conn, isolation level);

  shoal::task<outcome> begin() override;
  shoal::task<statement_result> execute(const statement& stmt, std::vector<value> params) override;
  shoal::task<std::vector<statement_result>> execute_batch(std::span<const call> calls,
                                                           then after) override;
  shoal::task<outcome> copy(const bulk_rows& rows) override;
  shoal::task<outcome> commit() override;
  shoal::task<outcome> rollback() override;

  [[nodiscard]] std::uint64_t round_trips() const noexcept override { return round_trips_; }
  [[nodiscard]] bool healthy() const noexcept override;
  // libpq's cancel request (PQcancel on a PGcancel taken when the session was made: libpq 15
  // has no non-blocking cancel API, that came with 17); blocks for one connection to the server.
  bool cancel() noexcept override;

 private:
  enum class step_kind : std::uint8_t { begin, prepare, query, commit, rollback, sync };
  struct step {
    step_kind kind;
    std::size_t call = 0;  // index into the calls, for prepare and query
  };
  // What came back from one round trip.
  struct trip {
    std::vector<statement_result> results;  // one per call
    outcome ended;                          // COMMIT's or ROLLBACK's outcome, when sent
    outcome failure;                        // the first error, when any
    bool failed = false;
  };
  struct prepared_name {
    std::string name;
    bool prepared = false;
  };

  void prologue(std::vector<step>& plan);
  bool send(const step& s, std::span<const call> calls);
  shoal::task<trip> run(std::vector<step> plan, std::span<const call> calls, bool sync);
  shoal::task<bool> read(const step& s, std::span<const call> calls, trip& out);
  void settle(const step& s, const PGresult* r, std::span<const call> calls, trip& out);
  void lose(trip& out, std::span<const call> calls, outcome why);
  outcome drop(outcome why);
  // copy()'s steps (pg_copy.cpp).
  shoal::task<outcome> come_to_rest();
  shoal::task<outcome> copy_out_of_pipeline(const bulk_rows& rows);
  shoal::task<outcome> start_copy(const bulk_rows& rows);
  shoal::task<outcome> send_rows(const bulk_rows& rows);
  shoal::task<outcome> put_chunk(const std::string& chunk);
  shoal::task<outcome> end_copy();
  shoal::task<outcome> next_result(result_ptr& r);
  shoal::task<outcome> drain(outcome said);
  shoal::task<outcome> flushed(const char* while_doing);
  outcome refusal() const;
  prepared_name& name_of(const statement& stmt);

  struct cancel_deleter {
    void operator()(PGcancel* c) const noexcept { PQfreeCancel(c); }
  };

  std::unique_ptr<connection> conn_;
  // Outlives conn_'s PGconn (PQgetCancel copies what it needs), so cancel() is safe from another
  // thread even while the session's coroutine closes the connection.
  std::unique_ptr<PGcancel, cancel_deleter> cancel_;
  std::string begin_sql_;
  std::unordered_map<const statement*, prepared_name> statements_;
  std::uint64_t round_trips_ = 0;
  bool begin_pending_ = false;   // begin() called, BEGIN not sent yet
  bool in_transaction_ = false;  // BEGIN sent, no COMMIT / ROLLBACK yet
  bool rollback_first_ = false;  // a transaction left open: ROLLBACK it before the next BEGIN
  bool need_sync_ = false;       // an error after a flush request: the server skips to a Sync
  bool unsynced_ = false;        // the last round trip ended with a flush request, not a Sync
  bool aborted_ = false;         // the open transaction failed; `failure_` says how
  outcome failure_;
  bool broken_ = false;
};

}  // namespace tpcc::driver::postgres
