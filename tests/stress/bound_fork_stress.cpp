// SPDX-License-Identifier: Apache-2.0
// Fork trees in chains bound to a worker (issue 36): their children go onto the worker's
// owner-only bound stack (detail/bound_fork_stack.hpp), served before its pinned queue, so a
// bound tree unfolds depth first, in memory bounded by its depth, every child runs on the
// chain's worker, and stops still reach them. Two-worker pools, run under TSan and ASan in CI.
#include "shoal/detail/bound_fork_stack.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <stop_token>
#include <thread>
#include <vector>

#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task_group.hpp"
#include "shoal/when_all.hpp"
#include "shoal/when_any.hpp"
#include "shoal/yield.hpp"
#include "support/build_kind.hpp"
#include "support/fake_handle.hpp"
#include "support/frame_peak.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::as_handle;
using shoal::testing::as_index;
using shoal::testing::frame_peak;
using shoal::testing::peak_probe;
using shoal::testing::running_pool;

// Depth 25 unfolds into 240,000 frames: breadth first, tens of thousands alive at once.
constexpr int bound_fib_n = shoal::testing::slow_build ? 20 : 25;
constexpr long bound_fib_answer = shoal::testing::slow_build ? 6'765 : 75'025;

// What every child of a bound tree checks and counts: where it runs, how many frames are alive.
struct bound_tree {
  std::thread::id home;
  frame_peak frames;
  std::atomic<int> strays{0};  // children that ran on another thread than the chain's worker

  void check_here() noexcept {
    if (std::this_thread::get_id() != home) strays.fetch_add(1, std::memory_order_relaxed);
  }
};

task<long> fib_on_home(int n, bound_tree& t, peak_probe probe) {
  static_cast<void>(probe);
  t.check_here();
  if (n < 2) co_return n;
  auto [x, y] = co_await shoal::when_all(fib_on_home(n - 1, t, peak_probe(t.frames)),
                                         fib_on_home(n - 2, t, peak_probe(t.frames)));
  t.check_here();
  co_return x + y;
}

TEST(BoundForkStack, PushAllIsAllOrNothingAndPopIsNewestFirst) {
  shoal::detail::bound_fork_stack stack(4);
  auto item = [](std::size_t i) { return as_handle(10 + i); };
  EXPECT_TRUE(stack.push(as_handle(1)));
  EXPECT_FALSE(stack.push_all(4, item));  // room for 3 only: nothing pushed
  EXPECT_EQ(stack.size(), 1U);
  EXPECT_TRUE(stack.push_all(3, item));
  EXPECT_FALSE(stack.push(as_handle(99)));
  for (const std::uintptr_t expected : {12U, 11U, 10U, 1U}) {
    EXPECT_EQ(as_index(stack.pop()), expected);
  }
  EXPECT_FALSE(stack.pop());
  EXPECT_TRUE(stack.empty());
}

TEST(BoundForkTree, FibBoundToAWorkerKeepsFramesAliveBoundedByDepthAndRunsThere) {
  // Before the bound stack, a bound chain's children were posted to the worker's pinned FIFO:
  // the tree unfolded breadth first (a review measured fib(24) at 43,745 frames alive at once).
  // Depth first, per level of the path from the root: its two children's frames and their two
  // probe arguments (temporaries of the co_await's full expression): 4 x depth, asserted 8 x.
  running_pool rp(2);
  bound_tree t;
  auto body = [&]() -> task<long> {
    co_await rp.pool.schedule_on(1);
    t.home = std::this_thread::get_id();
    co_return co_await fib_on_home(bound_fib_n, t, peak_probe(t.frames));
  };
  EXPECT_EQ(shoal::sync_wait(body()), bound_fib_answer);
  EXPECT_EQ(t.frames.live.load(), 0);
  EXPECT_EQ(t.strays.load(), 0) << "a bound child ran on another worker";
  std::printf("bound fib(%d): at most %ld frames alive at once\n", bound_fib_n,
              t.frames.peak.load());
  EXPECT_LE(t.frames.peak.load(), 8L * bound_fib_n) << "frames alive at once: not bounded by depth";
}

TEST(BoundForkTree, ABoundTreeRunsDepthFirstAndLeftToRight) {
  // Breadth first (the pinned FIFO) ran 11, 21, 12, 22: each parent's second child waited behind
  // its uncle. Depth first, a subtree ends before its right sibling starts.
  running_pool rp(2);
  std::vector<int> order;  // touched only on worker 0
  auto leaf = [&](int id) -> task<int> {
    order.push_back(id);
    co_return id;
  };
  auto node = [&](int id) -> task<int> {
    auto [a, b] = co_await shoal::when_all(leaf(10 * id + 1), leaf(10 * id + 2));
    co_return a + b;
  };
  auto body = [&]() -> task<int> {
    co_await rp.pool.schedule_on(0);
    auto [a, b] = co_await shoal::when_all(node(1), node(2));
    co_return a + b;
  };
  EXPECT_EQ(shoal::sync_wait(body()), 11 + 12 + 21 + 22);
  EXPECT_EQ(order, (std::vector<int>{11, 12, 21, 22}));
}

TEST(BoundForkTree, ABoundWhenAllWiderThanTheStackIsPostedInOrderOnItsWorker) {
  // 3,000 children: more than the bound stack holds (1,024), so they are posted to the pinned
  // queue, in order; a nested one of 600 still fits on the stack. Every value comes back in
  // order, every child on the chain's worker.
  running_pool rp(2);
  std::atomic<int> strays{0};
  std::thread::id home;
  auto leaf = [&](int i) -> task<int> {
    if (std::this_thread::get_id() != home) strays.fetch_add(1);
    co_return i;
  };
  auto wide = [&](int base, int n) -> task<long> {
    std::vector<task<int>> children;
    children.reserve(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) children.push_back(leaf(base + i));
    long sum = 0;
    int expected = base;
    for (int v : co_await shoal::when_all(std::move(children))) {
      EXPECT_EQ(v, expected++);
      sum += v;
    }
    co_return sum;
  };
  auto body = [&]() -> task<long> {
    co_await rp.pool.schedule_on(1);
    home = std::this_thread::get_id();
    auto [a, b] = co_await shoal::when_all(wide(0, 3000), wide(3000, 600));
    co_return a + b;
  };
  EXPECT_EQ(shoal::sync_wait(body()), 3599L * 3600 / 2);
  EXPECT_EQ(strays.load(), 0);
}

TEST(BoundForkTree, WhenAnyInABoundChainCancelsTheLoserWaitingOnTheStack) {
  // The first child runs inline and suspends in a long sleep; the second, popped from the bound
  // stack, wins at once: its stop must reach the sleeper, which ends on the chain's worker.
  running_pool rp(2);
  std::atomic<int> strays{0};
  auto body = [&]() -> task<std::size_t> {
    co_await rp.pool.schedule_on(0);
    const std::thread::id home = std::this_thread::get_id();
    auto sleeper = [&]() -> task<int> {
      co_await shoal::sleep_for(1h);
      if (std::this_thread::get_id() != home) strays.fetch_add(1);
      co_return shoal::stop_requested() ? -1 : 0;
    };
    auto quick = [&]() -> task<int> { co_return 1; };
    std::size_t won = 0;
    for (int i = 0; i < 50; ++i) won += (co_await shoal::when_any(sleeper(), quick())).index();
    co_return won;
  };
  EXPECT_EQ(shoal::sync_wait(body()), 50U);
  EXPECT_EQ(strays.load(), 0);
}

// A bound tree whose leaves keep forking pairs until a stop comes (bounded by `give_up`); some
// leaves sleep, which makes the lazy stops on their path concrete stop sources.
struct stopped_tree {
  bound_tree where;
  std::atomic<long> leaves{0};
  std::atomic<long> gave_up{0};  // bottom loops that ended at give_up, the stop never seen
};
task<void> bound_leaf(stopped_tree& s, long i, peak_probe probe) {
  static_cast<void>(probe);
  s.where.check_here();
  if (i % 61 == 0) co_await shoal::sleep_for(5us);
  s.leaves.fetch_add(1, std::memory_order_relaxed);
}
task<void> grow_bound(stopped_tree& s, int depth, std::chrono::steady_clock::time_point give_up) {
  s.where.check_here();
  if (depth > 0) {
    co_await shoal::when_all(grow_bound(s, depth - 1, give_up), grow_bound(s, depth - 1, give_up));
    co_return;
  }
  long i = 0;
  while (!shoal::stop_requested() && std::chrono::steady_clock::now() < give_up) {
    co_await shoal::when_all(bound_leaf(s, i, peak_probe(s.where.frames)),
                             bound_leaf(s, i + 1, peak_probe(s.where.frames)));
    i += 2;
  }
  if (!shoal::stop_requested()) s.gave_up.fetch_add(1);
}

TEST(BoundForkTree, AStopFromAnotherThreadReachesEveryBoundChild) {
  running_pool rp(2);
  stopped_tree s;
  std::stop_source stop;
  // A bound for a broken stop only (under ctest's timeout): what is asserted is how loops ended.
  const auto give_up = std::chrono::steady_clock::now() + 200s;
  std::atomic<bool> done{false};
  auto body = [&]() -> task<void> {
    co_await rp.pool.schedule_on(1);
    s.where.home = std::this_thread::get_id();
    co_await shoal::with_stop_token(stop.get_token(), grow_bound(s, 8, give_up));
    done.store(true);
  };
  std::thread requester([&] {
    while (s.leaves.load() < 5'000 && !done.load()) std::this_thread::yield();
    stop.request_stop();
  });
  shoal::sync_wait(body());
  requester.join();
  EXPECT_EQ(s.gave_up.load(), 0) << "the stop never reached a bound leaf";
  EXPECT_GE(s.leaves.load(), 5'000);
  EXPECT_EQ(s.where.frames.live.load(), 0);
  EXPECT_EQ(s.where.strays.load(), 0);
}

TEST(BoundForkTree, ABoundTaskGroupRunsItsChildrenOnItsWorkerAndCancelsThemAtItsEnd) {
  // Children spawned by a bound body wait on the bound stack until the body suspends; those
  // still sleeping when the body returns are cancelled and drained.
  running_pool rp(2);
  std::atomic<int> strays{0};
  std::atomic<int> cancelled{0};
  auto body = [&]() -> task<long> {
    co_await rp.pool.schedule_on(0);
    const std::thread::id home = std::this_thread::get_id();
    auto child = [&](int i) -> task<int> {
      if (i % 2 == 1) {
        co_await shoal::sleep_for(1h);
        if (shoal::stop_requested()) cancelled.fetch_add(1);
      }
      if (std::this_thread::get_id() != home) strays.fetch_add(1);
      co_return i;
    };
    co_return co_await shoal::with_task_group<int>(
        [&](shoal::task_group<int>& group) -> task<long> {
          for (int i = 0; i < 200; ++i) group.spawn(child(i));
          long sum = 0;
          for (int taken = 0; taken < 100; ++taken)
            sum += (co_await group.next_result())->take_value();
          co_return sum;  // the 100 sleepers are left to the group's end
        });
  };
  EXPECT_EQ(shoal::sync_wait(body()), 2L * (99L * 100 / 2));  // the even ones: 0 + 2 + ... + 198
  EXPECT_EQ(cancelled.load(), 100);
  EXPECT_EQ(strays.load(), 0);
}

// Bound and unbound trees at once on both workers: each worker's fork deque (stolen from) and
// bound stack (never) both busy, subtrees rebinding their chains both ways in the middle.
task<long> mixed_tree(int depth, bool bound, shoal::thread_pool& pool, std::atomic<int>& strays) {
  if (depth == 0) {
    const std::thread::id here = std::this_thread::get_id();
    co_await shoal::yield();  // a bound leaf's yield is pinned: it must come back here
    if (bound && std::this_thread::get_id() != here) strays.fetch_add(1);
    co_return 1;
  }
  if (depth == 3) {  // the middle of the tree changes its binding (a child's own chain only)
    if (bound) {
      co_await pool.schedule();
    } else {
      co_await pool.schedule_on(1);
    }
    bound = !bound;
  }
  const std::thread::id before = std::this_thread::get_id();
  auto [a, b] = co_await shoal::when_all(mixed_tree(depth - 1, bound, pool, strays),
                                         mixed_tree(depth - 1, bound, pool, strays));
  if (bound && std::this_thread::get_id() != before) strays.fetch_add(1);
  co_return a + b;
}

TEST(BoundForkStress, BoundAndUnboundTreesOnBothWorkersKeepEveryBoundChildOnItsWorker) {
  running_pool rp(2);
  constexpr int roots = shoal::testing::slow_build ? 16 : 64;
  constexpr int depth = 7;
  std::atomic<int> strays{0};
  std::atomic<long> total{0};
  std::atomic<int> ended{0};
  auto root = [&](int i) -> task<void> {
    total.fetch_add(co_await mixed_tree(depth, i % 2 == 0, rp.pool, strays));
    ended.fetch_add(1);
  };
  for (int i = 0; i < roots; ++i) {
    if (i % 2 == 0) {
      rp.pool.spawn_on(static_cast<std::size_t>(i / 2) % 2, root(i));
    } else {
      rp.pool.spawn(root(i));
    }
  }
  ASSERT_TRUE(shoal::testing::eventually([&] { return ended.load() == roots; }));
  EXPECT_EQ(total.load(), static_cast<long>(roots) << depth);
  EXPECT_EQ(strays.load(), 0) << "a bound child or parent resumed off its worker";
}

}  // namespace
