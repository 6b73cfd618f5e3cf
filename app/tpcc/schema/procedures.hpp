// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/procedures.hpp: the stored procedures of --procedures: created by `init
// --procedures`, looked for by `run --procedures`, dropped by `clean`.
//
// What: one server-side routine per transaction type (procedure_names(), in txn::kind order),
// the same reads and writes as the client-side statements of txn/: PL/pgSQL functions on
// PostgreSQL and on Citus (created on the coordinator, not distributed: each statement inside
// is routed by its warehouse key as the client's would be), stored procedures on MySQL and
// MariaDB (docs/tpcc/procedures.md). Creating is idempotent (CREATE OR REPLACE; DROP ... IF
// EXISTS then CREATE on MySQL), in one transaction on PostgreSQL. Any other engine (SQLite, the
// simulated database) is refused with failed, naming the engine: the command line refuses
// --procedures there before any work, so that is a bug path only.
//
// Awaiting any of them:
//   Result: ok or the first failure; missing_procedure also the first routine not found (empty
//           when all exist).
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token reaches the driver calls.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: any coroutine; do not run two creations at once on one database.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "driver/database.hpp"
#include "driver/outcome.hpp"
#include "driver/target.hpp"
#include "shoal/task.hpp"

namespace tpcc::schema {

// The routines, in txn::kind order (New-Order, Payment, Order-Status, Delivery, Stock-Level).
inline constexpr std::array<std::string_view, 5> procedure_names{
    "tpcc_new_order", "tpcc_payment", "tpcc_order_status", "tpcc_delivery", "tpcc_stock_level"};

shoal::task<driver::outcome> create_procedures(driver::database& db, driver::engine kind);
shoal::task<driver::outcome> drop_procedures(driver::database& db, driver::engine kind);

struct procedure_check {
  driver::outcome status;
  std::string missing;  // the first routine not found; empty when all exist
};

shoal::task<procedure_check> missing_procedure(driver::database& db);

}  // namespace tpcc::schema
