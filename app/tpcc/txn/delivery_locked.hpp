// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/delivery_locked.hpp: Delivery's statements where a statement cannot return the
// rows it changes (MySQL, MariaDB: session::update_returning() false), in 5 statements instead
// of 51.
//
// What: the same rows read and written as delivery.cpp's per-district statements, as one
// statement per table:
//   1. one read locks each district's oldest NEW-ORDER row (a UNION ALL of ten
//      `SELECT ... ORDER BY no_o_id LIMIT 1 FOR UPDATE`), returning (district, order);
//   2. one DELETE of the locked NEW-ORDER rows, one UPDATE of ORDERS joined to CUSTOMER (the
//      carrier; the balance by the sum of the order's lines, the delivery count), one UPDATE
//      of ORDER-LINE, each by a `(d_id, o_id) IN ((..), ...)` list of the delivered orders
//      (one statement per count of them: `<name>_NN`, line_statements.hpp), then COMMIT.
// Concurrency: a second Delivery of the warehouse waits on the first's locks, then reads the
// next oldest row (a locking read sees the latest committed rows), so an order is never
// delivered twice; the DELETE and the UPDATEs find every row locked by key.
// Thread-safety: pure functions over immutable statements.
#pragma once

#include <span>
#include <vector>

#include "driver/outcome.hpp"
#include "driver/statement.hpp"
#include "txn/delivery.hpp"

namespace tpcc::txn::detail {

/// The first batch: the one locking read of the ten districts' oldest NEW-ORDER rows.
[[nodiscard]] std::vector<driver::call> locked_oldest_calls(const delivery_input& in);

/// Reads the first batch's answer into `out` (delivered_o_id, skipped).
[[nodiscard]] driver::outcome take_locked_oldest(std::span<const driver::statement_result> r,
                                                 delivery_output& out);

/// The second batch, before its COMMIT: empty when every district was skipped.
[[nodiscard]] std::vector<driver::call> locked_delivery_calls(const delivery_input& in,
                                                              const delivery_output& out);

/// Whether the second batch found every row: the DELETE one per delivered order, the ORDERS and
/// CUSTOMER update two.
[[nodiscard]] driver::outcome check_locked_delivery(std::span<const driver::statement_result> r,
                                                    const delivery_output& out);

}  // namespace tpcc::txn::detail
