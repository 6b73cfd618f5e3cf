// SPDX-License-Identifier: Apache-2.0
// app/tpcc/schema/statements.hpp: running the schema's statements: a batch as one transaction,
// and a one-number query.
//
// What: what init, clean and the procedures' creation share (apply.cpp, procedures.cpp).
// `calls_of` makes parameterless calls of statements; `run_transaction` runs calls as one
// transaction (committed with the batch, rolled back on failure); `run_on_lease` does so on a
// borrowed session; `count_query` reads a one-row, one-column integer in its own transaction.
//
// Awaiting any of them:
//   Result: ok, or the first failed outcome (the transaction rolled back); count_query also the
//           number (0 unless ok).
//   Errors: std::bad_alloc only.
//   Cancellation: the chain's stop token reaches the driver calls.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "driver/database.hpp"
#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "driver/statement.hpp"
#include "shoal/task.hpp"

namespace tpcc::schema {

// One call without parameters per statement, in order.
[[nodiscard]] std::vector<driver::call> calls_of(std::span<const driver::statement> statements);

shoal::task<driver::outcome> run_transaction(driver::session& s, std::vector<driver::call> calls);
shoal::task<driver::outcome> run_on_lease(driver::database& db, std::vector<driver::call> calls);

// The answer of a one-row, one-column integer query.
struct counted {
  driver::outcome status;
  std::int64_t count = 0;
};

shoal::task<counted> count_query(driver::session& s, const driver::statement& q,
                                 std::vector<driver::value> params);

}  // namespace tpcc::schema
