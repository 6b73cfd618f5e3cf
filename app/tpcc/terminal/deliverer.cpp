// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/deliverer.cpp: the deferred Delivery queue's consumer (see deliverer.hpp).
#include "terminal/deliverer.hpp"

#include <exception>
#include <optional>
#include <string>

#include "shoal/stop.hpp"
#include "stats/outcomes.hpp"
#include "terminal/transact.hpp"
#include "txn/delivery.hpp"
#include "txn/procedures.hpp"

namespace tpcc::terminal {
namespace {

using clock = stats::clock;

auto delivery_body(const txn::delivery_input& in, txn::delivery_output& out, bool procedures) {
  return [&in, &out, procedures](driver::session& s) {
    return procedures ? txn::call_delivery(s, in, out) : txn::run_delivery(s, in, out);
  };
}

shoal::task<std::optional<delivery_request>> next_request(run_context& ctx,
                                                          shoal::channel<delivery_request>& queue) {
  auto request = co_await shoal::with_stop_token(ctx.hard_stop.get_token(), queue.receive());
  co_return request;
}

using ending = delivery_log::ending;

// One line of the result file (clause 2.7.2.3), when --delivery-log asked for it.
void log(run_context& ctx, const delivery_request& r, clock::time_point end, ending how,
         const txn::delivery_output& out) {
  if (ctx.delivery_results == nullptr) return;
  ctx.delivery_results->write(r.queued_at, end, r.input.w_id, r.input.o_carrier_id, how, out);
}

shoal::task<void> loop(run_context& ctx, std::size_t index) {
  shoal::channel<delivery_request>& queue = *ctx.deliveries[index];
  for (;;) {
    const std::optional<delivery_request> request = co_await next_request(ctx, queue);
    if (!request.has_value()) break;
    txn::delivery_output out;
    const transacted t = co_await transact(ctx, request->input.w_id,
                                           delivery_body(request->input, out, ctx.procedures));
    show_failure(ctx, txn::kind::delivery, t);
    const clock::time_point end = clock::now();
    const txn::attempt_report& report = t.report;
    const stats::txn_outcome how = stats::classify(report.status.kind, report.retries, t.abandoned);
    ctx.recorder.record_delivery(end - request->queued_at, out.skipped, how, end,
                                 report.round_trips);
    if (stats::recorder* own = ctx.endpoint_recorder(request->input.w_id)) {
      own->record_delivery(end - request->queued_at, out.skipped, how, end, report.round_trips);
    }
    log(ctx, *request, end, report.status.ok() ? ending::completed : ending::failed, out);
  }
}

}  // namespace

void abandon_queued(run_context& ctx) {
  const clock::time_point now = clock::now();
  for (const auto& queue : ctx.deliveries) {
    while (const std::optional<delivery_request> left = queue->try_receive()) {
      constexpr stats::txn_outcome abandoned = stats::txn_outcome::abandoned;
      ctx.recorder.record_delivery(now - left->queued_at, 0, abandoned, now);
      if (stats::recorder* own = ctx.endpoint_recorder(left->input.w_id)) {
        own->record_delivery(now - left->queued_at, 0, abandoned, now);
      }
      log(ctx, *left, now, ending::abandoned, {});
    }
  }
}

shoal::task<void> run_deliverer(run_context& ctx, std::size_t index) {
  try {
    co_await loop(ctx, index);
  } catch (const std::exception& e) {
    ctx.fail(std::string("deliverer: ") + e.what());
  }
}

}  // namespace tpcc::terminal
