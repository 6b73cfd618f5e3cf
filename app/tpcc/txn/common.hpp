// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/common.hpp: what every transaction body shares.
//
// What: building statement parameters and calls in plain functions (never inside a coroutine:
// g++ 12 miscompiles braced lists and aggregate temporaries there), finding the first failure
// among a batch's results, ending a failed transaction, and the client's current time as the
// text every engine reads as a TIMESTAMP ('YYYY-MM-DD HH:MM:SS', UTC).
//
// Awaiting abandon(s, why):
//   Result: `why`, after a rollback of the session's transaction unless `why` says the
//           connection is lost (the session is then dead and the lease replaces it).
//   Errors: std::bad_alloc only. The rollback's own outcome is not reported: `why` is the news.
//   Cancellation: the rollback inherits the chain's stop token (session.hpp).
//   Resumes on: the executor it was awaited on.
//   Thread-safety: one coroutine at a time per session.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "driver/statement.hpp"
#include "driver/value.hpp"
#include "shoal/task.hpp"

namespace tpcc::txn {

// A parameter vector from the arguments, in order.
template <class... Values>
[[nodiscard]] std::vector<driver::value> params(Values... vs) {
  std::vector<driver::value> out;
  out.reserve(sizeof...(Values));
  (out.emplace_back(std::move(vs)), ...);
  return out;
}

// One call of `stmt` with `p`.
[[nodiscard]] driver::call make_call(const driver::statement& stmt, std::vector<driver::value> p);

using driver::first_failure;

// The outcome of a statement that must have returned exactly one row: its own failure, or a
// failed outcome naming `what` when it found no row.
[[nodiscard]] driver::outcome one_row(const driver::statement_result& r, const char* what);

// Rolls back (unless the connection is lost) and returns why.
shoal::task<driver::outcome> abandon(driver::session& s, driver::outcome why);

// `t` as 'YYYY-MM-DD HH:MM:SS' in UTC.
[[nodiscard]] std::string timestamp_text(std::chrono::system_clock::time_point t);
// The client's current time, as timestamp_text.
[[nodiscard]] std::string now_text();

// Money rounded to the cent (NUMERIC(.,2) columns).
[[nodiscard]] double round_cents(double amount) noexcept;

}  // namespace tpcc::txn
