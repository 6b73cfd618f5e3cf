// SPDX-License-Identifier: Apache-2.0
// The retry wrapper (txn/execute.hpp) on a real SQLite database: retryable outcomes are retried
// on fresh attempts and counted, attempts are capped, a cancelled back-off ends the operation,
// and the back-off grows exponentially within its bounds.
#include "txn/execute.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stop_token>

#include "dataset.hpp"
#include "shoal/stop.hpp"

namespace txn_test {
namespace {

using namespace std::chrono_literals;
using tpcc::driver::outcome;
using tpcc::driver::outcome_kind;
using tpcc::txn::attempt_report;
using tpcc::txn::retry_policy;

const tpcc::driver::statement select_one{"t_select_one", "SELECT 1"};

// One round trip, then retryable for the first `failures` attempts, ok after; asks for a stop
// after its first attempt when `stop` is set.
shoal::task<outcome> flaky_attempt(tpcc::driver::session& s, std::atomic<int>* calls, int failures,
                                   std::stop_source* stop) {
  const int n = ++*calls;
  const tpcc::driver::statement_result r = co_await s.execute(select_one, values());
  if (stop != nullptr) stop->request_stop();
  if (!r.ok()) co_return r.status;
  if (n <= failures) {
    co_return outcome::make(outcome_kind::retryable, "40001", "could not serialize access");
  }
  co_return outcome::success();
}

struct flaky {
  std::atomic<int>* calls = nullptr;
  int failures = 0;
  std::stop_source* stop = nullptr;
  shoal::task<outcome> operator()(tpcc::driver::session& s) const {
    return flaky_attempt(s, calls, failures, stop);
  }
};

flaky make_flaky(std::atomic<int>& calls, int failures, std::stop_source* stop = nullptr) {
  return flaky{.calls = &calls, .failures = failures, .stop = stop};
}

retry_policy quick(int attempts) {
  return retry_policy{.max_attempts = attempts, .first_backoff = 1ms, .max_backoff = 2ms};
}

shoal::task<void> retried_until_ok(tpcc::driver::database& db) {
  std::atomic<int> calls{0};
  const flaky body = make_flaky(calls, 2);
  const retry_policy policy = quick(10);
  const attempt_report report = co_await tpcc::txn::execute(db, body, policy);
  EXPECT_TRUE(report.status.ok()) << report.status.message;
  EXPECT_EQ(report.retries, 2);
  EXPECT_EQ(calls.load(), 3);
  EXPECT_EQ(report.round_trips, 3u) << "one statement per attempt";
  EXPECT_GT(report.service.count(), 0);
}

shoal::task<void> gives_up_after_max_attempts(tpcc::driver::database& db) {
  std::atomic<int> calls{0};
  const flaky body = make_flaky(calls, 100);
  const retry_policy policy = quick(3);
  const attempt_report report = co_await tpcc::txn::execute(db, body, policy);
  EXPECT_EQ(report.status.kind, outcome_kind::retryable);
  EXPECT_EQ(report.status.sqlstate, "40001");
  EXPECT_EQ(report.retries, 2);
  EXPECT_EQ(calls.load(), 3);
}

shoal::task<void> cancelled_backoff_ends(tpcc::driver::database& db) {
  std::atomic<int> calls{0};
  std::stop_source stop;
  const flaky body = make_flaky(calls, 100, &stop);
  const retry_policy policy{.max_attempts = 10, .first_backoff = 1h, .max_backoff = 1h};
  const attempt_report report =
      co_await shoal::with_stop_token(stop.get_token(), tpcc::txn::execute(db, body, policy));
  // Ended by the stop: a back-off that ran out would have made a second call.
  EXPECT_EQ(report.status.kind, outcome_kind::retryable);
  EXPECT_EQ(report.retries, 0);
  EXPECT_EQ(calls.load(), 1);
}

TEST(execute, RetryableTwiceThenOkIsRetriedTwice) {
  sqlite_fixture f;
  f.run_task(retried_until_ok(f.database()));
}

TEST(execute, GivesUpAfterMaxAttemptsWithTheLastOutcome) {
  sqlite_fixture f;
  f.run_task(gives_up_after_max_attempts(f.database()));
}

TEST(execute, CancelledBackoffEndsWithTheLastOutcome) {
  sqlite_fixture f;
  f.run_task(cancelled_backoff_ends(f.database()));
}

TEST(execute, BackoffDoublesWithinItsBoundsAndKeepsHalf) {
  const retry_policy p{.max_attempts = 10, .first_backoff = 4ms, .max_backoff = 100ms};
  EXPECT_EQ(tpcc::txn::backoff(p, 1, 0.0), 2ms);
  EXPECT_EQ(tpcc::txn::backoff(p, 1, 1.0), 4ms);
  EXPECT_EQ(tpcc::txn::backoff(p, 3, 0.0), 8ms);
  EXPECT_EQ(tpcc::txn::backoff(p, 3, 0.5), 12ms);
  EXPECT_EQ(tpcc::txn::backoff(p, 30, 1.0), 100ms);
  EXPECT_EQ(tpcc::txn::backoff(p, 30, 0.0), 50ms);
}

}  // namespace
}  // namespace txn_test
