// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/execute.hpp: one transaction with a borrowed session, retried when the database
// refuses it for concurrency.
//
// What: `execute(db, body, policy)` borrows a session (`co_await db.acquire()`), runs
// `body(session)` (a whole transaction, begin() to commit(), e.g. a lambda calling
// run_new_order), gives the session back, and when the outcome is retryable (serialization
// failure, deadlock, SQLite BUSY: outcome.hpp) sleeps a jittered exponential back-off and runs
// a FRESH attempt with a new lease, up to policy.max_attempts attempts in all. The session is
// never held while sleeping. The report says how it ended and what it cost:
//   status       the last attempt's outcome (or the empty lease's, when none could be had);
//   retries      attempts after the first;
//   queued       time waiting for a session, summed over attempts (lease.waited());
//   service      time inside the transaction bodies, summed over attempts (back-off excluded);
//   round_trips  session.round_trips() consumed by the bodies, summed over attempts.
// Back-off before retry k (1-based): half of min(max_backoff, first_backoff * 2^(k-1)) plus a
// uniformly random part of the other half, so that colliding terminals spread out.
//
// Lifetime: `body` is moved into the operation and called once per attempt; what it refers to
// must outlive the await. `db` must outlive the await.
//
// Awaiting execute(db, body, policy):
//   Result: attempt_report.
//   Errors: what `body` or acquire() throw (std::bad_alloc; logic errors for schema bugs).
//   Cancellation: the chain's stop token reaches acquire(), the body's calls and the back-off
//                 sleep; a back-off cut short ends the operation with the last outcome
//                 (retryable) without another attempt.
//   Resumes on: the executor it was awaited on.
//   Thread-safety: any number of concurrent operations on one database, each from its own
//                  coroutine.
//   Example:
//     auto report = co_await txn::execute(db, [&](driver::session& s) {
//       return txn::run_payment(s, input, output); }, txn::retry_policy{});
#pragma once

#include <chrono>
#include <cstdint>
#include <utility>

#include "driver/database.hpp"
#include "driver/outcome.hpp"
#include "driver/session.hpp"
#include "shoal/sleep.hpp"
#include "shoal/task.hpp"
#include "txn/retry_policy.hpp"

namespace tpcc::txn {

struct attempt_report {
  driver::outcome status;
  int retries = 0;
  std::chrono::nanoseconds queued{0};
  std::chrono::nanoseconds service{0};
  std::uint64_t round_trips = 0;
};

// The back-off before retry `retry` (1-based) with a random draw `unit` in [0, 1).
[[nodiscard]] std::chrono::nanoseconds backoff(const retry_policy& policy, int retry,
                                               double unit) noexcept;
// A uniform draw in [0, 1) from this thread's generator.
[[nodiscard]] double jitter_unit() noexcept;

namespace detail {

// One attempt: a lease, the body, the lease given back; adds its costs to `report`.
template <class Body>
shoal::task<void> attempt_once(driver::database& db, Body& body, attempt_report& report) {
  driver::lease lease = co_await db.acquire();
  report.queued += lease.waited();
  if (!lease) {
    report.status = lease.status();
    co_return;
  }
  driver::session& s = *lease;
  const std::uint64_t trips = s.round_trips();
  const auto start = std::chrono::steady_clock::now();
  report.status = co_await body(s);
  report.service += std::chrono::steady_clock::now() - start;
  report.round_trips += s.round_trips() - trips;
}

}  // namespace detail

template <class Body>
shoal::task<attempt_report> execute(driver::database& db, Body body, retry_policy policy) {
  attempt_report report;
  for (int attempt = 1;; ++attempt) {
    co_await detail::attempt_once(db, body, report);
    if (report.status.kind != driver::outcome_kind::retryable) break;
    if (attempt >= policy.max_attempts) break;
    const bool slept = co_await shoal::sleep_for(backoff(policy, attempt, jitter_unit()));
    if (!slept) break;
    ++report.retries;
  }
  co_return report;
}

}  // namespace tpcc::txn
