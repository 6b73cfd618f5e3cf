// SPDX-License-Identifier: Apache-2.0
// A driver session on one MySQL / MariaDB connection (my_session.hpp).
#include "driver/mysql/my_session.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstring>
#include <utility>

#include "driver/mysql/kill_query.hpp"
#include "shoal/stop.hpp"

namespace tpcc::driver::mysql {

namespace {

// The text of the calls that send none: a named string, never a temporary in a co_await.
const std::string no_text;

constexpr std::size_t copy_statement_bytes = std::size_t{1} << 20;

bool integer_type(enum_field_types t) noexcept {
  return t == MYSQL_TYPE_TINY || t == MYSQL_TYPE_SHORT || t == MYSQL_TYPE_LONG ||
         t == MYSQL_TYPE_LONGLONG || t == MYSQL_TYPE_INT24 || t == MYSQL_TYPE_YEAR;
}

bool number_type(enum_field_types t) noexcept {
  return t == MYSQL_TYPE_DECIMAL || t == MYSQL_TYPE_NEWDECIMAL || t == MYSQL_TYPE_FLOAT ||
         t == MYSQL_TYPE_DOUBLE;
}

// A column's text as the driver's value, by its declared type. A DECIMAL without decimals
// (what MySQL makes of sum() over integers) is an integer.
value to_value(const MYSQL_FIELD& field, std::string_view text) {
  const enum_field_types type = field.type;
  if (integer_type(type) || (type == MYSQL_TYPE_NEWDECIMAL && field.decimals == 0)) {
    std::int64_t n = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (error == std::errc{} && end == text.data() + text.size()) return n;
  }
  if (number_type(type)) {
    double d = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), d);
    if (error == std::errc{} && end == text.data() + text.size()) return d;
  }
  return std::string(text);
}

// Binds the call's parameters to the step's placeholders.
void bind_params(const step& s, const std::vector<value>& params, std::vector<MYSQL_BIND>& binds,
                 std::vector<unsigned long>& lengths) {
  binds.assign(s.params.size(), MYSQL_BIND{});
  lengths.assign(s.params.size(), 0);
  for (std::size_t i = 0; i < s.params.size(); ++i) {
    MYSQL_BIND& b = binds[i];
    const std::size_t at = s.params[i];
    if (at >= params.size()) {
      b.buffer_type = MYSQL_TYPE_NULL;
      continue;
    }
    const value& v = params[at];
    if (const auto* n = std::get_if<std::int64_t>(&v)) {
      b.buffer_type = MYSQL_TYPE_LONGLONG;
      b.buffer = const_cast<std::int64_t*>(n);  // NOLINT: the library reads it only
    } else if (const auto* d = std::get_if<double>(&v)) {
      b.buffer_type = MYSQL_TYPE_DOUBLE;
      b.buffer = const_cast<double*>(d);  // NOLINT: the library reads it only
    } else if (const auto* text = std::get_if<std::string>(&v)) {
      b.buffer_type = MYSQL_TYPE_STRING;
      b.buffer = const_cast<char*>(text->data());  // NOLINT: the library reads it only
      b.buffer_length = static_cast<unsigned long>(text->size());
      lengths[i] = b.buffer_length;
      b.length = &lengths[i];
    } else {
      b.buffer_type = MYSQL_TYPE_NULL;
    }
  }
}

}  // namespace

result_buffers::~result_buffers() {
  if (meta != nullptr) mysql_free_result(meta);
}

namespace {

// The step's result buffers, made the first time; false when the metadata is unavailable.
bool prepare_buffers(MYSQL_STMT* h, std::unique_ptr<result_buffers>& out) {
  if (out) return true;
  auto r = std::make_unique<result_buffers>();
  r->meta = mysql_stmt_result_metadata(h);
  if (r->meta == nullptr) return false;
  const unsigned columns = mysql_num_fields(r->meta);
  r->fields = mysql_fetch_fields(r->meta);
  r->binds.assign(columns, MYSQL_BIND{});
  r->buffers.resize(columns);
  r->lengths.assign(columns, 0);
  r->nulls.assign(columns, 0);
  r->errors.assign(columns, 0);
  for (unsigned i = 0; i < columns; ++i) {
    r->buffers[i].resize(64);
    MYSQL_BIND& b = r->binds[i];
    b.buffer_type = MYSQL_TYPE_STRING;
    b.buffer = r->buffers[i].data();
    b.buffer_length = static_cast<unsigned long>(r->buffers[i].size());
    b.length = &r->lengths[i];
    b.is_null = &r->nulls[i];
    b.error = &r->errors[i];
  }
  out = std::move(r);
  return true;
}

// Every row of a stored result, each column fetched as text and converted by type.
bool fetch_rows(MYSQL_STMT* h, result_buffers& r, std::vector<row>& rows) {
  const std::size_t columns = r.binds.size();
  if (mysql_stmt_bind_result(h, r.binds.data()) != 0) return false;
  rows.reserve(static_cast<std::size_t>(mysql_stmt_num_rows(h)));
  for (;;) {
    const int fetched = mysql_stmt_fetch(h);
    if (fetched == MYSQL_NO_DATA) return true;
    if (fetched == 1) return false;
    std::vector<value> values(columns);
    for (std::size_t i = 0; i < columns; ++i) {
      if (r.nulls[i] != 0) continue;
      if (r.lengths[i] <= r.buffers[i].size()) {
        values[i] = to_value(r.fields[i], std::string_view(r.buffers[i].data(), r.lengths[i]));
        continue;
      }
      std::string whole(r.lengths[i], '\0');  // truncated: fetch the column whole
      MYSQL_BIND again{};
      unsigned long length = 0;
      again.buffer_type = MYSQL_TYPE_STRING;
      again.buffer = whole.data();
      again.buffer_length = static_cast<unsigned long>(whole.size());
      again.length = &length;
      if (mysql_stmt_fetch_column(h, &again, static_cast<unsigned>(i), 0) != 0) return false;
      values[i] = to_value(r.fields[i], whole);
    }
    rows.emplace_back(std::move(values));
  }
}

void append_value(MYSQL* m, const value& v, std::string& out) {
  if (const auto* n = std::get_if<std::int64_t>(&v)) {
    out += std::to_string(*n);
  } else if (const auto* d = std::get_if<double>(&v)) {
    std::array<char, 32> text{};
    const auto [end, error] = std::to_chars(text.data(), text.data() + text.size(), *d);
    out.append(text.data(), error == std::errc{} ? end : text.data());
  } else if (const auto* s = std::get_if<std::string>(&v)) {
    out.push_back('\'');
    const std::size_t at = out.size();
    out.resize(at + 2 * s->size() + 1);
    const unsigned long written = mysql_real_escape_string(m, out.data() + at, s->data(),
                                                           static_cast<unsigned long>(s->size()));
    out.resize(at + written);
    out.push_back('\'');
  } else {
    out += "NULL";
  }
}

// `step` with its placeholders replaced by the call's parameters as SQL literals.
void append_step(MYSQL* m, const step& st, const std::vector<value>& params, std::string& out) {
  std::size_t next = 0;
  char quote = 0;
  for (const char c : st.sql) {
    if (quote != 0) {
      out.push_back(c);
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"' || c == '`') {
      quote = c;
      out.push_back(c);
    } else if (c == '?' && next < st.params.size()) {
      const std::size_t at = st.params[next++];
      if (at < params.size()) {
        append_value(m, params[at], out);
      } else {
        out += "NULL";
      }
    } else {
      out.push_back(c);
    }
  }
}

// The rows of a stored text result, converted by the columns' types.
void text_rows(MYSQL_RES* res, std::vector<row>& rows) {
  const unsigned columns = mysql_num_fields(res);
  const MYSQL_FIELD* fields = mysql_fetch_fields(res);
  rows.reserve(static_cast<std::size_t>(mysql_num_rows(res)));
  while (MYSQL_ROW r = mysql_fetch_row(res)) {
    const unsigned long* lengths = mysql_fetch_lengths(res);
    std::vector<value> values(columns);
    for (unsigned i = 0; i < columns; ++i) {
      if (r[i] != nullptr) values[i] = to_value(fields[i], std::string_view(r[i], lengths[i]));
    }
    rows.emplace_back(std::move(values));
  }
}

}  // namespace

my_session::my_session(std::unique_ptr<connection> conn, bool text, uri target)
    : conn_(std::move(conn)),
      kill_target_(std::move(target)),
      server_thread_(conn_->open() ? mysql_thread_id(conn_->handle()) : 0),
      text_(text) {}

bool my_session::cancel() noexcept {
  if (server_thread_ == 0) return false;
  return kill_query(kill_target_, server_thread_, std::chrono::seconds(5));
}

my_session::~my_session() {
  conn_->close();  // first: closing a statement of a closed connection sends nothing
  for (auto& [stmt, p] : statements_) {
    for (prepared_step& s : p.steps) {
      if (s.handle != nullptr) mysql_stmt_close(s.handle);
    }
  }
}

bool my_session::healthy() const noexcept { return !broken_ && conn_->idle_and_alive(); }

outcome my_session::refusal() const {
  if (shoal::stop_requested()) return outcome::make(outcome_kind::failed, "", "cancelled");
  if (broken_) return lost("the connection was closed after an earlier failure");
  return outcome::success();
}

outcome my_session::drop(outcome why) {
  conn_->close();
  broken_ = true;
  in_transaction_ = aborted_ = false;
  return why;
}

outcome my_session::stmt_error(MYSQL_STMT* h, std::string_view name) {
  outcome why = error_outcome(mysql_stmt_errno(h), mysql_stmt_sqlstate(h), mysql_stmt_error(h));
  why.statement = name;
  if (why.kind == outcome_kind::connection_lost) return drop(std::move(why));
  return why;
}

outcome my_session::conn_error(std::string_view name) {
  MYSQL* m = conn_->handle();
  outcome why = error_outcome(mysql_errno(m), mysql_sqlstate(m), mysql_error(m));
  why.statement = name;
  if (why.kind == outcome_kind::connection_lost) return drop(std::move(why));
  return why;
}

// Runs one non-blocking call to completion; false when the wait was cancelled (the
// connection is then dropped by the caller).
shoal::task<bool> my_session::drive(op o, MYSQL_STMT* h, const std::string& text) {
  MYSQL* m = conn_->handle();
  const auto length = static_cast<unsigned long>(text.size());
  int status = 0;
  switch (o) {
    case op::prepare:
      status = mysql_stmt_prepare_start(&ret_int_, h, text.data(), length);
      break;
    case op::execute:
      status = mysql_stmt_execute_start(&ret_int_, h);
      break;
    case op::store:
      status = mysql_stmt_store_result_start(&ret_int_, h);
      break;
    case op::commit:
      status = mysql_commit_start(&ret_bool_, m);
      break;
    case op::rollback:
      status = mysql_rollback_start(&ret_bool_, m);
      break;
    case op::query:
      status = mysql_real_query_start(&ret_int_, m, text.data(), length);
      break;
    case op::store_text:
      status = mysql_store_result_start(&ret_res_, m);
      break;
    case op::next_result:
      status = mysql_next_result_start(&ret_int_, m);
      break;
    case op::stmt_next_result:
      status = mysql_stmt_next_result_start(&ret_int_, h);
      break;
  }
  while (status != 0) {
    const int ready = co_await conn_->wait(status);
    if (ready == 0) co_return false;
    switch (o) {
      case op::prepare:
        status = mysql_stmt_prepare_cont(&ret_int_, h, ready);
        break;
      case op::execute:
        status = mysql_stmt_execute_cont(&ret_int_, h, ready);
        break;
      case op::store:
        status = mysql_stmt_store_result_cont(&ret_int_, h, ready);
        break;
      case op::commit:
        status = mysql_commit_cont(&ret_bool_, m, ready);
        break;
      case op::rollback:
        status = mysql_rollback_cont(&ret_bool_, m, ready);
        break;
      case op::query:
        status = mysql_real_query_cont(&ret_int_, m, ready);
        break;
      case op::store_text:
        status = mysql_store_result_cont(&ret_res_, m, ready);
        break;
      case op::next_result:
        status = mysql_next_result_cont(&ret_int_, m, ready);
        break;
      case op::stmt_next_result:
        status = mysql_stmt_next_result_cont(&ret_int_, h, ready);
        break;
    }
  }
  co_return true;
}

my_session::prepared& my_session::prepared_of(const statement& stmt) {
  auto found = statements_.find(&stmt);
  if (found != statements_.end()) return found->second;
  prepared p;
  for (step& s : steps_of(stmt)) {
    p.steps.emplace_back();
    p.steps.back().text = std::move(s);
  }
  return statements_.emplace(&stmt, std::move(p)).first->second;
}

shoal::task<outcome> my_session::run_step(prepared_step& s, const call& c, statement_result& out,
                                          bool& rows_taken) {
  const std::string_view name = c.stmt->name;
  if (s.handle == nullptr) {
    s.handle = mysql_stmt_init(conn_->handle());
    if (s.handle == nullptr) co_return drop(lost("out of memory for a statement"));
  }
  if (!s.prepared) {
    const bool done = co_await drive(op::prepare, s.handle, s.text.sql);
    if (!done) co_return drop(lost("cancelled while waiting for the server; connection closed"));
    ++round_trips_;
    if (ret_int_ != 0) co_return stmt_error(s.handle, name);
    s.prepared = true;
  }
  std::vector<MYSQL_BIND> binds;
  std::vector<unsigned long> lengths;
  bind_params(s.text, c.params, binds, lengths);
  if (!binds.empty() && mysql_stmt_bind_param(s.handle, binds.data()) != 0) {
    co_return stmt_error(s.handle, name);
  }
  in_transaction_ = true;
  const bool executed = co_await drive(op::execute, s.handle, no_text);
  if (!executed) co_return drop(lost("cancelled while waiting for the server; connection closed"));
  ++round_trips_;
  if (ret_int_ != 0) co_return stmt_error(s.handle, name);
  if (mysql_stmt_field_count(s.handle) == 0) {
    out.affected += static_cast<std::int64_t>(mysql_stmt_affected_rows(s.handle));
    co_return outcome::success();
  }
  const bool stored = co_await drive(op::store, s.handle, no_text);
  if (!stored) co_return drop(lost("cancelled while waiting for the server; connection closed"));
  if (ret_int_ != 0) co_return stmt_error(s.handle, name);
  std::vector<row> rows;
  const bool fetched = prepare_buffers(s.handle, s.result) && fetch_rows(s.handle, *s.result, rows);
  mysql_stmt_free_result(s.handle);
  if (!fetched) co_return stmt_error(s.handle, name);
  if (!rows_taken) {
    out.rows = std::move(rows);
    rows_taken = true;
  }
  if (!s.text.is_call) co_return outcome::success();
  // The buffers' field metadata is the statement's own, which reading the CALL's next result
  // replaces: made again at the next execution.
  s.result.reset();
  co_return co_await finish_call(s.handle, name);
}

// Reads what follows a CALL's result set (its status; any further result set is discarded).
shoal::task<outcome> my_session::finish_call(MYSQL_STMT* h, std::string_view name) {
  for (;;) {
    const bool advanced = co_await drive(op::stmt_next_result, h, no_text);
    if (!advanced) {
      co_return drop(lost("cancelled while waiting for the server; connection closed"));
    }
    if (ret_int_ < 0) co_return outcome::success();
    if (ret_int_ > 0) co_return stmt_error(h, name);
    if (mysql_stmt_field_count(h) == 0) continue;
    const bool stored = co_await drive(op::store, h, no_text);
    if (!stored) co_return drop(lost("cancelled while waiting for the server; connection closed"));
    mysql_stmt_free_result(h);
  }
}

shoal::task<statement_result> my_session::run_call(const call& c) {
  statement_result out;
  prepared& p = prepared_of(*c.stmt);
  bool rows_taken = false;
  for (prepared_step& s : p.steps) {
    outcome done = co_await run_step(s, c, out, rows_taken);
    if (!done.ok()) {
      out.status = std::move(done);
      out.rows.clear();
      co_return out;
    }
  }
  co_return out;
}

shoal::task<outcome> my_session::begin() {
  if (outcome no = refusal(); !no.ok()) co_return no;
  if (in_transaction_ || aborted_) {  // left open by its last user: roll it back first
    outcome ended = co_await rollback();
    if (!ended.ok()) co_return ended;
  }
  co_return outcome::success();
}

shoal::task<statement_result> my_session::execute(const statement& stmt,
                                                  std::vector<value> params) {
  return execute_as_batch(stmt, std::move(params));
}

shoal::task<std::vector<statement_result>> my_session::execute_batch(std::span<const call> calls,
                                                                     then after) {
  const std::size_t answers = calls.size() + (after == then::commit ? 1 : 0);
  std::vector<statement_result> results;
  results.reserve(answers);
  if (outcome no = refusal(); !no.ok()) {
    results.assign(answers, statement_result{no, {}, 0});
    co_return results;
  }
  if (aborted_) {
    results.assign(answers, statement_result{failure_, {}, 0});
    co_return results;
  }
  if (text_ && !calls.empty()) co_return co_await text_batch(calls, after);
  for (const call& c : calls) {
    statement_result r = co_await run_call(c);
    const bool failed = !r.ok();
    results.push_back(std::move(r));
    if (failed) break;
  }
  if (!results.empty() && !results.back().ok()) {
    outcome failure = results.back().status;
    if (failure.kind != outcome_kind::connection_lost) {
      aborted_ = true;
      failure_ = failure;
    }
    while (results.size() < answers) results.push_back(statement_result{failure, {}, 0});
    co_return results;
  }
  if (after == then::commit) {
    statement_result committed;
    committed.status = co_await commit();
    results.push_back(std::move(committed));
  }
  co_return results;
}

shoal::task<std::vector<statement_result>> my_session::text_batch(std::span<const call> calls,
                                                                  then after) {
  MYSQL* m = conn_->handle();
  std::string sql;
  std::vector<std::size_t> owner;  // the call of each statement; calls.size() for the COMMIT
  std::vector<bool> is_call;       // whether each statement is a CALL (dialect.hpp)
  for (std::size_t i = 0; i < calls.size(); ++i) {
    const prepared& p = prepared_of(*calls[i].stmt);
    for (const prepared_step& st : p.steps) {
      if (!sql.empty()) sql.push_back(';');
      append_step(m, st.text, calls[i].params, sql);
      owner.push_back(i);
      is_call.push_back(st.text.is_call);
    }
  }
  if (after == then::commit) {
    sql += ";COMMIT";
    owner.push_back(calls.size());
    is_call.push_back(false);
  }
  std::vector<statement_result> results(calls.size() + (after == then::commit ? 1 : 0));
  std::vector<bool> rows_taken(results.size(), false);
  in_transaction_ = true;
  const bool sent = co_await drive(op::query, nullptr, sql);
  if (!sent) {
    outcome why = drop(lost("cancelled while waiting for the server; connection closed"));
    for (statement_result& r : results) r.status = why;
    co_return results;
  }
  ++round_trips_;
  std::size_t k = 0;  // the statement whose result is next
  bool failed = ret_int_ != 0;
  bool call_status_due = false;  // the CALL k returned rows: its own status comes next
  while (!failed) {
    const bool stored = co_await drive(op::store_text, nullptr, no_text);
    if (!stored) break;
    statement_result& r = results[owner[k]];
    const bool rows = ret_res_ != nullptr;
    if (rows) {
      if (!rows_taken[owner[k]]) {
        text_rows(ret_res_, r.rows);
        rows_taken[owner[k]] = true;
      }
      mysql_free_result(std::exchange(ret_res_, nullptr));
    } else if (mysql_field_count(m) == 0) {
      if (!call_status_due) r.affected += static_cast<std::int64_t>(mysql_affected_rows(m));
    } else {
      failed = true;
      break;
    }
    call_status_due = rows && is_call[k];
    if (!call_status_due) ++k;
    if (k == owner.size() || mysql_more_results(m) == 0) break;
    const bool advanced = co_await drive(op::next_result, nullptr, no_text);
    if (!advanced) break;
    if (ret_int_ > 0) failed = true;
  }
  if (k < owner.size() && !failed) {  // cancelled while reading
    outcome why = drop(lost("cancelled while waiting for the server; connection closed"));
    for (statement_result& r : results) r.status = why;
    co_return results;
  }
  if (failed) {
    const std::size_t at = std::min(k, owner.size() - 1);
    outcome why = conn_error(owner[at] < calls.size() ? calls[owner[at]].stmt->name : "COMMIT");
    for (std::size_t i = owner[at]; i < results.size(); ++i) {
      results[i].status = why;
      results[i].rows.clear();
    }
    if (why.kind != outcome_kind::connection_lost) {
      aborted_ = true;
      failure_ = why;
    }
    co_return results;
  }
  if (after == then::commit) in_transaction_ = false;
  co_return results;
}

shoal::task<outcome> my_session::end(op o) {
  const bool done = co_await drive(o, nullptr, no_text);
  if (!done) co_return drop(lost("cancelled while waiting for the server; connection closed"));
  ++round_trips_;
  in_transaction_ = aborted_ = false;
  if (ret_bool_ != 0) co_return conn_error(o == op::commit ? "COMMIT" : "ROLLBACK");
  co_return outcome::success();
}

shoal::task<outcome> my_session::commit() {
  if (outcome no = refusal(); !no.ok()) co_return no;
  if (aborted_) {
    outcome why = failure_;
    co_await rollback();
    co_return why;
  }
  if (!in_transaction_) co_return outcome::success();  // nothing was sent: nothing to commit
  co_return co_await end(op::commit);
}

shoal::task<outcome> my_session::rollback() {
  if (outcome no = refusal(); !no.ok()) co_return no;
  if (!in_transaction_) {
    aborted_ = false;
    co_return outcome::success();
  }
  co_return co_await end(op::rollback);
}

shoal::task<outcome> my_session::copy(const bulk_rows& rows) {
  if (outcome no = refusal(); !no.ok()) co_return no;
  if (std::string problem = bulk_problem(rows); !problem.empty()) {
    co_return outcome::make(outcome_kind::failed, "", std::move(problem));
  }
  if (aborted_) co_return failure_;
  const std::string head = "INSERT INTO " + bulk_target(rows) + " VALUES ";
  const std::size_t width = rows.columns.size();
  const std::size_t count = rows.rows();
  std::size_t next = 0;
  std::string sql;
  while (next < count) {
    sql = head;
    while (next < count && sql.size() < copy_statement_bytes) {
      if (sql.size() > head.size()) sql.push_back(',');
      sql.push_back('(');
      for (std::size_t c = 0; c < width; ++c) {
        if (c > 0) sql.push_back(',');
        append_value(conn_->handle(), rows.values[next * width + c], sql);
      }
      sql.push_back(')');
      ++next;
    }
    in_transaction_ = true;
    const bool done = co_await drive(op::query, nullptr, sql);
    if (!done) co_return drop(lost("cancelled while waiting for the server; connection closed"));
    ++round_trips_;
    if (ret_int_ != 0) {
      outcome why = conn_error("COPY");
      if (why.kind != outcome_kind::connection_lost) {
        aborted_ = true;
        failure_ = why;
      }
      co_return why;
    }
  }
  co_return outcome::success();
}

}  // namespace tpcc::driver::mysql
