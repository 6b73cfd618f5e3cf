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
  p.failed(t);
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
    p.failed(t);
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
  for (int i = 0; i < 8; ++i) p.failed(t + 1ms);
  EXPECT_EQ(p.backoff(), duration(50ms));
}

TEST(ReconnectPacing, ASuccessEndsTheFailingStateAndAdmitsEveryoneAgain) {
  reconnect_pacing p(50ms, 5s, 5);
  shoal::time_point t{};
  p.failed(t);
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

// Sessions for the pool; while `refusals` is positive each call fails (and counts it down).
// Every call is timed, and the number in flight at once tracked.
struct flaky_factory {
  std::atomic<int> refusals{0};
  std::atomic<bool> sessions_healthy{true};
  std::mutex mutex;
  std::vector<std::chrono::steady_clock::time_point> refused;  // when each refused call began
  std::size_t calls = 0;
  int in_flight = 0;
  int most_in_flight = 0;

  shoal::task<tpcc::driver::pool::factory_result> make() {
    const auto started = std::chrono::steady_clock::now();
    {
      std::scoped_lock lock(mutex);
      ++calls;
      most_in_flight = std::max(most_in_flight, ++in_flight);
    }
    std::this_thread::sleep_for(2ms);  // a connect takes a little time
    const bool refuse = refusals.fetch_sub(1) > 0;
    {
      std::scoped_lock lock(mutex);
      --in_flight;
      if (refuse) refused.push_back(started);
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
                           int refusals) {
  co_await threads.schedule();
  tpcc::driver::pool::session_pool_options options{
      .size = size,
      .description = "flaky",
      .factory = [&f] { return f.make(); },
      .min_backoff = 50ms,
      .max_backoff = 400ms,
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

// Spacing of consecutive refused calls from the `first`th on: each in [ceiling/2, ceiling + slack]
// with the ceiling doubling from 50 ms up to 400 ms.
void expect_backoff(const std::vector<std::chrono::steady_clock::time_point>& refused,
                    std::size_t first) {
  std::chrono::nanoseconds ceiling = 50ms;
  for (std::size_t i = first; i < refused.size(); ++i) {
    const auto spacing = refused[i] - refused[i - 1];
    EXPECT_GE(spacing, ceiling / 2) << "refusal " << i;
    EXPECT_LE(spacing, ceiling + 150ms) << "refusal " << i;
    ceiling = std::min<std::chrono::nanoseconds>(ceiling * 2, 400ms);
  }
}

TEST(SessionPoolReconnect, AFactoryFailingNTimesIsRetriedWithGrowingJitteredSpacing) {
  flaky_factory f;
  shoal::testing::running_pool threads(2);
  shoal::sync_wait(scenario(threads.pool, f, 1, 6));
  EXPECT_EQ(f.count(), 1U + 6U + 1U) << "the open, six refusals, the replacement";
  ASSERT_EQ(f.refused.size(), 6U);
  expect_backoff(f.refused, 1);
  EXPECT_EQ(f.most_in_flight, 1);
}

TEST(SessionPoolReconnect, ManyBrokenSessionsProbeOneAtATimeInsteadOfAStorm) {
  flaky_factory f;
  const std::size_t size = 8;
  shoal::testing::running_pool threads(2);
  // The replacements' first attempts fail together (as many as run before the first failure
  // is known), then the rest of the refusals go to one probe at a time.
  shoal::sync_wait(scenario(threads.pool, f, size, static_cast<int>(size) + 5));
  EXPECT_EQ(f.count(), size + (size + 5) + size) << "fill, refusals, replacements";
  ASSERT_EQ(f.refused.size(), size + 5);
  std::sort(f.refused.begin(), f.refused.end());
  std::size_t wave = 1;
  while (wave < f.refused.size() && f.refused[wave] - f.refused.front() < 10ms) ++wave;
  EXPECT_LE(wave, size);
  // The probes after the first wave: spaced by the back-off, not eight clocks each retrying.
  const std::vector<std::chrono::steady_clock::time_point> probes(
      f.refused.begin() + static_cast<std::ptrdiff_t>(wave) - 1, f.refused.end());
  ASSERT_GE(probes.size(), 6U);
  expect_backoff(probes, 1);
}

}  // namespace
