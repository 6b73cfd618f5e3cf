// SPDX-License-Identifier: Apache-2.0
// tests/app/stats/histogram_test.cpp: bucket arithmetic, percentiles, merging, the recorder's
// measurement window.
#include "stats/histogram.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <random>

#include "stats/recorder.hpp"

namespace {

using tpcc::stats::histogram;
namespace bucket = tpcc::stats::bucket;

TEST(histogram, EveryValueLandsInABucketWhoseUpperEdgeIsWithinThreePercent) {
  for (std::uint64_t v = 0; v < 5'000'000; v += 1 + v / 97) {
    const std::size_t i = bucket::index_of(v);
    ASSERT_LT(i, bucket::count);
    const std::uint64_t edge = bucket::upper_edge(i);
    ASSERT_GE(edge, v) << v;
    ASSERT_LE(static_cast<double>(edge - v), static_cast<double>(v) / 32.0 + 1.0) << v;
    if (i > 0) {
      ASSERT_LT(bucket::upper_edge(i - 1), v) << v;
    }
  }
}

TEST(histogram, PercentilesOfAUniformSpreadAreWithinBucketPrecision) {
  histogram h;
  for (std::uint64_t v = 1; v <= 100'000; ++v) h.record(v);
  EXPECT_EQ(h.count(), 100'000U);
  for (const double p : {0.5, 0.9, 0.99, 0.9999}) {
    const double exact = p * 100'000;
    const auto got = static_cast<double>(h.percentile(p));
    EXPECT_GE(got, exact - 1) << p;
    EXPECT_LE(got, exact * 1.032) << p;
  }
  EXPECT_EQ(h.percentile(1.0), 100'000U);
  EXPECT_NEAR(h.mean(), 50'000.5, 0.01);
}

TEST(histogram, MergingAddsBucketsSoPercentilesAreThoseOfTheUnion) {
  histogram fast;
  histogram slow;
  histogram both;
  std::mt19937_64 gen(7);
  std::uniform_int_distribution<std::uint64_t> low(100, 200);
  std::uniform_int_distribution<std::uint64_t> high(10'000, 20'000);
  for (int i = 0; i < 9000; ++i) {
    const auto v = low(gen);
    fast.record(v);
    both.record(v);
  }
  for (int i = 0; i < 1000; ++i) {
    const auto v = high(gen);
    slow.record(v);
    both.record(v);
  }
  fast.merge(slow);
  EXPECT_EQ(fast.count(), both.count());
  for (const double p : {0.5, 0.89, 0.95, 0.99}) EXPECT_EQ(fast.percentile(p), both.percentile(p));
  EXPECT_LT(fast.percentile(0.89), 210U);
  EXPECT_GT(fast.percentile(0.95), 10'000U);  // an average of percentiles would say ~5000
}

TEST(histogram, EmptyHistogramReportsZero) {
  const histogram h;
  EXPECT_EQ(h.percentile(0.9), 0U);
  EXPECT_EQ(h.mean(), 0.0);
}

TEST(recorder, OnlyTransactionsEndingInsideTheWindowCount) {
  using namespace std::chrono_literals;
  const auto t0 = tpcc::stats::clock::now();
  tpcc::stats::recorder rec(t0 + 10s, t0 + 20s);
  tpcc::stats::txn_record r;
  r.response = 3ms;
  r.end = t0 + 5s;  // warm-up
  rec.record(r);
  r.end = t0 + 15s;
  rec.record(r);
  r.status = tpcc::driver::outcome_kind::rolled_back;
  rec.record(r);
  r.end = t0 + 25s;  // drain
  rec.record(r);
  const auto s = rec.take();
  const auto& no = s.kinds[tpcc::txn::index(tpcc::txn::kind::new_order)];
  EXPECT_EQ(no.outcomes[tpcc::stats::txn_outcome::committed], 1U);
  EXPECT_EQ(no.outcomes[tpcc::stats::txn_outcome::rolled_back], 1U);
  EXPECT_EQ(s.outside_window, 2U);
  EXPECT_EQ(no.response.count(), 2U);
}

TEST(recorder, EachTransactionEndsInOneOutcomeAndFailuresStayOutOfThePercentiles) {
  using namespace std::chrono_literals;
  using tpcc::driver::outcome_kind;
  using tpcc::stats::txn_outcome;
  const auto t0 = tpcc::stats::clock::now();
  tpcc::stats::recorder rec(t0, t0 + 100s);
  const auto add = [&rec, t0](outcome_kind status, int retries, bool abandoned, const char* state,
                              std::chrono::milliseconds response) {
    tpcc::stats::txn_record r;
    r.status = status;
    r.retries = retries;
    r.abandoned = abandoned;
    r.sqlstate = state;
    r.response = response;
    r.end = t0 + 1s;
    rec.record(r);
  };
  add(outcome_kind::ok, 0, false, "", 2ms);
  add(outcome_kind::ok, 2, false, "", 3ms);                 // retried, then committed
  add(outcome_kind::rolled_back, 0, false, "", 4ms);        // the spec's rollback
  add(outcome_kind::retryable, 9, false, "40001", 900ms);   // retries exhausted
  add(outcome_kind::failed, 0, false, "23505", 700ms);      // a constraint
  add(outcome_kind::failed, 0, false, "23514", 700ms);      // another of class 23
  add(outcome_kind::node_lost, 0, false, "08006", 800ms);   // a worker of a coordinator
  add(outcome_kind::connection_lost, 0, false, "", 800ms);  // the socket closed
  add(outcome_kind::failed, 0, true, "", 5000ms);           // cut short by the run's end
  const auto no = rec.take().kinds[tpcc::txn::index(tpcc::txn::kind::new_order)];
  EXPECT_EQ(no.outcomes[txn_outcome::committed], 1U);
  EXPECT_EQ(no.outcomes[txn_outcome::retried], 1U);
  EXPECT_EQ(no.outcomes[txn_outcome::rolled_back], 1U);
  EXPECT_EQ(no.outcomes[txn_outcome::failed_retries], 1U);
  EXPECT_EQ(no.outcomes[txn_outcome::failed], 2U);
  EXPECT_EQ(no.outcomes[txn_outcome::lost], 2U);
  EXPECT_EQ(no.outcomes[txn_outcome::abandoned], 1U);
  EXPECT_EQ(no.outcomes.total(), 9U);
  EXPECT_EQ(no.outcomes.completed(), 3U);
  EXPECT_EQ(no.retries, 11U);
  // Percentiles: the three completed only; failures have their own histogram.
  EXPECT_EQ(no.response.count(), 3U);
  EXPECT_LT(no.response.max(), 5000U);
  EXPECT_EQ(no.failed_response.count(), 6U);
  const tpcc::stats::error_class_counts expected{{"--", 2}, {"08", 1}, {"23", 2}, {"40", 1}};
  EXPECT_EQ(no.error_classes, expected);
}

TEST(recorder, SqlstateClassesMapToSlotsAndBack) {
  using tpcc::stats::error_class;
  EXPECT_EQ(error_class("40001"), "40");
  EXPECT_EQ(error_class("XX000"), "XX");
  EXPECT_EQ(error_class("P0001"), "P0");
  EXPECT_EQ(error_class(""), "--");
  EXPECT_EQ(error_class("4000"), "--");   // not five characters
  EXPECT_EQ(error_class("a0001"), "--");  // not [0-9A-Z]
  EXPECT_NE(tpcc::stats::error_class_slot("ZZ999"), tpcc::stats::error_class_slot(""));
}

TEST(recorder, ClosingTheWindowEarlyExcludesLaterTransactions) {
  using namespace std::chrono_literals;
  const auto t0 = tpcc::stats::clock::now();
  tpcc::stats::recorder rec(t0, t0 + 100s);
  rec.close_window(t0 + 10s);
  rec.close_window(t0 + 50s);  // a later close does not reopen it
  tpcc::stats::txn_record r;
  r.end = t0 + 20s;
  rec.record(r);
  const auto s = rec.take();
  EXPECT_EQ(s.kinds[0].outcomes[tpcc::stats::txn_outcome::committed], 0U);
  EXPECT_EQ(s.window_end, t0 + 10s);
}

// Transactions in flight when the window ends are censored responses as old as they were then,
// abandoned ones count in the window by type, and the longest time with no completion is named.
TEST(recorder, InFlightAtTheEndIsCensoredAbandonedIsCountedAndTheStallIsNamed) {
  using namespace std::chrono_literals;
  using tpcc::stats::txn_outcome;
  const auto t0 = tpcc::stats::clock::now() - 200s;  // a window that has ended
  tpcc::stats::recorder rec(t0, t0 + 100s);
  tpcc::stats::txn_record done;
  done.end = t0 + 30s;
  done.response = 10ms;
  rec.record(done);  // then nothing completes for 70 s
  tpcc::stats::txn_record stalled;
  stalled.kind = tpcc::txn::kind::payment;
  stalled.abandoned = true;
  stalled.status = tpcc::driver::outcome_kind::failed;
  stalled.end = t0 + 130s;
  stalled.response = 95s;  // began at 35 s: 65 s old at the end
  rec.record(stalled);
  tpcc::stats::txn_record late;  // began at 99 s, answered in the drain: 1 s old at the end
  late.end = t0 + 101s;
  late.response = 2s;
  rec.record(late);
  const auto s = rec.take();
  const auto& payment = s.kinds[tpcc::txn::index(tpcc::txn::kind::payment)];
  EXPECT_EQ(payment.in_flight_at_end, 1U);
  EXPECT_EQ(payment.in_flight_over_limit, 1U);
  EXPECT_EQ(payment.outcomes[txn_outcome::abandoned], 1U);
  EXPECT_EQ(s.kinds[0].in_flight_at_end, 1U);
  EXPECT_EQ(s.kinds[0].in_flight_over_limit, 0U);
  EXPECT_EQ(s.kinds[0].outcomes[txn_outcome::committed], 1U);  // the late one is outside
  EXPECT_NEAR(s.longest_stall_seconds, 70.0, 1e-6);
  EXPECT_NEAR(s.stall_began_seconds, 30.0, 1e-6);
}

TEST(recorder, DeferredDeliveriesCountTheShareCompletedWithinEightySeconds) {
  using namespace std::chrono_literals;
  const auto t0 = tpcc::stats::clock::now();
  tpcc::stats::recorder rec(t0, t0 + 100s);
  rec.record_delivery(79s, 0, tpcc::stats::txn_outcome::committed,
                      t0 + 90s);  // counted by the time it was queued
  rec.record_delivery(81s, 2, tpcc::stats::txn_outcome::committed, t0 + 90s);
  rec.record_delivery(1s, 0, tpcc::stats::txn_outcome::failed, t0 + 90s);
  const auto s = rec.take();
  EXPECT_EQ(s.deliveries_done, 2U);
  EXPECT_EQ(s.deliveries_on_time, 1U);
  EXPECT_EQ(s.skipped_districts, 2U);
  EXPECT_EQ(s.deliveries_failed, 1U);
  EXPECT_EQ(s.deliveries_lost, 0U);
}

// A deferred Delivery whose deliverer lost its connection is failed AND lost, in the window;
// take_all() counts every phase's deferred ends by outcome (the endpoints' series read them).
TEST(recorder, ALostDeferredDeliveryCountsAsFailedAndLostInEveryPhaseToo) {
  using namespace std::chrono_literals;
  using tpcc::stats::txn_outcome;
  const auto t0 = tpcc::stats::clock::now();
  tpcc::stats::recorder rec(t0 + 10s, t0 + 100s);
  rec.record_delivery(2s, 0, txn_outcome::lost, t0 + 20s);       // queued in the window
  rec.record_delivery(2s, 0, txn_outcome::lost, t0 + 5s);        // queued in the warm-up
  rec.record_delivery(2s, 0, txn_outcome::abandoned, t0 + 30s);  // in the window, not lost
  rec.record_delivery(2s, 0, txn_outcome::retried, t0 + 40s);    // completed after a retry
  const auto s = rec.take();
  EXPECT_EQ(s.deliveries_done, 1U);
  EXPECT_EQ(s.deliveries_failed, 2U);
  EXPECT_EQ(s.deliveries_lost, 1U);
  const tpcc::stats::outcome_counts all = rec.take_all().deliveries;
  EXPECT_EQ(all[txn_outcome::lost], 2U);
  EXPECT_EQ(all[txn_outcome::abandoned], 1U);
  EXPECT_EQ(all[txn_outcome::retried], 1U);
  EXPECT_EQ(all.failures(), 3U);
}

}  // namespace
