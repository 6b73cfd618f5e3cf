// SPDX-License-Identifier: Apache-2.0
// when_all, when_any and task_group on a real two-worker pool (run under TSan): children that
// end on the other worker than their parent, stop requests from another thread at random
// moments, failures, and races between near-simultaneous ends. Each test checks that every
// child's frame was destroyed before its parent went on, and that nothing was lost.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <latch>
#include <random>
#include <ranges>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <utility>
#include <vector>

#include "shoal/async_event.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task_group.hpp"
#include "shoal/when_all.hpp"
#include "shoal/when_any.hpp"
#include "shoal/yield.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::running_pool;

// Counts live child frames: one per probe held by a frame, on any thread.
class live_probe {
 public:
  explicit live_probe(std::atomic<int>& live) noexcept : live_(&live) {
    live_->fetch_add(1, std::memory_order_relaxed);
  }
  live_probe(live_probe&& other) noexcept : live_(std::exchange(other.live_, nullptr)) {}
  live_probe(const live_probe&) = delete;
  live_probe& operator=(const live_probe&) = delete;
  live_probe& operator=(live_probe&&) = delete;
  ~live_probe() {
    if (live_ != nullptr) live_->fetch_sub(1, std::memory_order_relaxed);
  }

 private:
  std::atomic<int>* live_;
};

// A child doing a little of everything: yields (which may move it to the other worker), maybe
// sleeps a few microseconds, then returns `value`.
task<int> busy_child(int value, unsigned shape, live_probe probe) {
  static_cast<void>(probe);
  for (unsigned i = 0; i < shape % 4; ++i) co_await shoal::yield();
  if (shape % 3 == 0) co_await shoal::sleep_for(std::chrono::microseconds(shape % 50));
  co_return value;
}

task<int> failing_child(unsigned shape, live_probe probe) {
  static_cast<void>(probe);
  if (shape % 2 == 0) co_await shoal::yield();
  throw std::runtime_error("child failed");
}

TEST(ForkJoinStress, ManyWhenAllsOfChildrenSpreadOverTwoWorkers) {
  running_pool p(2);
  constexpr int parents = 100;
  constexpr int rounds = 20;
  std::atomic<int> live{0};
  std::atomic<int> wrong{0};
  std::latch all(parents);
  auto parent = [&](int seed) -> task<> {
    std::minstd_rand rng(static_cast<unsigned>(seed) + 1);
    for (int r = 0; r < rounds; ++r) {
      const int n = 1 + static_cast<int>(rng() % 16);
      std::vector<task<int>> children;
      children.reserve(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) children.push_back(busy_child(i, rng(), live_probe(live)));
      const std::vector<int> values = co_await shoal::when_all(std::move(children));
      for (int i = 0; i < n; ++i) {
        if (values[static_cast<std::size_t>(i)] != i) wrong.fetch_add(1);
      }
      auto [a, b] = co_await shoal::when_all(busy_child(1, rng(), live_probe(live)),
                                             busy_child(2, rng(), live_probe(live)));
      if (a != 1 || b != 2) wrong.fetch_add(1);
    }
    all.count_down();
  };
  for (int i = 0; i < parents; ++i) p.pool.spawn(parent(i));
  all.wait();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(live.load(), 0);
}

// More children than a worker's fork deque holds (fork_deque::default_capacity): the range form
// pushes what fits one by one and posts the rest; every value still comes back in order.
TEST(ForkJoinStress, ARangeLargerThanTheForkDequeGivesEveryValueInOrder) {
  running_pool p(2);
  constexpr int n = 3000;
  std::atomic<int> live{0};
  auto parent = [&]() -> task<int> {
    co_await p.pool.schedule();
    std::vector<task<int>> children;
    children.reserve(n);
    for (int i = 0; i < n; ++i) {
      children.push_back(busy_child(i, static_cast<unsigned>(i), live_probe(live)));
    }
    const std::vector<int> values = co_await shoal::when_all(std::move(children));
    int wrong = values.size() == n ? 0 : 1;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (values[i] != static_cast<int>(i)) ++wrong;
    }
    co_return wrong;
  };
  EXPECT_EQ(shoal::sync_wait(parent()), 0);
  EXPECT_EQ(live.load(), 0);
}

// A tree written with the range form over views (as the skynet program is): its tasks go into
// blocks from the frame allocator, which children ending on the other worker free into that
// worker's cache.
task<int> view_tree(int depth, unsigned shape, std::atomic<int>& live) {
  if (depth == 0) co_return co_await busy_child(1, shape, live_probe(live));
  int sum = 0;
  for (int v : co_await shoal::when_all(std::views::iota(0u, 6u) |
                                        std::views::transform([&, depth](unsigned i) {
                                          return view_tree(depth - 1, shape * 7 + i, live);
                                        }))) {
    sum += v;
  }
  co_return sum;
}

TEST(ForkJoinStress, ATreeOfViewRangesOnTwoWorkersCountsEveryLeafAndFreesEveryFrame) {
  running_pool p(2);
  std::atomic<int> live{0};
  auto parent = [&]() -> task<int> {
    co_await p.pool.schedule();
    co_return co_await view_tree(4, 1, live);
  };
  EXPECT_EQ(shoal::sync_wait(parent()), 6 * 6 * 6 * 6);
  EXPECT_EQ(live.load(), 0);
}

TEST(ForkJoinStress, RandomStopsFromAnotherThreadLoseNoChild) {
  running_pool p(2);
  constexpr int parents = 300;
  std::atomic<int> completed{0};
  std::atomic<int> outlived{0};
  std::latch all(parents);
  auto sleepy = [](unsigned shape, live_probe probe) -> task<bool> {
    static_cast<void>(probe);
    co_await shoal::yield();
    co_return co_await shoal::sleep_for(std::chrono::microseconds(50 + shape % 400));
  };
  auto parent = [&](int seed) -> task<> {
    std::minstd_rand rng(static_cast<unsigned>(seed) + 7);
    std::atomic<int> mine{0};
    std::vector<task<bool>> children;
    children.reserve(8);
    for (int i = 0; i < 8; ++i) children.push_back(sleepy(rng(), live_probe(mine)));
    co_await shoal::when_all(std::move(children));
    if (mine.load() != 0) outlived.fetch_add(1);
    completed.fetch_add(1);
    all.count_down();
  };
  std::vector<std::stop_source> sources(parents);
  for (int i = 0; i < parents; ++i) {
    p.pool.spawn(
        shoal::with_stop_token(sources[static_cast<std::size_t>(i)].get_token(), parent(i)));
  }
  std::minstd_rand rng(42);
  for (auto& s : sources) {
    if (rng() % 2 == 0) s.request_stop();
    if (rng() % 8 == 0) std::this_thread::sleep_for(std::chrono::microseconds(rng() % 100));
  }
  all.wait();
  EXPECT_EQ(completed.load(), parents);
  EXPECT_EQ(outlived.load(), 0) << "a child frame outlived its when_all";
}

TEST(ForkJoinStress, FailuresCancelSiblingsAndAreRethrownOnce) {
  running_pool p(2);
  constexpr int parents = 300;
  std::atomic<int> caught{0};
  std::atomic<int> outlived{0};
  std::latch all(parents);
  auto long_sleeper = [](live_probe probe) -> task<int> {
    static_cast<void>(probe);
    co_return co_await shoal::sleep_for(10s) ? 1 : 0;
  };
  auto parent = [&](int seed) -> task<> {
    std::minstd_rand rng(static_cast<unsigned>(seed) + 3);
    std::atomic<int> mine{0};
    try {
      co_await shoal::when_all(busy_child(0, rng(), live_probe(mine)),
                               failing_child(rng(), live_probe(mine)),
                               long_sleeper(live_probe(mine)));
    } catch (const std::runtime_error&) {
      caught.fetch_add(1);
    }
    if (mine.load() != 0) outlived.fetch_add(1);
    all.count_down();
  };
  for (int i = 0; i < parents; ++i) p.pool.spawn(parent(i));
  all.wait();
  EXPECT_EQ(caught.load(), parents);
  EXPECT_EQ(outlived.load(), 0) << "a child frame outlived its when_all";
}

TEST(ForkJoinStress, WhenAnyRacesHaveExactlyOneWinnerAndAwaitEveryLoser) {
  running_pool p(2);
  constexpr int parents = 500;
  std::atomic<int> bad{0};
  std::latch all(parents);
  auto racer = [](int value, std::atomic<int>& mine) -> task<int> {
    live_probe probe(mine);
    co_await shoal::yield();  // both racers end at about the same time on different workers
    co_return value;
  };
  auto parent = [&]() -> task<> {
    std::atomic<int> mine{0};
    std::vector<task<int>> racers;
    racers.reserve(4);
    for (int i = 0; i < 4; ++i) racers.push_back(racer(i, mine));
    auto first = co_await shoal::when_any(std::move(racers));
    if (first.value != static_cast<int>(first.index) || mine.load() != 0) bad.fetch_add(1);
    all.count_down();
  };
  for (int i = 0; i < parents; ++i) p.pool.spawn(parent());
  all.wait();
  EXPECT_EQ(bad.load(), 0);
}

TEST(ForkJoinStress, TaskGroupsWithRandomCancellationDeliverEveryResultOrDrainIt) {
  running_pool p(2);
  constexpr int parents = 200;
  std::atomic<int> live{0};
  std::atomic<int> bad{0};
  std::atomic<int> rethrown{0};
  std::latch all(parents);
  auto parent = [&](int seed) -> task<> {
    std::minstd_rand rng(static_cast<unsigned>(seed) + 11);
    const int spawns = 1 + static_cast<int>(rng() % 12);
    const int takes = static_cast<int>(rng() % static_cast<unsigned>(spawns + 1));
    auto body = [&](shoal::task_group<int>& group) -> task<int> {
      for (int i = 0; i < spawns; ++i) {
        if (rng() % 5 == 0) {
          group.spawn(failing_child(rng(), live_probe(live)));
        } else {
          group.spawn(busy_child(i, rng(), live_probe(live)));
        }
      }
      int taken = 0;
      while (taken < takes) {
        auto r = co_await group.next_result();
        if (!r) break;
        if (r->has_value() && r->take_value() != static_cast<int>(r->index())) bad.fetch_add(1);
        ++taken;
      }
      co_return taken;
    };
    try {
      const int taken = co_await shoal::with_task_group<int>(body);
      if (taken != takes) bad.fetch_add(1);
    } catch (const std::runtime_error&) {
      rethrown.fetch_add(1);  // an untaken failure: delivered, as it must be
    }
    all.count_down();
  };
  std::vector<std::stop_source> sources(parents);
  for (int i = 0; i < parents; ++i) {
    p.pool.spawn(
        shoal::with_stop_token(sources[static_cast<std::size_t>(i)].get_token(), parent(i)));
  }
  std::minstd_rand rng(5);
  for (auto& s : sources) {
    if (rng() % 3 == 0) s.request_stop();
  }
  all.wait();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_LE(rethrown.load(), parents);
  EXPECT_EQ(live.load(), 0);
}

TEST(ForkJoinStress, ChildrenOfABoundParentRunOnItsWorker) {
  running_pool p(2);
  constexpr int parents = 100;
  std::atomic<int> strays{0};
  std::latch all(parents);
  auto where = []() -> task<std::thread::id> {
    co_await shoal::yield();
    co_return std::this_thread::get_id();
  };
  auto parent = [&](std::size_t k) -> task<> {
    co_await p.pool.schedule_on(k);
    const std::thread::id home = std::this_thread::get_id();
    auto [a, b, c] = co_await shoal::when_all(where(), where(), where());
    if (a != home || b != home || c != home || std::this_thread::get_id() != home) {
      strays.fetch_add(1);
    }
    all.count_down();
  };
  for (int i = 0; i < parents; ++i) p.pool.spawn(parent(static_cast<std::size_t>(i % 2)));
  all.wait();
  EXPECT_EQ(strays.load(), 0);
}

// Moves the awaiting chain to worker k from a frame below the child's own: the binding must
// hold for the whole chain (the child's frame too), not only for this frame.
task<> move_chain_to(shoal::thread_pool& pool, std::size_t k) { co_await pool.schedule_on(k); }

// when_all's children share one environment; one that rebinds its chain gets a copy of its own.
// A sibling waiting meanwhile must still resume on the parent's worker, and the parent too.
TEST(ForkJoinStress, AChildThatRebindsItsChainLeavesItsSiblingsBoundWhereTheParentIs) {
  running_pool p(2);
  constexpr int parents = 200;
  std::atomic<int> strays{0};
  std::latch all(parents);
  auto here = [] { return std::this_thread::get_id(); };
  auto parent = [&]() -> task<> {
    co_await p.pool.schedule_on(0);
    const std::thread::id home = here();
    shoal::async_event moved;
    auto rebinder = [&]() -> task<std::thread::id> {
      co_await move_chain_to(p.pool, 1);
      co_await shoal::yield();
      const std::thread::id away = here();
      moved.set();
      co_await shoal::yield();
      if (here() != away) strays.fetch_add(1);
      co_return away;
    };
    auto sibling = [&]() -> task<std::thread::id> {
      co_await moved.wait();
      for (int i = 0; i < 3; ++i) {
        if (here() != home) strays.fetch_add(1);
        co_await shoal::yield();
      }
      co_return here();
    };
    auto [away, stayed] = co_await shoal::when_all(rebinder(), sibling());
    if (away == home || stayed != home || here() != home) strays.fetch_add(1);
    all.count_down();
  };
  for (int i = 0; i < parents; ++i) p.pool.spawn(parent());
  all.wait();
  EXPECT_EQ(strays.load(), 0);
}

// The same on an unbound parent, with every child rebinding (two to each worker) while nested
// when_alls fork under them: each child ends on its own worker and the results are whole.
TEST(ForkJoinStress, EveryChildRebindingItsOwnChainKeepsItsOwnWorker) {
  running_pool p(2);
  constexpr int parents = 100;
  std::atomic<int> strays{0};
  std::latch all(parents);
  auto child = [&](std::size_t k) -> task<int> {
    co_await move_chain_to(p.pool, k);
    const std::thread::id mine = std::this_thread::get_id();
    auto leaf = [](int v) -> task<int> {
      co_await shoal::yield();
      co_return v;
    };
    auto [a, b] = co_await shoal::when_all(leaf(1), leaf(2));
    if (std::this_thread::get_id() != mine) strays.fetch_add(1);
    co_return a + b;
  };
  auto parent = [&]() -> task<> {
    co_await p.pool.schedule();
    std::vector<task<int>> children;
    for (std::size_t i = 0; i < 4; ++i) children.push_back(child(i % 2));
    const std::vector<int> sums = co_await shoal::when_all(std::move(children));
    for (int s : sums) {
      if (s != 3) strays.fetch_add(1);
    }
    all.count_down();
  };
  for (int i = 0; i < parents; ++i) p.pool.spawn(parent());
  all.wait();
  EXPECT_EQ(strays.load(), 0);
}

}  // namespace
