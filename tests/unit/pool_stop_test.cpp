// SPDX-License-Identifier: Apache-2.0
// shoal::thread_pool::stop and the coroutines still suspended when the pool runs out of work:
// stop waits for armed timers, refuses (and keeps the pool running) while chains started by
// spawn/spawn_on are suspended on anything else, and succeeds once they have ended.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <stdexcept>
#include <stop_token>
#include <string>

#include "shoal/async_event.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::thread_pool;
using shoal::testing::stop_error;

task<void> wait_for(shoal::async_event& event, std::latch& waiting, std::atomic<bool>& ended) {
  waiting.count_down();
  co_await event.wait();  // a stop of the chain's token wakes it too
  ended.store(true);
}

task<void> sleep_then_mark(std::latch& sleeping, std::atomic<bool>& ended) {
  sleeping.count_down();
  co_await shoal::sleep_for(30ms);
  ended.store(true);
}

TEST(PoolStop, RefusesWhileASpawnedChainWaitsOnAnEventAndKeepsThePoolRunning) {
  thread_pool pool({.workers = 2});
  pool.start();
  shoal::async_event never_set;
  std::latch waiting(1);
  std::atomic<bool> ended{false};
  pool.spawn(wait_for(never_set, waiting, ended));
  waiting.wait();
  const std::string refused = stop_error(pool);
  EXPECT_NE(refused.find("refused: 1 chain"), std::string::npos) << refused;
  EXPECT_FALSE(ended.load());
  // Still running: new work runs, and the stranded chain can be ended.
  std::atomic<bool> ran{false};
  pool.spawn([](std::atomic<bool>& flag) -> task<void> {
    flag.store(true);
    co_return;
  }(ran));
  never_set.set();
  EXPECT_EQ(stop_error(pool), "");
  EXPECT_TRUE(ended.load());
  EXPECT_TRUE(ran.load());
}

// Before stop refused, the chain's stop callback outlived the pool and posted into freed
// workers when its token was stopped (ASan: heap-use-after-free).
TEST(PoolStop, AChainEndedThroughItsStopTokenAfterARefusalLetsTheNextStopSucceed) {
  std::stop_source cancel;
  shoal::async_event never_set;
  std::atomic<bool> ended{false};
  {
    thread_pool pool({.workers = 2});
    pool.start();
    std::latch waiting(1);
    pool.spawn_on(1,
                  shoal::with_stop_token(cancel.get_token(), wait_for(never_set, waiting, ended)));
    waiting.wait();
    EXPECT_NE(stop_error(pool), "");
    cancel.request_stop();
    EXPECT_EQ(stop_error(pool), "");
    EXPECT_TRUE(ended.load());
  }
  cancel.request_stop();  // nothing of the pool is left to reach
}

TEST(PoolStop, WaitsForASleepInProgressToEnd) {
  thread_pool pool({.workers = 2});
  pool.start();
  std::latch sleeping(1);
  std::atomic<bool> ended{false};
  pool.spawn_on(0, sleep_then_mark(sleeping, ended));
  sleeping.wait();
  EXPECT_EQ(stop_error(pool), "");
  EXPECT_TRUE(ended.load());  // resumed by its timer before the workers exited
}

TEST(PoolStop, SeveralConcurrentStopsAreAllRefusedThenAllSucceed) {
  thread_pool pool({.workers = 2});
  pool.start();
  shoal::async_event never_set;
  std::latch waiting(2);
  std::atomic<bool> ended{false};
  pool.spawn(wait_for(never_set, waiting, ended));
  pool.spawn(wait_for(never_set, waiting, ended));
  waiting.wait();
  std::string first;
  std::string second;
  std::thread other([&] { second = stop_error(pool); });
  first = stop_error(pool);
  other.join();
  EXPECT_NE(first.find("refused: 2 chain"), std::string::npos) << first;
  EXPECT_NE(second, "");
  never_set.set();
  std::thread again([&] { second = stop_error(pool); });
  first = stop_error(pool);
  again.join();
  EXPECT_EQ(first, "");
  EXPECT_EQ(second, "");
}

}  // namespace
