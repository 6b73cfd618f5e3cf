// SPDX-License-Identifier: Apache-2.0
// tests/app/stats/sampler_test.cpp: the interval series cut from the recorder's all-phase
// counts: intervals add up exactly to the cumulative totals, even while threads record.
#include "stats/sampler.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>
#include <vector>

#include "stats/recorder.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::stats::clock;
using tpcc::stats::cumulative;
using tpcc::stats::interval_sample;
using tpcc::stats::recorder;
using tpcc::stats::sampler;
using tpcc::stats::txn_record;
namespace txn = tpcc::txn;
using outcome_kind = tpcc::driver::outcome_kind;

constexpr std::array<outcome_kind, 4> statuses{outcome_kind::ok, outcome_kind::rolled_back,
                                               outcome_kind::failed, outcome_kind::connection_lost};

txn_record make_record(std::uint64_t n, clock::time_point end) {
  txn_record r;
  r.kind = txn::all_kinds[n % txn::kind_count];
  r.status = statuses[(n / 7) % statuses.size()];
  r.retries = static_cast<int>(n % 3);
  r.queued = std::chrono::microseconds((n * 37) % 5000);
  r.service = std::chrono::microseconds(100 + (n * 101) % 900'000);
  r.response = r.queued + r.service;
  r.end = end;
  return r;
}

// Per kind: the sum of the intervals' counts and bucket counts.
struct totals {
  std::array<tpcc::stats::outcome_counts, txn::kind_count> outcomes{};
  std::array<std::uint64_t, txn::kind_count> retries{};
  std::array<std::vector<std::uint64_t>, txn::kind_count> response, queued, service;
  totals() {
    for (std::size_t i = 0; i < txn::kind_count; ++i) {
      response[i].assign(tpcc::stats::bucket::count, 0);
      queued[i].assign(tpcc::stats::bucket::count, 0);
      service[i].assign(tpcc::stats::bucket::count, 0);
    }
  }
  void add(const interval_sample& s) {
    for (std::size_t i = 0; i < txn::kind_count; ++i) {
      const auto& k = s.kinds[i];
      outcomes[i] += k.outcomes;
      retries[i] += k.retries;
      for (const auto& [b, n] : k.response.buckets) response[i][b] += n;
      for (const auto& [b, n] : k.queued.buckets) queued[i][b] += n;
      for (const auto& [b, n] : k.service.buckets) service[i][b] += n;
    }
  }
};

void expect_equal(const totals& sum, const cumulative& all) {
  for (std::size_t i = 0; i < txn::kind_count; ++i) {
    const auto& k = all.kinds[i];
    EXPECT_EQ(sum.outcomes[i], k.outcomes) << i;
    EXPECT_EQ(sum.retries[i], k.retries) << i;
    for (std::size_t b = 0; b < tpcc::stats::bucket::count; ++b) {
      ASSERT_EQ(sum.response[i][b], k.response.bucket_count(b)) << i << " bucket " << b;
      ASSERT_EQ(sum.queued[i][b], k.queued.bucket_count(b)) << i << " bucket " << b;
      ASSERT_EQ(sum.service[i][b], k.service.bucket_count(b)) << i << " bucket " << b;
    }
  }
}

TEST(sampler, IntervalsOfConcurrentRecordingAddUpExactlyToTheCumulativeTotals) {
  const clock::time_point now = clock::now();
  recorder rec(now + 1h, now + 2h);  // every record ends outside the window
  constexpr std::uint64_t per_thread = 20'000;
  // Each thread records at least per_thread records and goes on until three intervals have
  // been cut, so the cuts always race with the recording, however the threads are scheduled.
  constexpr std::size_t racing_cuts = 3;
  std::atomic<int> running{4};
  std::atomic<std::size_t> cuts{0};
  std::atomic<std::uint64_t> records{0};
  std::vector<std::thread> threads;
  threads.reserve(4);
  for (std::uint64_t t = 0; t < 4; ++t) {
    threads.emplace_back([&rec, &running, &cuts, &records, t, now] {
      std::uint64_t n = 0;
      for (; n < per_thread || cuts.load() < racing_cuts; ++n) {
        rec.record(make_record(t * per_thread + n, now));
      }
      records.fetch_add(n);
      running.fetch_sub(1);
    });
  }
  sampler s;
  totals sum;
  std::size_t intervals = 0;
  double end = 0;
  while (running.load() > 0) {
    end += 1;
    sum.add(s.next(rec.take_all(), end, tpcc::stats::phase::warmup));
    cuts.store(++intervals);
  }
  for (auto& t : threads) t.join();
  sum.add(s.next(rec.take_all(), end + 1, tpcc::stats::phase::draining));
  const cumulative all = rec.take_all();
  expect_equal(sum, all);
  std::uint64_t recorded = 0;
  for (const auto& k : all.kinds) recorded += k.outcomes.total();
  EXPECT_EQ(recorded, records.load());
  EXPECT_GE(recorded, 4 * per_thread);
  EXPECT_GE(intervals, racing_cuts);
  // The window counted none of them: all ended outside it.
  const auto window = rec.take();
  EXPECT_EQ(window.outside_window, records.load());
  for (const auto& k : window.kinds) EXPECT_EQ(k.response.count(), 0U);
}

TEST(sampler, EachIntervalHoldsOnlyWhatEndedSinceThePreviousOne) {
  const clock::time_point now = clock::now();
  recorder rec(now - 1h, now + 1h);  // every record inside the window
  sampler s;
  for (std::uint64_t n = 0; n < 10; ++n) rec.record(make_record(0, now));  // New-Order, ok
  const interval_sample first = s.next(rec.take_all(), 1.0, tpcc::stats::phase::measuring);
  rec.record(make_record(1, now));  // Payment, ok
  const interval_sample second = s.next(rec.take_all(), 2.5, tpcc::stats::phase::measuring);
  const interval_sample third = s.next(rec.take_all(), 3.0, tpcc::stats::phase::measuring);

  const auto no = txn::index(txn::kind::new_order);
  const auto pay = txn::index(txn::kind::payment);
  EXPECT_EQ(first.kinds[no].outcomes.committed(), 10U);
  EXPECT_EQ(first.kinds[no].response.count(), 10U);
  EXPECT_EQ(first.kinds[pay].outcomes.committed(), 0U);
  EXPECT_EQ(second.kinds[no].outcomes.committed(), 0U);
  EXPECT_TRUE(second.kinds[no].response.buckets.empty());
  EXPECT_EQ(second.kinds[pay].outcomes.committed(), 1U);
  EXPECT_EQ(third.kinds[pay].outcomes.committed(), 0U);
  EXPECT_DOUBLE_EQ(first.start_seconds, 0.0);
  EXPECT_DOUBLE_EQ(second.start_seconds, 1.0);
  EXPECT_DOUBLE_EQ(second.end_seconds, 2.5);
  EXPECT_EQ(second.in, tpcc::stats::phase::measuring);
  // The window and the all-phase counts agree when everything ended inside the window.
  EXPECT_EQ(rec.take().kinds[no].outcomes.committed(),
            rec.take_all().kinds[no].outcomes.committed());
}

// The sampling loop can wake late at the window's start or end on a loaded machine; the
// records counted meanwhile belong to the other part and must reach an interval of it.
TEST(sampler, ACutLateAtAWindowEdgeMovesRecordsToTheNeighbouringIntervalAndLosesNone) {
  const clock::time_point now = clock::now();
  recorder rec(now, now + 1h);
  sampler s;
  rec.record(make_record(0, now - 1s));  // New-Order, ok, in the warm-up
  rec.record(make_record(1, now));       // Payment, ok, in the window: the cut came late
  const interval_sample warmup = s.next(rec.take_all(), 1.0, tpcc::stats::phase::warmup);
  rec.record(make_record(1, now));
  rec.record(make_record(0, now + 2h));  // after the window, counted before the late cut
  const interval_sample measuring = s.next(rec.take_all(), 2.0, tpcc::stats::phase::measuring);
  const interval_sample draining = s.next(rec.take_all(), 3.0, tpcc::stats::phase::draining);

  const auto no = txn::index(txn::kind::new_order);
  const auto pay = txn::index(txn::kind::payment);
  EXPECT_EQ(warmup.kinds[no].outcomes.committed(), 1U);
  EXPECT_EQ(warmup.kinds[pay].outcomes.committed(), 0U);
  EXPECT_EQ(measuring.kinds[pay].outcomes.committed(), 2U);
  EXPECT_EQ(measuring.kinds[pay].response.count(), 2U);
  EXPECT_EQ(measuring.kinds[no].outcomes.committed(), 0U);
  EXPECT_EQ(draining.kinds[no].outcomes.committed(), 1U);
  EXPECT_EQ(draining.kinds[pay].outcomes.committed(), 0U);
  EXPECT_EQ(rec.take().kinds[pay].outcomes.committed(), 2U);
}

}  // namespace
