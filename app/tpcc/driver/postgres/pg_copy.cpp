// SPDX-License-Identifier: Apache-2.0
// COPY FROM STDIN on a pipelined session (pg_session.hpp, "copy()").
#include <libpq-fe.h>

#include <string>
#include <utility>
#include <vector>

#include "driver/postgres/copy_text.hpp"
#include "driver/postgres/pg_session.hpp"
#include "driver/postgres/result.hpp"
#include "shoal/stop.hpp"

namespace tpcc::driver::postgres {

namespace {

// Rows are encoded and sent in pieces of about this size: libpq never buffers a whole batch.
constexpr std::size_t chunk_bytes = std::size_t{64} * 1024;

std::string copy_sql(const bulk_rows& rows) { return "COPY " + bulk_target(rows) + " FROM STDIN"; }

// What a COPY result says: ok when it has the `expected` status, the server's error, or out of
// step (connection_lost: the protocol state is unknown).
outcome said_by(const PGresult& r, ExecStatusType expected) {
  const ExecStatusType status = PQresultStatus(&r);
  if (status == expected) return outcome::success();
  if (status == PGRES_FATAL_ERROR || status == PGRES_NONFATAL_ERROR) return error_outcome(r);
  return lost(std::string("unexpected answer to COPY: ") + PQresStatus(status));
}

}  // namespace

shoal::task<outcome> pg_session::copy(const bulk_rows& rows) {
  if (outcome no = refusal(); !no.ok()) co_return no;
  if (aborted_) co_return failure_;
  if (std::string problem = bulk_problem(rows); !problem.empty()) {
    outcome why = outcome::make(outcome_kind::failed, "", std::move(problem));
    if (in_transaction_) {
      aborted_ = true;
      failure_ = why;
    }
    co_return why;
  }
  if (!in_transaction_) begin_pending_ = true;  // always an explicit BEGIN
  if (rows.rows() == 0) co_return outcome::success();
  const outcome rested = co_await come_to_rest();
  if (!rested.ok()) co_return rested;
  outcome copied = co_await copy_out_of_pipeline(rows);
  if (!copied.ok() && !broken_ && in_transaction_) {
    aborted_ = true;
    failure_ = copied;
  }
  co_return copied;
}

// Sends whatever is pending (a Sync after an error, a ROLLBACK left over, the BEGIN, or a Sync
// closing statements sent with a flush request) with a sync point, and reads it all: the
// pipeline is then empty and the server is waiting for a new query.
shoal::task<outcome> pg_session::come_to_rest() {
  if (!need_sync_ && !rollback_first_ && !begin_pending_ && !unsynced_) {
    co_return outcome::success();
  }
  std::vector<step> plan;
  prologue(plan);
  begin_pending_ = false;
  trip t = co_await run(std::move(plan), {}, true);  // run() marks the transaction aborted
  if (!t.failed) co_return outcome::success();
  co_return std::move(t.failure);
}

shoal::task<outcome> pg_session::copy_out_of_pipeline(const bulk_rows& rows) {
  PGconn* c = conn_->handle();
  if (PQexitPipelineMode(c) != 1) {
    co_return drop(lost("cannot leave pipeline mode for COPY: " + one_line(PQerrorMessage(c))));
  }
  outcome copied = co_await start_copy(rows);
  if (copied.ok()) copied = co_await send_rows(rows);
  if (copied.ok()) copied = co_await end_copy();
  if (broken_) co_return copied;
  if (PQenterPipelineMode(c) != 1) {
    co_return drop(
        lost("cannot re-enter pipeline mode after COPY: " + one_line(PQerrorMessage(c))));
  }
  co_return copied;
}

// COPY ... FROM STDIN as a simple query; ok once the server is ready for the data.
shoal::task<outcome> pg_session::start_copy(const bulk_rows& rows) {
  PGconn* c = conn_->handle();
  const std::string sql = copy_sql(rows);
  if (PQsendQuery(c, sql.c_str()) != 1) co_return drop(lost(one_line(PQerrorMessage(c))));
  const outcome sent = co_await flushed("sending COPY");
  if (!sent.ok()) co_return sent;
  ++round_trips_;
  result_ptr r;
  const outcome got = co_await next_result(r);
  if (!got.ok()) co_return got;
  if (r == nullptr) co_return drop(lost("the server ended COPY without an answer"));
  outcome said = said_by(*r, PGRES_COPY_IN);
  if (said.ok()) co_return said;
  co_return co_await drain(std::move(said));
}

shoal::task<outcome> pg_session::send_rows(const bulk_rows& rows) {
  std::string chunk;
  chunk.reserve(2 * chunk_bytes);
  const std::size_t count = rows.rows();
  for (std::size_t next = 0; next < count;) {
    if (shoal::stop_requested()) {
      co_return drop(lost("cancelled while sending COPY data; connection closed"));
    }
    chunk.clear();
    next = append_copy_rows(rows, next, chunk_bytes, chunk);
    const outcome put = co_await put_chunk(chunk);
    if (!put.ok()) co_return put;
  }
  co_return outcome::success();
}

// One CopyData message, then sent (awaiting room in the socket as needed).
shoal::task<outcome> pg_session::put_chunk(const std::string& chunk) {
  PGconn* c = conn_->handle();
  const int size = static_cast<int>(chunk.size());
  int put = PQputCopyData(c, chunk.data(), size);
  if (put == 0) {  // libpq could not grow its buffer: send what it holds, then try again
    const outcome room = co_await flushed("sending COPY data");
    if (!room.ok()) co_return room;
    put = PQputCopyData(c, chunk.data(), size);
  }
  if (put != 1) co_return drop(lost("COPY data refused: " + one_line(PQerrorMessage(c))));
  co_return co_await flushed("sending COPY data");
}

// CopyDone; ok when the server says the rows are in.
shoal::task<outcome> pg_session::end_copy() {
  PGconn* c = conn_->handle();
  int ended = PQputCopyEnd(c, nullptr);
  if (ended == 0) {
    const outcome room = co_await flushed("ending COPY");
    if (!room.ok()) co_return room;
    ended = PQputCopyEnd(c, nullptr);
  }
  if (ended != 1) co_return drop(lost("cannot end COPY: " + one_line(PQerrorMessage(c))));
  const outcome sent = co_await flushed("ending COPY");
  if (!sent.ok()) co_return sent;
  ++round_trips_;
  result_ptr r;
  const outcome got = co_await next_result(r);
  if (!got.ok()) co_return got;
  if (r == nullptr) co_return drop(lost("the server ended COPY without a result"));
  outcome said = said_by(*r, PGRES_COMMAND_OK);  // a local: no temporary in a co_await (g++ 12)
  co_return co_await drain(std::move(said));
}

// The next result of the (non-pipelined) query, nullptr once it is over.
shoal::task<outcome> pg_session::next_result(result_ptr& r) {
  const io_status status = co_await conn_->wait_result();
  if (status == io_status::cancelled) {
    co_return drop(lost("cancelled while waiting for the server; connection closed"));
  }
  if (status != io_status::ok) co_return drop(lost(one_line(PQerrorMessage(conn_->handle()))));
  r.reset(PQgetResult(conn_->handle()));
  co_return outcome::success();
}

// Reads the query's remaining results up to the NULL that ends it, then gives `said`.
shoal::task<outcome> pg_session::drain(outcome said) {
  if (said.kind == outcome_kind::connection_lost) co_return drop(std::move(said));
  for (;;) {
    result_ptr r;
    const outcome got = co_await next_result(r);
    if (!got.ok()) co_return got;
    if (r == nullptr) co_return said;
  }
}

shoal::task<outcome> pg_session::flushed(const char* while_doing) {
  const io_status sent = co_await conn_->flush();
  if (sent == io_status::ok) co_return outcome::success();
  if (sent == io_status::cancelled) {
    co_return drop(lost(std::string("cancelled while ") + while_doing + "; connection closed"));
  }
  co_return drop(lost(one_line(PQerrorMessage(conn_->handle()))));
}

}  // namespace tpcc::driver::postgres
