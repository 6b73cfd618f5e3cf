// SPDX-License-Identifier: Apache-2.0
// thread_pool::stop racing with the end of the spawned chains it waits for, with other stops,
// and with the stop requests that end those chains, on real threads (run under TSan): every
// stop is either refused while a spawned chain is still suspended, or completes once none is;
// no stop hangs and no chain is stranded.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <vector>

#include "shoal/async_event.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;

task<void> wait_then_count(shoal::async_event& event, std::atomic<int>& ended) {
  co_await event.wait();
  co_await shoal::sleep_for(100us);
  ended.fetch_add(1);
}

// Stops until one succeeds; returns how many were refused.
int stop_until_stopped(shoal::thread_pool& pool) {
  for (int refused = 0;; ++refused) {
    try {
      shoal::sync_wait(pool.stop());
      return refused;
    } catch (const std::logic_error&) {
      std::this_thread::yield();
    }
  }
}

TEST(PoolStopStress, StopsRacingTheEndOfSuspendedChainsAreRefusedUntilNoneIsLeft) {
  constexpr int rounds = 200;
  constexpr int chains = 16;
  int refusals = 0;
  for (int round = 0; round < rounds; ++round) {
    shoal::thread_pool pool({.workers = 2});
    pool.start();
    shoal::async_event release;
    std::stop_source cancel;
    std::atomic<int> ended{0};
    for (int i = 0; i < chains; ++i) {
      auto chain = wait_then_count(release, ended);
      if (i % 2 == 0) {
        pool.spawn_on(static_cast<std::size_t>(i / 2 % 2),
                      shoal::with_stop_token(cancel.get_token(), std::move(chain)));
      } else {
        pool.spawn(std::move(chain));
      }
    }
    std::atomic<int> refused{0};
    std::thread other([&] { refused.fetch_add(stop_until_stopped(pool)); });
    std::thread ender([&] {
      std::this_thread::sleep_for(std::chrono::microseconds(round % 7 * 50));
      cancel.request_stop();
      release.set();
    });
    refused.fetch_add(stop_until_stopped(pool));
    other.join();
    ender.join();
    EXPECT_EQ(ended.load(), chains);  // a completed stop strands none
    refusals += refused.load();
  }
  std::printf("[pool_stop_stress] %d refusals over %d rounds\n", refusals, rounds);
}

}  // namespace
