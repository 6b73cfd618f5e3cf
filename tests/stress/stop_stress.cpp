// SPDX-License-Identifier: Apache-2.0
// Stop requests racing with sleeps and timeouts on a real two-worker pool, and with callbacks
// registered on a fork scope's lazy stop (run under TSan).
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <barrier>
#include <chrono>
#include <latch>
#include <memory>
#include <stop_token>
#include <thread>

#include "shoal/detail/host_stop_callback.hpp"
#include "shoal/detail/lazy_stop.hpp"
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

// Callbacks on a nested fork scope's lazy stop, registered and removed on one thread while
// another stops the scope or its parent: a callback still registered at the stop runs exactly
// once, and one removed never runs after its removal returned, whichever wins each race (the
// registration, the link to the parent, the run).
struct bump_lazy_runs {
  std::atomic<int>* runs;
  void operator()() const noexcept { runs->fetch_add(1, std::memory_order_relaxed); }
};

struct lazy_round {
  shoal::detail::lazy_stop outer;
  shoal::detail::lazy_stop inner{shoal::detail::stop_ref(outer)};
  std::array<std::atomic<int>, 4> runs{};
};

TEST(StopStress, LazyStopCallbacksRaceWithStopsFromAnotherThread) {
  using shoal::detail::stop_ref;
  constexpr int rounds = 3'000;
  std::barrier sync(2);
  std::unique_ptr<lazy_round> round;
  std::thread stopper([&] {
    for (int i = 0; i < rounds; ++i) {
      sync.arrive_and_wait();  // the round is made
      if (i % 2 == 0) {
        round->inner.request_stop();
      } else {
        round->outer.request_stop();
      }
      sync.arrive_and_wait();  // the stop has returned
    }
  });
  int lost = 0;
  int late = 0;
  for (int i = 0; i < rounds; ++i) {
    round = std::make_unique<lazy_round>();
    sync.arrive_and_wait();
    std::array<shoal::detail::host_stop_callback<bump_lazy_runs>, 4> callbacks;
    for (std::size_t k = 0; k < 4; ++k) {
      callbacks[k].emplace(stop_ref(round->inner), bump_lazy_runs{&round->runs[k]});
    }
    callbacks[0].reset();
    const int first = round->runs[0].load(std::memory_order_relaxed);
    callbacks[1].reset();
    const int second = round->runs[1].load(std::memory_order_relaxed);
    sync.arrive_and_wait();
    if (round->runs[0].load() != first || round->runs[1].load() != second) ++late;
    if (first > 1 || second > 1) ++lost;
    for (std::size_t k : {2U, 3U}) {
      if (round->runs[k].load() != 1) ++lost;
      callbacks[k].reset();
    }
  }
  stopper.join();
  EXPECT_EQ(lost, 0);
  EXPECT_EQ(late, 0);
}

}  // namespace
