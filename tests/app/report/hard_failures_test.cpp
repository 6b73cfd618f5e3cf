// SPDX-License-Identifier: Apache-2.0
// tests/app/report/hard_failures_test.cpp: what makes a run's exit status 3 for failures
// (report/hard_failures.hpp): every phase's non-retryable failures, the deferred Deliveries'
// included; never the lost, the abandoned or those that exhausted their retries.
#include <gtest/gtest.h>

#include "report/hard_failures.hpp"

namespace {

using tpcc::stats::txn_outcome;

// Two intervals (a warm-up one and a measured one) with every kind of failure in them.
tpcc::run::run_result failing_run() {
  tpcc::run::run_result r;
  r.series.resize(2);
  r.series[0].in = tpcc::stats::phase::warmup;
  r.series[0].kinds[0].outcomes[txn_outcome::failed] = 2;  // counted: any phase
  r.series[0].kinds[1].outcomes[txn_outcome::lost] = 5;
  r.series[1].in = tpcc::stats::phase::measuring;
  r.series[1].kinds[1].outcomes[txn_outcome::failed] = 1;
  r.series[1].kinds[2].outcomes[txn_outcome::failed_retries] = 3;
  r.series[1].kinds[3].outcomes[txn_outcome::committed] = 40;
  return r;
}

TEST(hard_failures, CountsEveryPhasesNonRetryableFailuresOnly) {
  EXPECT_EQ(tpcc::report::hard_failures(failing_run()), 3U);
  EXPECT_EQ(tpcc::report::hard_failures(tpcc::run::run_result{}), 0U);
}

TEST(hard_failures, ADeferredDeliveryThatFailedIsAHardFailureOfTheRun) {
  tpcc::run::run_result r = failing_run();
  r.deferred_deliveries[txn_outcome::failed] = 4;
  r.deferred_deliveries[txn_outcome::lost] = 2;       // a loss: the verdict and the outage's
  r.deferred_deliveries[txn_outcome::abandoned] = 1;  // left in the queue at the end
  r.deferred_deliveries[txn_outcome::committed] = 30;
  EXPECT_EQ(tpcc::report::hard_failures(r), 7U);
}

}  // namespace
