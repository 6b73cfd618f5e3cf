// SPDX-License-Identifier: Apache-2.0
// shoal::detached_task: a spawned coroutine that is its own root (one frame per chain).
#include "shoal/detached_task.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <latch>
#include <stdexcept>
#include <stop_token>
#include <string>

#include "shoal/async_event.hpp"
#include "shoal/frame_allocator.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::detached_task;
using shoal::task;
using shoal::testing::running_pool;
using shoal::testing::stop_error;

// Counts its live copies: a parameter of the coroutine lives exactly as long as its frame.
struct frame_witness {
  explicit frame_witness(std::atomic<int>& live) : live_(&live) { live_->fetch_add(1); }
  frame_witness(const frame_witness& other) : live_(other.live_) { live_->fetch_add(1); }
  frame_witness& operator=(const frame_witness&) = delete;
  ~frame_witness() { live_->fetch_sub(1); }

 private:
  std::atomic<int>* live_;
};

struct observed {
  std::atomic<int> body_saw_token{0};
  std::atomic<int> child_saw_token{0};
  std::atomic<int> woke_by_stop{0};
  std::atomic<int> wrong_worker{0};
};

task<bool> child_sees(const std::stop_source& source) {
  co_return shoal::current_stop_token() == source.get_token();
}

detached_task sleeper(shoal::thread_pool& pool, std::size_t k, const std::stop_source& source,
                      observed& seen, std::latch& asleep, std::latch& ended) {
  if (shoal::current_stop_token() == source.get_token()) seen.body_saw_token.fetch_add(1);
  if (shoal::executor::current() != &pool.worker(k)) seen.wrong_worker.fetch_add(1);
  // Each co_await's result in a variable first: g++ 12 miscompiles `if (!co_await sleep...)` in
  // this coroutine (a task<void> too: SIGILL on the first resumption, at -O0 and -O3 alike).
  const bool child_saw = co_await child_sees(source);
  if (child_saw) seen.child_saw_token.fetch_add(1);
  asleep.count_down();
  const bool slept = co_await shoal::sleep_for(1h);
  if (!slept) seen.woke_by_stop.fetch_add(1);
  if (shoal::executor::current() != &pool.worker(k)) seen.wrong_worker.fetch_add(1);
  ended.count_down();
}

// The token given to spawn_on is the chain's from the body's first line: the body and the tasks
// it awaits see it, a sleep wakes on its stop, and every resumption is on worker k.
TEST(DetachedTask, RunsItsWholeChainBoundToItsWorkerUnderTheToken) {
  running_pool p(2);
  std::stop_source source;
  observed seen;
  std::latch asleep(4);
  std::latch ended(4);
  for (std::size_t i = 0; i < 4; ++i) {
    const std::size_t k = i % 2;
    p.pool.spawn_on(k, sleeper(p.pool, k, source, seen, asleep, ended), source.get_token());
  }
  asleep.wait();
  source.request_stop();
  ended.wait();
  EXPECT_EQ(seen.body_saw_token.load(), 4);
  EXPECT_EQ(seen.child_saw_token.load(), 4);
  EXPECT_EQ(seen.woke_by_stop.load(), 4);
  EXPECT_EQ(seen.wrong_worker.load(), 0);
}

detached_task wait_on(shoal::async_event& event, frame_witness /*witness*/, std::latch& waiting) {
  waiting.count_down();
  co_await event.wait();
}

// The pool counts a spawned detached_task as its spawned work until its frame ends (stop refuses
// to strand it), and the frame destroys itself when the body ends.
TEST(DetachedTask, IsCountedByItsPoolUntilItsFrameDestroysItself) {
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  shoal::async_event event;
  std::atomic<int> live{0};
  std::latch waiting(1);
  pool.spawn_on(1, wait_on(event, frame_witness(live), waiting), std::stop_token{});
  waiting.wait();
  EXPECT_EQ(live.load(), 1);
  const std::string refused = stop_error(pool);
  EXPECT_NE(refused.find("refused: 1 chain"), std::string::npos) << refused;
  event.set();
  EXPECT_EQ(stop_error(pool), "");
  EXPECT_EQ(live.load(), 0);
}

task<void> wait_as_task(shoal::async_event& event, frame_witness /*witness*/, std::latch& waiting) {
  waiting.count_down();
  co_await event.wait();
}

std::uint64_t frames_allocated_here() { return shoal::this_thread_frame_stats().allocations; }

// What it is for: a spawned chain is one frame, where a spawned task<void> is two (its own and
// the root around it).
TEST(DetachedTask, ASpawnedChainIsOneFrameWhereASpawnedTaskIsTwo) {
  shoal::async_event event;
  std::atomic<int> live{0};
  std::latch waiting(2);
  running_pool p(1);  // stopped first, once both chains have ended
  const std::uint64_t before = frames_allocated_here();
  p.pool.spawn_on(0, wait_on(event, frame_witness(live), waiting), std::stop_token{});
  const std::uint64_t detached = frames_allocated_here() - before;
  p.pool.spawn_on(0, wait_as_task(event, frame_witness(live), waiting), std::stop_token{});
  const std::uint64_t spawned_task = frames_allocated_here() - before - detached;
  waiting.wait();
  EXPECT_EQ(detached, 1U);
  EXPECT_EQ(spawned_task, 2U);
  event.set();
}

// Never spawned, or refused by spawn_on (no such worker): the frame is destroyed, never run.
TEST(DetachedTask, NotSpawnedItsFrameIsDestroyedWithoutRunning) {
  running_pool p(1);
  shoal::async_event event;
  std::atomic<int> live{0};
  std::latch waiting(1);
  {
    const detached_task unspawned = wait_on(event, frame_witness(live), waiting);
    EXPECT_EQ(live.load(), 1);
  }
  EXPECT_EQ(live.load(), 0);
  EXPECT_THROW(p.pool.spawn_on(1, wait_on(event, frame_witness(live), waiting), {}),
               std::out_of_range);
  EXPECT_EQ(live.load(), 0);
  EXPECT_EQ(waiting.try_wait(), false);
}

}  // namespace
