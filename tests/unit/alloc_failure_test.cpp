// SPDX-License-Identifier: Apache-2.0
// Every allocation of the runtime's public operations failed in turn (support/failing_allocator:
// this program's operator new fails the nth allocation of the arming thread): each failure is
// a clean std::bad_alloc from an operation that may throw, with the state as before; the paths
// that cannot report one (a post into a worker's inbox or the global queue that must grow) are
// documented to terminate, and the death tests below hold them to it.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <coroutine>
#include <new>
#include <optional>
#include <ranges>
#include <span>
#include <stdexcept>
#include <vector>

#include "shoal/batcher.hpp"
#include "shoal/sleep.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task_group.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/timeout.hpp"
#include "shoal/when_all.hpp"
#include "shoal/when_any.hpp"
#include "support/failing_allocator.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::batcher;
using shoal::task;
using shoal::testing::allocations_allowed;
using shoal::testing::manual_scheduler;
using shoal::testing::spawned;
using shoal::testing::sweep_allocation_failures;

// The outcome of a finished chain: its value, or nullopt when it failed with std::bad_alloc.
template <class T>
std::optional<T> value_or_bad_alloc(spawned<T>& s) {
  EXPECT_TRUE(s.done());
  try {
    return s.get();
  } catch (const std::bad_alloc&) {
    return std::nullopt;
  }
}

// Each sweep must have failed some allocations, or it tested nothing; the count is printed.
void expect_swept(std::uint64_t runs) {
  EXPECT_GT(runs, 0U);
  std::printf("[sweep] %llu allocations failed in turn\n", static_cast<unsigned long long>(runs));
}

// --- batcher ---------------------------------------------------------------------------------

// The bulk function; its own allocations are the test's, never failed, except in the flush test.
struct times_ten {
  std::vector<int>* sent;
  bool may_fail = false;
  std::vector<int> operator()(std::span<int> args) const {
    std::optional<allocations_allowed> own;
    if (!may_fail) own.emplace();
    sent->insert(sent->end(), args.begin(), args.end());
    std::vector<int> out;
    for (int a : args) out.push_back(a * 10);
    return out;
  }
};

task<int> call(batcher<int, int>& b, int x) {
  std::optional<int> r = co_await b(x);
  co_return r.value_or(-1);
}

constexpr int callers = 20;

// Twenty callers join (the armed part) under `options`; then, allocations allowed, everything is
// flushed. Each caller either failed to join (std::bad_alloc) or was sent exactly once, in
// arrival order, and got its own result; nothing is left pending.
void join_under_failure(const shoal::batch_options<int>& options) {
  std::optional<allocations_allowed> setup(std::in_place);
  manual_scheduler sched;
  std::vector<int> sent;
  batcher<int, int> b(times_ten{&sent}, options);
  std::vector<spawned<int>> calls;
  calls.reserve(callers);
  for (int i = 1; i <= callers; ++i) calls.push_back(sched.spawn(call(b, i)));
  setup.reset();
  sched.run_all();
  const allocations_allowed checks;
  sched.advance(10ms);
  sched.idle();
  std::vector<int> joined;
  for (int i = 1; i <= callers; ++i) {
    const std::optional<int> r = value_or_bad_alloc(calls[static_cast<std::size_t>(i - 1)]);
    if (!r) continue;
    EXPECT_EQ(*r, 10 * i);
    joined.push_back(i);
  }
  EXPECT_EQ(sent, joined);
  EXPECT_EQ(b.pending(), 0U);
}

TEST(AllocationFailure, EveryAllocationOfAJoinFailsOnlyThatCallerAndTheBatchStaysConsistent) {
  expect_swept(sweep_allocation_failures([](std::uint64_t) { join_under_failure({}); }));
}

TEST(AllocationFailure, EveryAllocationOfJoinsWithASizeLimitFailsCleanly) {
  expect_swept(
      sweep_allocation_failures([](std::uint64_t) { join_under_failure({.max_size = 7}); }));
}

TEST(AllocationFailure, EveryAllocationOfJoinsWithATimerFailsCleanly) {
  expect_swept(
      sweep_allocation_failures([](std::uint64_t) { join_under_failure({.max_wait = 10ms}); }));
}

// The flush (idle hook), the bulk call and the completion under failure: the bulk function's
// own allocation fails and every caller gets that error; nothing terminates.
TEST(AllocationFailure, EveryAllocationOfAFlushFailsTheBatchsCallersCleanly) {
  const auto runs = sweep_allocation_failures([](std::uint64_t) {
    std::optional<allocations_allowed> setup(std::in_place);
    manual_scheduler sched;
    std::vector<int> sent;
    batcher<int, int> b(times_ten{&sent, true}, {});
    std::vector<spawned<int>> calls;
    calls.reserve(callers);
    for (int i = 1; i <= callers; ++i) calls.push_back(sched.spawn(call(b, i)));
    sched.run_all();
    setup.reset();
    sched.idle();
    const allocations_allowed checks;
    for (int i = 1; i <= callers; ++i) {
      const std::optional<int> r = value_or_bad_alloc(calls[static_cast<std::size_t>(i - 1)]);
      if (r) {
        EXPECT_EQ(*r, 10 * i);
      }
    }
    EXPECT_EQ(b.pending(), 0U);
  });
  expect_swept(runs);
}

// --- task_group, when_all, when_any, timeouts --------------------------------------------------

task<int> after(shoal::duration d, int v) {
  co_await shoal::sleep_for(d);
  co_return v;
}

task<int> group_sum() {
  co_return co_await shoal::with_task_group<int>([](shoal::task_group<int>& g) -> task<int> {
    g.spawn(after(0ms, 1));
    g.spawn(after(5ms, 2));
    g.spawn(after(1h, 4));  // cancelled when the body ends
    int sum = 0;
    for (int k = 0; k < 2; ++k) sum += (co_await g.next_result())->take_value();
    co_return sum;
  });
}

task<int> combinators() {
  auto [a, b] = co_await shoal::when_all(after(1ms, 1), after(2ms, 2));
  const auto first = co_await shoal::when_any(after(1ms, 10), after(1h, 20));
  const bool slept = co_await shoal::with_timeout(3ms, shoal::sleep_for(1h));
  co_return a + b + static_cast<int>(first.index()) + (slept ? 100 : 0);
}

// when_all over views: one of 20 children (past the awaitable's inline room: a block from the frame
// allocator) and one that does not know its size and outgrows that room twice (a block, then a
// larger one).
task<int> range_sums() {
  int sum = 0;
  for (int v : co_await shoal::when_all(
           std::views::iota(0, 20) | std::views::transform([](int i) { return after(1ms, i); }))) {
    sum += v;
  }
  for (int v : co_await shoal::when_all(std::views::iota(0, 80) |
                                        std::views::filter([](int i) { return i % 2 == 0; }) |
                                        std::views::transform([](int) { return after(0ms, 1); }))) {
    sum += v;
  }
  co_return sum;
}

// Runs `make()` on a manual scheduler with the armed part covering its whole run; it ends with
// `expected` or std::bad_alloc, and leaves nothing behind (LeakSanitizer in the dev preset).
template <class Make>
void run_under_failure(Make make, int expected) {
  std::optional<allocations_allowed> setup(std::in_place);
  manual_scheduler sched;
  setup.reset();
  std::optional<spawned<int>> s;
  try {
    s.emplace(sched.spawn(make()));
  } catch (const std::bad_alloc&) {
    return;  // the chain could not be made: nothing started
  }
  for (int k = 0; k < 10 && !s->done(); ++k) sched.advance(1ms);
  const allocations_allowed checks;
  const std::optional<int> r = value_or_bad_alloc(*s);
  if (r) {
    EXPECT_EQ(*r, expected);
  }
  EXPECT_EQ(sched.timer_count(), 0U);
}

TEST(AllocationFailure, EveryAllocationOfATaskGroupFailsCleanly) {
  expect_swept(sweep_allocation_failures([](std::uint64_t) { run_under_failure(group_sum, 3); }));
}

TEST(AllocationFailure, EveryAllocationOfWhenAllWhenAnyAndTimeoutsFailsCleanly) {
  expect_swept(sweep_allocation_failures([](std::uint64_t) { run_under_failure(combinators, 3); }));
}

TEST(AllocationFailure, EveryAllocationOfWhenAllOverViewsFailsCleanly) {
  expect_swept(
      sweep_allocation_failures([](std::uint64_t) { run_under_failure(range_sums, 190 + 40); }));
}

// --- thread_pool ----------------------------------------------------------------------------

task<void> bump(std::atomic<int>& ran) {
  ran.fetch_add(1);
  co_return;
}

task<void> hop(shoal::thread_pool& pool, std::atomic<int>& ran) {
  co_await pool.schedule_on(1);
  co_await pool.schedule();
  ran.fetch_add(1);
}

// Construct, start, spawn, spawn_on, schedule (from sync_wait), stop: a failure in any of them
// is a std::bad_alloc with nothing started by it; a started pool always stops; every spawn that
// returned ran.
TEST(AllocationFailure, EveryAllocationOfAPoolsLifecycleFailsCleanly) {
  const auto runs = sweep_allocation_failures([](std::uint64_t) {
    std::optional<shoal::thread_pool> pool;
    std::atomic<int> ran{0};
    int started = 0;
    try {
      pool.emplace(shoal::thread_pool_options{.workers = 2});
      pool->start();
      pool->spawn(bump(ran));
      ++started;
      pool->spawn_on(1, bump(ran));
      ++started;
      shoal::sync_wait(hop(*pool, ran));
      ++started;
      shoal::sync_wait(pool->stop());
    } catch (const std::bad_alloc&) {
      const allocations_allowed cleanup;
      if (pool) shoal::sync_wait(pool->stop());
    }
    EXPECT_EQ(ran.load(), started);
  });
  expect_swept(runs);
}

// --- documented terminations -------------------------------------------------------------------

// A post cannot report a failure. Each queue has room made at construction (64 items in an
// inbox, 1024 in the global queue); growing past that with no memory left terminates.
TEST(AllocationFailureDeathTest, APostThatMustGrowAWorkersInboxWithNoMemoryTerminates) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  shoal::thread_pool pool({.workers = 1});  // not started: posts from here stay in its inbox
  auto post_until_it_grows = [&] {
    shoal::testing::fail_nth_allocation(1, true);
    for (int k = 0; k < 64; ++k) pool.worker(0).post(std::noop_coroutine(), true);
    shoal::testing::fail_nth_allocation(0);
    std::fprintf(stderr, "64 posts fit\n");
    shoal::testing::fail_nth_allocation(1, true);
    pool.worker(0).post(std::noop_coroutine(), true);
  };
  EXPECT_DEATH(post_until_it_grows(), "64 posts fit");
}

TEST(AllocationFailureDeathTest, APostThatMustGrowTheGlobalQueueWithNoMemoryTerminates) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  shoal::thread_pool pool({.workers = 1});  // not started: posts from here stay in the queue
  auto post_until_it_grows = [&] {
    shoal::testing::fail_nth_allocation(1, true);
    for (int k = 0; k < 1024; ++k) pool.post(std::noop_coroutine());
    shoal::testing::fail_nth_allocation(0);
    std::fprintf(stderr, "1024 posts fit\n");
    shoal::testing::fail_nth_allocation(1, true);
    pool.post(std::noop_coroutine());
  };
  EXPECT_DEATH(post_until_it_grows(), "1024 posts fit");
}

}  // namespace
