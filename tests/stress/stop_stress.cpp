// SPDX-License-Identifier: Apache-2.0
// Stop requests racing with sleeps and timeouts on a real two-worker pool (run under TSan).
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <stop_token>
#include <thread>

#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/timeout.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::running_pool;

// The sleeps last an hour: every sleeper that ends, ends because of the stop (a sleep cut short
// reports false), and none could have ended by its time within the test's timeout.
TEST(StopStress, AStopFromAnotherThreadWakesTenThousandSleepersAtOnce) {
  running_pool p(2);
  constexpr int sleepers = 10'000;
  std::stop_source source;
  std::atomic<int> woke_by_time{0};
  std::latch started(sleepers);
  std::latch all(sleepers);
  auto sleeper = [&]() -> task<> {
    started.count_down();
    if (co_await shoal::sleep_for(1h)) woke_by_time.fetch_add(1);
    all.count_down();
  };
  for (int i = 0; i < sleepers; ++i) {
    p.pool.spawn_on(static_cast<std::size_t>(i % 2),
                    shoal::with_stop_token(source.get_token(), sleeper()));
  }
  started.wait();  // every sleeper runs (the last ones may still be arming their timers)
  source.request_stop();
  all.wait();
  EXPECT_EQ(woke_by_time.load(), 0);
}

TEST(StopStress, StopsRacingWithExpiringSleepsLoseNothing) {
  running_pool p(2);
  constexpr int rounds = 2'000;
  std::atomic<int> finished{0};
  std::latch all(rounds);
  auto sleeper = [&]() -> task<> {
    co_await shoal::sleep_for(200us);  // expires at about the time the stop arrives
    finished.fetch_add(1);
    all.count_down();
  };
  std::vector<std::stop_source> sources(rounds);
  for (int i = 0; i < rounds; ++i) {
    p.pool.spawn(
        shoal::with_stop_token(sources[static_cast<std::size_t>(i)].get_token(), sleeper()));
  }
  for (auto& s : sources) {
    s.request_stop();
    std::this_thread::yield();
  }
  all.wait();
  EXPECT_EQ(finished.load(), rounds);
}

TEST(StopStress, TimeoutsOnUnboundChainsThatMigrateBetweenWorkers) {
  running_pool p(2);
  constexpr int chains = 2'000;
  std::atomic<int> timed_out{0};
  std::latch all(chains);
  auto hop_then_sleep = [&](int i) -> task<bool> {
    co_await p.pool.schedule_on(static_cast<std::size_t>(i % 2));
    co_await p.pool.schedule();  // unbound again: may migrate
    co_return co_await shoal::sleep_for(i % 2 == 0 ? 60s : 0s);
  };
  // Even chains cannot finish before their timeout; odd ones cannot miss theirs.
  auto chain = [&](int i) -> task<> {
    const shoal::duration limit = i % 2 == 0 ? shoal::duration(5ms) : shoal::duration(60s);
    if (!co_await shoal::with_timeout(limit, hop_then_sleep(i))) timed_out.fetch_add(1);
    all.count_down();
  };
  for (int i = 0; i < chains; ++i) p.pool.spawn(chain(i));
  all.wait();
  EXPECT_EQ(timed_out.load(), chains / 2);
}

}  // namespace
