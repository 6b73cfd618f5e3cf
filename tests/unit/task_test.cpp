// SPDX-License-Identifier: Apache-2.0
// shoal::task: laziness, values, references, exceptions, ownership, and constant-stack chains.
#include "shoal/task.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "shoal/frame_allocator.hpp"
#include "shoal/sync_wait.hpp"
#include "support/counted.hpp"

namespace {

using shoal::task;
using shoal::testing::counted;

task<int> forty_two() { co_return 42; }
task<int> add_one(task<int> inner) { co_return co_await std::move(inner) + 1; }
task<> throws_runtime_error() {
  throw std::runtime_error("boom");
  co_return;
}

TEST(Task, ReturnsTheValueOfItsBody) { EXPECT_EQ(shoal::sync_wait(forty_two()), 42); }

TEST(Task, AwaitsNestedTasks) { EXPECT_EQ(shoal::sync_wait(add_one(add_one(forty_two()))), 44); }

TEST(Task, DoesNotStartUntilAwaited) {
  bool started = false;
  auto body = [&]() -> task<> {
    started = true;
    co_return;
  };
  task<> t = body();
  EXPECT_FALSE(started);
  shoal::sync_wait(std::move(t));
  EXPECT_TRUE(started);
}

TEST(Task, DestroyedWithoutAwaitNeverRunsAndFreesItsFrame) {
  counted::reset();
  bool started = false;
  {
    auto body = [&](counted c) -> task<int> {
      started = true;
      co_return c.value;
    };
    task<int> t = body(counted(7));
    EXPECT_EQ(counted::alive, 1);  // the parameter copy lives in the frame
  }
  EXPECT_FALSE(started);
  EXPECT_EQ(counted::alive, 0);
}

TEST(Task, RethrowsTheBodysExceptionAtTheAwait) {
  auto caller = []() -> task<std::string> {
    try {
      co_await throws_runtime_error();
    } catch (const std::runtime_error& e) {
      co_return e.what();
    }
    co_return "no exception";
  };
  EXPECT_EQ(shoal::sync_wait(caller()), "boom");
  EXPECT_THROW(shoal::sync_wait(throws_runtime_error()), std::runtime_error);
}

TEST(Task, MovesItsResultOutWithoutCopying) {
  counted::reset();
  auto make = []() -> task<counted> { co_return counted(5); };
  auto caller = [&]() -> task<int> {
    counted c = co_await make();
    co_return c.value;
  };
  EXPECT_EQ(shoal::sync_wait(caller()), 5);
  EXPECT_EQ(counted::copies, 0);
  EXPECT_EQ(counted::alive, 0);
}

TEST(Task, ReferenceTaskReturnsTheSameObject) {
  int target = 1;
  auto ref = [&]() -> task<int&> { co_return target; };
  auto caller = [&]() -> task<> {
    int& r = co_await ref();
    r = 9;
    co_return;
  };
  shoal::sync_wait(caller());
  EXPECT_EQ(target, 9);
}

TEST(Task, LvalueAwaitGivesAReferenceIntoTheTask) {
  auto caller = []() -> task<int> {
    task<int> t = forty_two();
    int& v = co_await t;
    v += 1;
    co_return v;
  };
  EXPECT_EQ(shoal::sync_wait(caller()), 43);
}

TEST(Task, IsMoveOnlyAndEmptyAfterMove) {
  static_assert(!std::is_copy_constructible_v<task<int>>);
  static_assert(std::is_nothrow_move_constructible_v<task<int>>);
  task<int> a = forty_two();
  task<int> b = std::move(a);
  EXPECT_FALSE(a.valid());  // NOLINT(bugprone-use-after-move): checking the moved-from state
  EXPECT_TRUE(b.valid());
  EXPECT_EQ(shoal::sync_wait(std::move(b)), 42);
}

task<int> one() { co_return 1; }

// The guarantee of shoal/detail/transfer.hpp: ten million synchronously completing awaits in one
// loop run in constant stack, whatever the compiler and flags of this build.
TEST(Task, TenMillionSynchronousAwaitsRunInConstantStack) {
  auto loop = []() -> task<long> {
    long sum = 0;
    for (int i = 0; i < 10'000'000; ++i) sum += co_await one();
    co_return sum;
  };
  EXPECT_EQ(shoal::sync_wait(loop()), 10'000'000);
}

// The same, as a deep recursion of tasks that each await the next: stack depth is the chain.
task<int> depth(int n) {
  if (n == 0) co_return 0;
  co_return co_await depth(n - 1) + 1;
}

TEST(Task, AHundredThousandDeepChainCompletes) {
  EXPECT_EQ(shoal::sync_wait(depth(100'000)), 100'000);
}

TEST(FrameAllocator, SteadyStateAwaitsDoNotReachTheSystemAllocator) {
  if (!shoal::frame_recycling_enabled()) GTEST_SKIP() << "sanitizer build: recycling is off";
  auto loop = []() -> task<long> {
    long sum = 0;
    for (int i = 0; i < 1000; ++i) sum += co_await one();
    co_return sum;
  };
  shoal::sync_wait(loop());  // warm the caches
  const auto before = shoal::this_thread_frame_stats();
  EXPECT_EQ(shoal::sync_wait(loop()), 1000);
  const auto after = shoal::this_thread_frame_stats();
  EXPECT_GE(after.allocations - before.allocations, 1000u);
  EXPECT_EQ(after.system_allocations, before.system_allocations);
}

}  // namespace
