// SPDX-License-Identifier: Apache-2.0
// A session in libpq pipeline mode (pg_session.hpp).
#include "driver/postgres/pg_session.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "driver/postgres/result.hpp"
#include "shoal/stop.hpp"

namespace tpcc::driver::postgres {

namespace {

const char* begin_statement(isolation level) {
  switch (level) {
    case isolation::read_committed:
      return "BEGIN ISOLATION LEVEL READ COMMITTED";
    case isolation::repeatable_read:
      return "BEGIN ISOLATION LEVEL REPEATABLE READ";
    case isolation::serializable:
      return "BEGIN ISOLATION LEVEL SERIALIZABLE";
  }
  return "BEGIN";
}

bool send_simple(PGconn* c, const char* sql) {
  return PQsendQueryParams(c, sql, 0, nullptr, nullptr, nullptr, nullptr, 0) == 1;
}

}  // namespace

pg_session::pg_session(std::unique_ptr<connection> conn, isolation level)
    : conn_(std::move(conn)),
      cancel_(conn_->handle() != nullptr ? PQgetCancel(conn_->handle()) : nullptr),
      begin_sql_(begin_statement(level)) {}

bool pg_session::cancel() noexcept {
  if (!cancel_) return false;
  std::array<char, 256> error{};
  return PQcancel(cancel_.get(), error.data(), static_cast<int>(error.size())) == 1;
}

bool pg_session::healthy() const noexcept { return !broken_ && conn_->idle_and_alive(); }

outcome pg_session::refusal() const {
  if (shoal::stop_requested()) return outcome::make(outcome_kind::failed, "", "cancelled");
  if (broken_) return lost("the connection was closed after an earlier failure");
  return outcome::success();
}

pg_session::prepared_name& pg_session::name_of(const statement& stmt) {
  return statements_.try_emplace(&stmt, prepared_name{std::string(stmt.name), false}).first->second;
}

void pg_session::prologue(std::vector<step>& plan) {
  if (need_sync_) plan.push_back({step_kind::sync});
  if (rollback_first_) plan.push_back({step_kind::rollback});
  if (begin_pending_) plan.push_back({step_kind::begin});
}

bool pg_session::send(const step& s, std::span<const call> calls) {
  PGconn* c = conn_->handle();
  switch (s.kind) {
    case step_kind::begin:
      return send_simple(c, begin_sql_.c_str());
    case step_kind::commit:
      return send_simple(c, "COMMIT");
    case step_kind::rollback:
      return send_simple(c, "ROLLBACK");
    case step_kind::sync:
      return PQpipelineSync(c) == 1;
    case step_kind::prepare: {
      const statement& stmt = *calls[s.call].stmt;
      const std::string sql(stmt.sql);
      return PQsendPrepare(c, name_of(stmt).name.c_str(), sql.c_str(), 0, nullptr) == 1;
    }
    case step_kind::query: {
      const call& k = calls[s.call];
      text_params params;
      to_text(k.params, params);
      return PQsendQueryPrepared(c, name_of(*k.stmt).name.c_str(),
                                 static_cast<int>(params.pointers.size()), params.pointers.data(),
                                 nullptr, nullptr, 0) == 1;
    }
  }
  return false;
}

outcome pg_session::drop(outcome why) {
  conn_->close();
  broken_ = true;
  begin_pending_ = in_transaction_ = rollback_first_ = need_sync_ = unsynced_ = aborted_ = false;
  return why;
}

void pg_session::lose(trip& out, std::span<const call> calls, outcome why) {
  out.failure = drop(std::move(why));
  out.results.assign(calls.size(), statement_result{out.failure, {}, 0});
  out.ended = out.failure;
  out.failed = true;
}

// Records what one step's result means.
void pg_session::settle(const step& s, const PGresult* r, std::span<const call> calls, trip& out) {
  const ExecStatusType status = PQresultStatus(r);
  outcome said;
  if (status == PGRES_PIPELINE_ABORTED) {
    said = out.failed ? out.failure
                      : outcome::make(outcome_kind::failed, "", "skipped after an earlier error");
  } else if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
    said = error_outcome(*r);
    if (PQstatus(conn_->handle()) == CONNECTION_BAD && said.kind != outcome_kind::connection_lost) {
      said = lost(std::move(said.message));  // libpq's own error: the socket closed
    }
    const bool named = s.kind == step_kind::query || s.kind == step_kind::prepare;
    said.statement = named                         ? calls[s.call].stmt->name
                     : s.kind == step_kind::commit ? std::string_view("COMMIT")
                                                   : std::string_view("BEGIN");
    if (said.kind == outcome_kind::connection_lost) return lose(out, calls, std::move(said));
    if (!out.failed) {
      out.failed = true;
      out.failure = said;
    }
  }
  switch (s.kind) {
    case step_kind::begin:
      in_transaction_ = true;
      break;
    case step_kind::prepare:
      if (said.ok()) name_of(*calls[s.call].stmt).prepared = true;
      break;
    case step_kind::query:
      out.results[s.call] = said.ok() ? to_statement_result(*r) : statement_result{said, {}, 0};
      break;
    case step_kind::commit:
      // Skipped (an earlier error): still open, aborted. Ran: over, whatever it said.
      if (status != PGRES_PIPELINE_ABORTED) in_transaction_ = false;
      out.ended = std::move(said);
      break;
    case step_kind::rollback:
      in_transaction_ = aborted_ = rollback_first_ = false;
      out.ended = std::move(said);
      break;
    case step_kind::sync:
      break;
  }
}

// Reads one step's results: a sync point's one, or a statement's result and the null after it.
shoal::task<bool> pg_session::read(const step& s, std::span<const call> calls, trip& out) {
  PGconn* c = conn_->handle();
  for (int part = 0; part < 2; ++part) {
    const io_status status = co_await conn_->wait_result();
    if (status != io_status::ok) {
      lose(out, calls,
           lost(status == io_status::cancelled
                    ? "cancelled while waiting for the server; connection closed"
                    : one_line(PQerrorMessage(c))));
      co_return false;
    }
    result_ptr r(PQgetResult(c));
    if (part == 1) {
      if (r == nullptr) co_return true;
      lose(out, calls, lost("unexpected extra result from the server"));
      co_return false;
    }
    if (r == nullptr) {
      lose(out, calls, lost("the server ended a result early: " + one_line(PQerrorMessage(c))));
      co_return false;
    }
    if (s.kind == step_kind::sync) {
      if (PQresultStatus(r.get()) == PGRES_PIPELINE_SYNC) {
        need_sync_ = false;
        co_return true;
      }
      outcome why = error_outcome(*r);
      if (why.kind != outcome_kind::connection_lost) why = lost("out of step with the server");
      lose(out, calls, std::move(why));
      co_return false;
    }
    settle(s, r.get(), calls, out);
    if (broken_) co_return false;
  }
  co_return true;
}

shoal::task<pg_session::trip> pg_session::run(std::vector<step> plan, std::span<const call> calls,
                                              bool sync) {
  trip out;
  out.results.resize(calls.size());
  PGconn* c = conn_->handle();
  for (const step& s : plan) {
    if (!send(s, calls)) {
      lose(out, calls, lost(one_line(PQerrorMessage(c))));
      co_return out;
    }
  }
  if (sync) {
    plan.push_back({step_kind::sync});
    if (PQpipelineSync(c) != 1) lose(out, calls, lost(one_line(PQerrorMessage(c))));
  } else if (PQsendFlushRequest(c) != 1) {
    lose(out, calls, lost(one_line(PQerrorMessage(c))));
  }
  if (broken_) co_return out;
  unsynced_ = !sync;
  const io_status sent = co_await conn_->flush();
  if (sent != io_status::ok) {
    lose(out, calls,
         lost(sent == io_status::cancelled ? "cancelled while sending; connection closed"
                                           : one_line(PQerrorMessage(c))));
    co_return out;
  }
  ++round_trips_;
  for (const step& s : plan) {
    const bool more = co_await read(s, calls, out);  // not in the condition: g++ 12 (SIGILL)
    if (!more) co_return out;
  }
  if (out.failed) {
    need_sync_ = !sync;  // the server skips everything until a sync point
    if (in_transaction_) {
      aborted_ = true;
      failure_ = out.failure;
    }
  }
  co_return out;
}

shoal::task<outcome> pg_session::begin() {
  if (outcome no = refusal(); !no.ok()) co_return no;
  if (in_transaction_) {  // left open by its last user: roll it back ahead of the new BEGIN
    rollback_first_ = true;
    in_transaction_ = aborted_ = false;
  }
  begin_pending_ = true;
  co_return outcome::success();
}

shoal::task<statement_result> pg_session::execute(const statement& stmt,
                                                  std::vector<value> params) {
  return execute_as_batch(stmt, std::move(params));
}

shoal::task<std::vector<statement_result>> pg_session::execute_batch(std::span<const call> calls,
                                                                     then after) {
  const std::size_t answers = calls.size() + (after == then::commit ? 1 : 0);
  if (outcome no = refusal(); !no.ok()) {
    co_return std::vector<statement_result>(answers, statement_result{no, {}, 0});
  }
  if (aborted_) {
    co_return std::vector<statement_result>(answers, statement_result{failure_, {}, 0});
  }
  if (!in_transaction_) begin_pending_ = true;  // always an explicit BEGIN
  std::vector<step> plan;
  plan.reserve(2 * calls.size() + 4);
  prologue(plan);
  std::vector<const statement*> preparing;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const statement* stmt = calls[i].stmt;
    if (!name_of(*stmt).prepared &&
        std::find(preparing.begin(), preparing.end(), stmt) == preparing.end()) {
      preparing.push_back(stmt);
      plan.push_back({step_kind::prepare, i});
    }
    plan.push_back({step_kind::query, i});
  }
  if (after == then::commit) plan.push_back({step_kind::commit});
  begin_pending_ = false;
  trip t = co_await run(std::move(plan), calls, after == then::commit);
  if (after == then::commit) t.results.push_back(statement_result{std::move(t.ended), {}, 0});
  co_return std::move(t.results);
}

shoal::task<outcome> pg_session::commit() {
  if (outcome no = refusal(); !no.ok()) co_return no;
  if (aborted_) {
    outcome why = failure_;
    co_await rollback();
    co_return why;
  }
  if (!in_transaction_) {  // nothing was sent: nothing to commit
    begin_pending_ = false;
    co_return outcome::success();
  }
  std::vector<step> plan;
  prologue(plan);
  plan.push_back({step_kind::commit});
  trip t = co_await run(std::move(plan), {}, true);
  co_return std::move(t.ended);
}

shoal::task<outcome> pg_session::rollback() {
  if (outcome no = refusal(); !no.ok()) co_return no;
  begin_pending_ = false;
  if (!in_transaction_) {
    aborted_ = false;
    co_return outcome::success();
  }
  std::vector<step> plan;
  prologue(plan);
  plan.push_back({step_kind::rollback});
  trip t = co_await run(std::move(plan), {}, true);
  co_return std::move(t.ended);
}

}  // namespace tpcc::driver::postgres
