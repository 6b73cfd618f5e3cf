// app/tpcc/terminal/transact.hpp: one transaction of a terminal or deliverer, and its record.
//
// What: `transact(ctx, body)` runs txn::execute (a borrowed connection, retries) under the
// run's hard_stop only: a run that stops issuing lets the transaction finish; one that gives up
// on the drain abandons it. `to_record` turns its report into the recorder's record.
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

template <class Body>
shoal::task<txn::attempt_report> transact(run_context& ctx, Body body) {
  auto report = co_await shoal::with_stop_token(ctx.hard_stop.get_token(),
                                                txn::execute(ctx.db, std::move(body), ctx.retry));
  co_return report;
}

[[nodiscard]] inline stats::txn_record to_record(txn::kind k, const txn::attempt_report& r,
                                                 std::chrono::nanoseconds response,
                                                 stats::clock::time_point end) {
  stats::txn_record rec;
  rec.kind = k;
  rec.status = r.status.kind;
  rec.retries = r.retries;
  rec.queued = r.queued;
  rec.service = r.service;
  rec.response = response;
  rec.round_trips = r.round_trips;
  rec.end = end;
  return rec;
}

}  // namespace tpcc::terminal
