// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/procedure_rows.hpp: a stored procedure's row read into a transaction's output
// (procedures.hpp; the rows' shapes: schema/procedure_texts.hpp).
//
// What: one function per transaction, filling the same fields the client-side function fills
// from its statements' rows; `rolled_back_order` reads the unused-item error's message.
// Errors: std::logic_error when a column or a packed field has another type than the shape says.
// Thread-safety: pure functions over the caller's values.
#pragma once

#include "driver/outcome.hpp"
#include "driver/value.hpp"
#include "txn/delivery.hpp"
#include "txn/inputs.hpp"
#include "txn/new_order.hpp"
#include "txn/order_status.hpp"
#include "txn/payment.hpp"
#include "txn/stock_level.hpp"

namespace tpcc::txn {

void take_new_order_row(const new_order_input& in, const driver::row& r, new_order_output& out);
// The rolled_back outcome of New-Order's unused item, with o_id, c_credit and c_last taken from
// the routine's message (SQLSTATE TPCRB).
[[nodiscard]] driver::outcome rolled_back_order(const new_order_input& in,
                                                const driver::outcome& why, new_order_output& out);
void take_payment_row(const driver::row& r, payment_output& out);
void take_order_status_row(const driver::row& r, order_status_output& out);
void take_delivery_row(const driver::row& r, delivery_output& out);
void take_stock_level_row(const driver::row& r, stock_level_output& out);

}  // namespace tpcc::txn
