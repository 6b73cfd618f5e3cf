// SPDX-License-Identifier: Apache-2.0
// app/tpcc/terminal/deliverer.hpp: runs deferred Deliveries from the queue (clause 2.7.2).
//
// What: takes delivery requests in arrival order from its queue (the context's
// deliveries[index]: a warehouse's requests always go to the same queue, so no two
// deliverers deliver one warehouse at once) and runs each as one
// Delivery transaction (all ten districts, txn/delivery.hpp), retried like any other. For each
// it records the completion time counted from queueing (clause 2.7.2.2: 90% must complete
// within 80 s) and the districts skipped for lack of an undelivered order (2.7.4.3).
// The deliverer's round trips are recorded as Delivery's. abandon_queued() records what was
// left in the queues at the end of the drain as abandoned (counted, never on time).
//
// Awaiting run_deliverer:
//   Result: void, once the queue is closed and drained, or hard_stop is requested.
//   Errors: none escape: an unexpected exception is handed to context.fail().
//   Cancellation: the context's hard_stop.
//   Resumes on: the executor it was started on.
//   Thread-safety: any number of deliverers on one context.
#pragma once

#include "shoal/task.hpp"
#include "terminal/context.hpp"

namespace tpcc::terminal {

shoal::task<void> run_deliverer(run_context& ctx, std::size_t index);
// Once every deliverer has left: the requests still queued, recorded as abandoned.
void abandon_queued(run_context& ctx);

}  // namespace tpcc::terminal
