// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/transact.hpp: one transaction of a terminal or deliverer, and its record.
//
// What: `transact(ctx, body)` runs txn::execute (a borrowed connection, retries) under the
// run's hard_stop only: a run that stops issuing lets the transaction finish; one that gives up
// on the drain abandons it (`abandoned` in the result: the hard stop came and it did not
// complete). `to_record` turns its report into the recorder's record; `show_failure` hands a
// failed transaction's error to the run's error log (stats/error_log.hpp), once per distinct
// error; completed and abandoned transactions are not errors.
//
// Awaiting transact: Result: the attempt report. Errors: what the body throws (bugs only).
// Cancellation: ctx.hard_stop. Resumes on: the executor it was awaited on.
// Thread-safety: one per coroutine; the context is shared.
#pragma once

#include <chrono>
#include <utility>

#include "shoal/stop.hpp"
#include "shoal/task.hpp"
#include "stats/recorder.hpp"
#include "terminal/context.hpp"
#include "txn/execute.hpp"
#include "txn/kind.hpp"

namespace tpcc::terminal {

// A transaction's report and whether the run's shutdown cut it short.
struct transacted {
  txn::attempt_report report;
  bool abandoned = false;
};

[[nodiscard]] inline bool completed(const driver::outcome& o) noexcept {
  return o.kind == driver::outcome_kind::ok || o.kind == driver::outcome_kind::rolled_back;
}

// Runs `body` on warehouse `w_id`'s endpoint.
template <class Body>
shoal::task<transacted> transact(run_context& ctx, std::int64_t w_id, Body body) {
  transacted t;
  t.report = co_await shoal::with_stop_token(
      ctx.hard_stop.get_token(), txn::execute(ctx.db_for(w_id), std::move(body), ctx.retry));
  t.abandoned = !completed(t.report.status) && ctx.hard_stop.stop_requested();
  co_return t;
}

inline void show_failure(run_context& ctx, txn::kind k, const transacted& t) {
  if (completed(t.report.status) || t.abandoned || ctx.errors == nullptr) return;
  ctx.errors->record(k, t.report.status);
}

[[nodiscard]] inline stats::txn_record to_record(txn::kind k, const transacted& t,
                                                 std::chrono::nanoseconds response,
                                                 stats::clock::time_point end) {
  const txn::attempt_report& r = t.report;
  stats::txn_record rec;
  rec.kind = k;
  rec.status = r.status.kind;
  rec.sqlstate = r.status.sqlstate;
  rec.abandoned = t.abandoned;
  rec.retries = r.retries;
  rec.queued = r.queued;
  rec.service = r.service;
  rec.response = response;
  rec.round_trips = r.round_trips;
  rec.end = end;
  return rec;
}

}  // namespace tpcc::terminal
