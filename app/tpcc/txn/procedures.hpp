// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/procedures.hpp: the five transactions as one stored-procedure call each
// (--procedures).
//
// What: `call_new_order` ... `call_stock_level` take the same inputs and fill the same outputs
// as run_new_order ... run_stock_level (new_order.hpp, payment.hpp, ...), with the transaction's
// statements run inside the server by the routines `init --procedures` created
// (schema/procedures.hpp; their contract: schema/procedure_texts.hpp). Each is BEGIN, one call
// and COMMIT: one round trip on PostgreSQL (pipelined) and on MySQL's text protocol (a
// multi-statement query; two with protocol=prepared). The client's clock still dates orders,
// payments and deliveries (the time is a parameter), as in the client-side mode.
// Outcomes are the client-side mode's: New-Order's unused item (the routine raises SQLSTATE
// TPCRB) is rolled_back with item_not_valid and the spec's fields of that case (o_id, c_last,
// c_credit, read from the error's message); serialization failures and deadlocks raised inside
// a routine keep their SQLSTATE and are retryable; anything the routine refuses (no customer of
// that name, a missing row) is failed with the routine's message, after a rollback.
//
// Awaiting any of them:
//   Result: as the client-side function of the same transaction; `out` meaningful when ok (or
//           rolled_back for New-Order).
//   Errors: std::bad_alloc; std::logic_error when the routine's row does not have the shape
//           procedure_texts.hpp gives (a routine of another version: a bug, never data).
//   Cancellation: the session's calls inherit the chain's stop token (session.hpp).
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session; `in` and `out` must outlive the await.
#pragma once

#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "shoal/task.hpp"
#include "txn/delivery.hpp"
#include "txn/inputs.hpp"
#include "txn/new_order.hpp"
#include "txn/order_status.hpp"
#include "txn/payment.hpp"
#include "txn/stock_level.hpp"

namespace tpcc::txn {

shoal::task<driver::outcome> call_new_order(driver::session& s, const new_order_input& in,
                                            new_order_output& out);
shoal::task<driver::outcome> call_payment(driver::session& s, const payment_input& in,
                                          payment_output& out);
shoal::task<driver::outcome> call_order_status(driver::session& s, const order_status_input& in,
                                               order_status_output& out);
shoal::task<driver::outcome> call_delivery(driver::session& s, const delivery_input& in,
                                           delivery_output& out);
shoal::task<driver::outcome> call_stock_level(driver::session& s, const stock_level_input& in,
                                              stock_level_output& out);

}  // namespace tpcc::txn
