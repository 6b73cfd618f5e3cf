// app/tpcc/terminal/deliverer.cpp: the deferred Delivery queue's consumer (see deliverer.hpp).
#include "terminal/deliverer.hpp"

#include <exception>
#include <optional>
#include <string>

#include "shoal/stop.hpp"
#include "terminal/transact.hpp"
#include "txn/delivery.hpp"

namespace tpcc::terminal {
namespace {

using clock = stats::clock;

auto delivery_body(const txn::delivery_input& in, txn::delivery_output& out) {
  return [&in, &out](driver::session& s) { return txn::run_delivery(s, in, out); };
}

shoal::task<std::optional<delivery_request>> next_request(run_context& ctx) {
  auto request =
      co_await shoal::with_stop_token(ctx.hard_stop.get_token(), ctx.deliveries.receive());
  co_return request;
}

shoal::task<void> loop(run_context& ctx) {
  for (;;) {
    const std::optional<delivery_request> request = co_await next_request(ctx);
    if (!request.has_value()) break;
    txn::delivery_output out;
    const transacted t = co_await transact(ctx, delivery_body(request->input, out));
    show_failure(ctx, txn::kind::delivery, t);
    const clock::time_point end = clock::now();
    ctx.recorder.record_delivery(end - request->queued_at, out.skipped, t.report.status.ok(), end);
  }
}

}  // namespace

shoal::task<void> run_deliverer(run_context& ctx) {
  try {
    co_await loop(ctx);
  } catch (const std::exception& e) {
    ctx.fail(std::string("deliverer: ") + e.what());
  }
}

}  // namespace tpcc::terminal
