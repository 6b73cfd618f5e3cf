// SPDX-License-Identifier: Apache-2.0
// An idle worker and a producer preempted in the middle of a push to the global ring (issue 27,
// item 4): the producer has claimed a cell and not yet published it, so the ring reads as
// non-empty while nothing can be taken from it. The idle worker used to cycle park -> recheck
// -> leave_idle -> next_remote -> park without ever sleeping, for as long as the producer was
// descheduled ("an idle pool burns no CPU"). The probe (pool/mpmc_ring.hpp) holds the producer
// exactly there, so the window is as long as the test needs, every run.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <latch>
#include <thread>

#include "pool/mpmc_ring.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace {

using namespace std::chrono_literals;

std::atomic<bool> claim_probe_armed{false};
std::atomic<bool> busy_may_return{false};
std::atomic<bool> slept_during_claim{false};
shoal::thread_pool* probed_pool = nullptr;

// The producer's probe, between its claim and its publication: lets the worker's only task
// return, then waits (bounded: a wall-clock wait for another thread, never a timing check) for
// the now idle worker to go to sleep, with the claimed cell still unpublished.
void hold_the_claim() noexcept {
  if (!claim_probe_armed.exchange(false)) return;
  const std::uint64_t parked_before = probed_pool->stats(0).parked;
  busy_may_return.store(true);
  for (int i = 0; i < 10'000 && probed_pool->stats(0).parked == parked_before; ++i) {
    std::this_thread::sleep_for(1ms);
  }
  slept_during_claim.store(probed_pool->stats(0).parked != parked_before);
}

TEST(IdleWorker, SleepsWhileAPushToTheGlobalQueueIsClaimedButNotPublished) {
  shoal::thread_pool pool({.workers = 1});
  probed_pool = &pool;
  pool.start();
  std::latch busy(1);
  pool.spawn([](std::latch& started) -> shoal::task<> {
    started.count_down();
    while (!busy_may_return.load()) std::this_thread::sleep_for(100us);
    co_return;
  }(busy));
  busy.wait();  // the worker runs the task above: the next spawn goes to the global ring
  std::atomic<bool> ran{false};
  claim_probe_armed.store(true);
  shoal::detail::mpmc_push_claimed_probe = &hold_the_claim;
  pool.spawn([](std::atomic<bool>& done) -> shoal::task<> {
    done.store(true);
    co_return;
  }(ran));
  shoal::detail::mpmc_push_claimed_probe = nullptr;
  EXPECT_FALSE(claim_probe_armed.load()) << "the spawn never reached the probe";
  EXPECT_TRUE(slept_during_claim.load())
      << "the idle worker never slept while the push was claimed and unpublished";
  shoal::sync_wait(pool.stop());
  EXPECT_TRUE(ran.load());
}

}  // namespace
