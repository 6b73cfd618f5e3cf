// SPDX-License-Identifier: Apache-2.0
// The session pool's reconnect pacing: the arithmetic on a fake clock, then a real pool whose
// factory fails N times, counting the attempts and measuring their spacing.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "driver/pool/reconnect_pacing.hpp"
#include "driver/pool/session_pool.hpp"
#include "shoal/sleep.hpp"
#include "shoal/sync_wait.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::driver::outcome;
using tpcc::driver::outcome_kind;
using tpcc::driver::pool::reconnect_pacing;
using duration = reconnect_pacing::duration;

// ---- the arithmetic, on a fake clock ----

TEST(ReconnectPacing, AdmitsEveryAttemptAtOnceWhileNothingFails) {
  reconnect_pacing p(50ms, 5s, 1);
  const shoal::time_point t{};
  for (int i = 0; i < 16; ++i) EXPECT_EQ(p.admit(t), duration::zero());
  EXPECT_FALSE(p.failing());
}

TEST(ReconnectPacing, AfterAFailureOneProbeAtATimeSpacedByAJitteredDoublingBackoff) {
  reconnect_pacing p(50ms, 5s, 7);
  shoal::time_point t{};
  p.failed(t, false);
  duration ceiling = 50ms;
  shoal::time_point last_failure = t;
  for (int probe = 0; probe < 12; ++probe) {
    duration wait = p.admit(t);
    while (wait != duration::zero()) {  // a reconnector sleeping as told, then asking again
      t += wait;
      wait = p.admit(t);
    }
    const duration spacing = t - last_failure;
    EXPECT_GE(spacing, ceiling / 2) << "probe " << probe;
    EXPECT_LE(spacing, ceiling) << "probe " << probe;
    EXPECT_NE(p.admit(t), duration::zero()) << "a second attempt while the probe is in flight";
    t += 1ms;  // the probe's connect fails after 1 ms
    p.failed(t, true);
    last_failure = t;
    ceiling = std::min<duration>(ceiling * 2, 5s);
    EXPECT_EQ(p.backoff(), ceiling);
  }
  EXPECT_EQ(p.backoff(), duration(5s)) << "capped";
}

TEST(ReconnectPacing, ConcurrentFailuresOfAFillDoNotMultiplyTheBackoff) {
  reconnect_pacing p(50ms, 5s, 3);
  const shoal::time_point t{};
  for (int i = 0; i < 8; ++i) ASSERT_EQ(p.admit(t), duration::zero());
  for (int i = 0; i < 8; ++i) p.failed(t + 1ms, false);
  EXPECT_EQ(p.backoff(), duration(50ms));
}

TEST(ReconnectPacing, AStragglerOfAFillFailingWhileTheProbeRunsLetsNoSecondProbeOut) {
  reconnect_pacing p(50ms, 5s, 11);
  shoal::time_point t{};
  ASSERT_EQ(p.admit(t), duration::zero());  // two attempts of a fill
  ASSERT_EQ(p.admit(t), duration::zero());
  p.failed(t + 1ms, false);  // the first fails: failing from here
  t += 1s;
  ASSERT_EQ(p.admit(t), duration::zero()) << "the probe";
  p.failed(t + 1ms, false);  // the fill's other attempt fails while the probe runs
  EXPECT_EQ(p.backoff(), duration(50ms)) << "not the probe's failure: no doubling";
  t += 1s;
  EXPECT_NE(p.admit(t), duration::zero()) << "a second probe beside the one in flight";
  p.failed(t, true);
  EXPECT_EQ(p.backoff(), duration(100ms));
}

TEST(ReconnectPacing, ASuccessEndsTheFailingStateAndAdmitsEveryoneAgain) {
  reconnect_pacing p(50ms, 5s, 5);
  shoal::time_point t{};
  p.failed(t, false);
  t += 50ms;
  ASSERT_EQ(p.admit(t), duration::zero());
  p.succeeded();
  EXPECT_FALSE(p.failing());
  EXPECT_EQ(p.admit(t), duration::zero());
  EXPECT_EQ(p.admit(t), duration::zero());
}

// ---- a real pool whose factory fails ----

// A session that only says whether it is healthy.
class stub_session final : public tpcc::driver::session {
 public:
  explicit stub_session(std::atomic<bool>& healthy) : healthy_(&healthy) {}
  shoal::task<outcome> begin() override { co_return outcome::success(); }
  shoal::task<tpcc::driver::statement_result> execute(
      const tpcc::driver::statement& /*s*/, std::vector<tpcc::driver::value> /*p*/) override {
    co_return tpcc::driver::statement_result{};
  }
  shoal::task<std::vector<tpcc::driver::statement_result>> execute_batch(
      std::span<const tpcc::driver::call> /*calls*/, tpcc::driver::then /*after*/) override {
    co_return std::vector<tpcc::driver::statement_result>{};
  }
  shoal::task<outcome> copy(const tpcc::driver::bulk_rows& /*rows*/) override {
    co_return outcome::success();
  }
  shoal::task<outcome> commit() override { co_return outcome::success(); }
  shoal::task<outcome> rollback() override { co_return outcome::success(); }
  [[nodiscard]] std::uint64_t round_trips() const noexcept override { return 0; }
  [[nodiscard]] bool healthy() const noexcept override { return healthy_->load(); }

 private:
  std::atomic<bool>* healthy_;
};

// One refused factory call: when it began and ended, and whether a refusal had already ended
// when it began (then the pool had seen a failure before admitting it: a probe, not one of the
// first attempts that were running together when the first failure came).
struct refusal {
  std::chrono::steady_clock::time_point began, ended;
  bool after_a_failure = false;
};

// Sessions for the pool; while `refusals` is positive each call fails (and counts it down).
// Every refused call is recorded, and the number in flight at once tracked.
struct flaky_factory {
  std::atomic<int> refusals{0};
  std::atomic<bool> sessions_healthy{true};
  std::mutex mutex;
  std::vector<refusal> refused;  // in the order they ended
  std::size_t calls = 0;
  int in_flight = 0;
  int most_in_flight = 0;

  shoal::task<tpcc::driver::pool::factory_result> make() {
    refusal r;
    r.began = std::chrono::steady_clock::now();
    {
      std::scoped_lock lock(mutex);
      ++calls;
      most_in_flight = std::max(most_in_flight, ++in_flight);
      r.after_a_failure = !refused.empty();
    }
    std::this_thread::sleep_for(2ms);  // a connect takes a little time
    const bool refuse = refusals.fetch_sub(1) > 0;
    {
      std::scoped_lock lock(mutex);
      --in_flight;
      r.ended = std::chrono::steady_clock::now();
      if (refuse) refused.push_back(r);
    }
    if (refuse) co_return outcome::make(outcome_kind::connection_lost, "", "refused");
    co_return std::make_unique<stub_session>(sessions_healthy);
  }
  std::size_t count() {
    std::scoped_lock lock(mutex);
    return calls;
  }
};

// Opens a pool of `size`, breaks every session while lent with `refusals` refusals ahead, and
// waits until a usable session comes back.
shoal::task<void> scenario(shoal::thread_pool& threads, flaky_factory& f, std::size_t size,
                           int refusals, std::chrono::milliseconds max_backoff) {
  co_await threads.schedule();
  tpcc::driver::pool::session_pool_options options{
      .size = size,
      .description = "flaky",
      .factory = [&f] { return f.make(); },
      .min_backoff = 50ms,
      .max_backoff = max_backoff,
  };
  tpcc::driver::open_result opened = co_await tpcc::driver::pool::session_pool::open(options);
  auto* db = std::get_if<std::unique_ptr<tpcc::driver::database>>(&opened);
  EXPECT_NE(db, nullptr);
  if (db == nullptr) co_return;
  while ((*db)->stats().size < size) co_await shoal::sleep_for(1ms);  // the fill
  f.refusals = refusals;
  {
    std::vector<tpcc::driver::lease> leases;
    leases.reserve(size);
    for (std::size_t i = 0; i < size; ++i) leases.push_back(co_await (*db)->acquire());
    f.sessions_healthy = false;  // they break while lent: given back, each is replaced
  }
  f.sessions_healthy = true;  // what the factory makes from now on is healthy
  while ((*db)->stats().size < size) co_await shoal::sleep_for(5ms);
  tpcc::driver::lease back = co_await (*db)->acquire();
  EXPECT_TRUE(static_cast<bool>(back));
  back = tpcc::driver::lease();
  co_await (*db)->close();
}

// Waits are only ever checked from below (a timer never fires early, whatever the load): an
// attempt admitted after a failure starts at least half the back-off after that failure was
// recorded, which is after the refused call ended. The ceilings' upper side is the arithmetic's
// (ReconnectPacing above, on the fake clock).
std::chrono::nanoseconds waited(const refusal& earlier, const refusal& later) {
  return later.began - earlier.ended;
}

TEST(SessionPoolReconnect, AFactoryFailingNTimesIsRetriedWithGrowingJitteredSpacing) {
  flaky_factory f;
  shoal::testing::running_pool threads(2);
  // No cap in sight (an hour): a pool that waited the cap instead of the doubling back-off would
  // wait half an hour, far beyond the test's timeout.
  shoal::sync_wait(scenario(threads.pool, f, 1, 6, 3'600'000ms));
  EXPECT_EQ(f.count(), 1U + 6U + 1U) << "the open, six refusals, the replacement";
  ASSERT_EQ(f.refused.size(), 6U);
  std::chrono::nanoseconds ceiling = 50ms;  // the back-off after the first failure, doubling
  for (std::size_t i = 1; i < f.refused.size(); ++i) {
    EXPECT_TRUE(f.refused[i].after_a_failure) << "refusal " << i;
    EXPECT_GE(waited(f.refused[i - 1], f.refused[i]), ceiling / 2) << "refusal " << i;
    ceiling *= 2;
  }
  EXPECT_EQ(f.most_in_flight, 1);
}

TEST(SessionPoolReconnect, ManyBrokenSessionsProbeOneAtATimeInsteadOfAStorm) {
  flaky_factory f;
  const std::size_t size = 8;
  shoal::testing::running_pool threads(2);
  // The replacements' first attempts fail together (as many as run before the first failure
  // is known), then the rest of the refusals go to one probe at a time.
  shoal::sync_wait(scenario(threads.pool, f, size, static_cast<int>(size) + 5, 400ms));
  EXPECT_EQ(f.count(), size + (size + 5) + size) << "fill, refusals, replacements";
  ASSERT_EQ(f.refused.size(), size + 5);
  std::vector<refusal> by_start = f.refused;
  std::sort(by_start.begin(), by_start.end(),
            [](const refusal& a, const refusal& b) { return a.began < b.began; });
  const auto first_wave = static_cast<std::size_t>(std::count_if(
      by_start.begin(), by_start.end(), [](const refusal& r) { return !r.after_a_failure; }));
  // The first wave ran before any failure was known: at most one attempt per broken session.
  EXPECT_GE(first_wave, 1U);
  EXPECT_LE(first_wave, size);
  // Once the pool has recorded a failure, every attempt is the probe and runs alone, so the
  // refusals end in a run of calls that each began after every earlier call had ended. At most
  // `size` attempts ran before a failure was known (one per broken session), so at least the last
  // five refusals are probes: the first of them may have run beside a straggler of the first
  // wave, the other four are in that run. (The factory's `after_a_failure` cannot tell a probe
  // from a straggler admitted just before the pool recorded the first failure, so the spacing is
  // judged on those four only.) They are at least the second to the fifth probe: each waits, after
  // the previous one ended, at least half the back-off its failure left, which doubles from 100 ms
  // (after the first probe) and is capped at 400 ms.
  std::size_t run_start = 0;
  auto ended_by = by_start.front().ended;
  for (std::size_t i = 1; i < by_start.size(); ++i) {
    if (by_start[i].began < ended_by) run_start = i + 1;
    ended_by = std::max(ended_by, by_start[i].ended);
  }
  ASSERT_GE(by_start.size() - run_start, 4U) << "the probes never settled to one at a time";
  const std::size_t last = by_start.size() - 1;
  EXPECT_GE(waited(by_start[last - 3], by_start[last - 2]), 100ms) << "at least the third probe";
  EXPECT_GE(waited(by_start[last - 2], by_start[last - 1]), 200ms) << "at least the fourth probe";
  EXPECT_GE(waited(by_start[last - 1], by_start[last]), 200ms) << "at least the fifth probe";
}

}  // namespace
