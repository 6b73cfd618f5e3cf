// SPDX-License-Identifier: Apache-2.0
// Futures on a real thread_pool: co_await resuming on the awaiting worker, spawn_future and its
// cancellation through the job's stop token, a job returning a future, wait() refused on a
// worker, run_sequence and run_clustered.
#include "shoal/future_run.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <list>
#include <numeric>
#include <optional>
#include <semaphore>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "shoal/future.hpp"
#include "shoal/promise.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"
#include "support/counted.hpp"
#include "support/running_pool.hpp"

namespace {

using shoal::future;
using shoal::promise;
using shoal::task;
using shoal::testing::running_pool;
using namespace std::chrono_literals;

TEST(FutureRun, SpawnFutureGivesTheTaskResult) {
  running_pool p(2);
  auto f = shoal::spawn_future(p.pool, []() -> task<int> { co_return 6 * 7; }());
  static_assert(std::is_same_v<decltype(f), shoal::cancelable_future<int>>);
  EXPECT_EQ(f.value(), 42);
  auto v = shoal::spawn_future(p.pool, []() -> task<> { co_return; }());
  static_assert(std::is_same_v<decltype(v), shoal::cancelable_future<std::monostate>>);
  v.wait();
  EXPECT_TRUE(v.is_succeeded());
  EXPECT_EQ(shoal::spawn_future(p.pool, [] { return std::string("fn"); }).value(), "fn");
  EXPECT_TRUE(shoal::spawn_future(p.pool, [] {}).map([](std::monostate) { return 1; }).value());
  auto via_task = shoal::spawn_future(p.pool, []() -> task<int> { co_return 5; });
  EXPECT_EQ(via_task.value(), 5);
}

TEST(FutureRun, AnExceptionInTheJobIsTheFailure) {
  running_pool p(2);
  auto f = shoal::spawn_future(p.pool, []() -> task<int> {
    throw std::domain_error("job");
    co_return 0;
  }());
  f.wait();
  EXPECT_THROW(std::rethrow_exception(f.failure()), std::domain_error);
  auto g = shoal::spawn_future<std::string>(p.pool, []() -> int { throw std::runtime_error("s"); });
  EXPECT_EQ(g.failure(), "s");
  auto h = shoal::spawn_future<std::string>(
      p.pool, []() -> int { return shoal::with_failure<std::string>("chosen"); });
  EXPECT_EQ(h.failure(), "chosen");
}

TEST(FutureRun, CancelRequestsStopOfTheRunningCoroutine) {
  running_pool p(2);
  std::latch asleep(1);
  std::latch ended(1);
  std::atomic<bool> slept_fully{true};
  auto f = shoal::spawn_future(p.pool, [&]() -> task<int> {
    asleep.count_down();
    slept_fully = co_await shoal::sleep_for(1h);  // false once stopped
    ended.count_down();
    co_return 1;
  });  // the lambda itself: moved into the job, it outlives the coroutine it makes
  asleep.wait();
  EXPECT_TRUE(f.cancel());
  ASSERT_TRUE(f.is_failed()) << "cancel did not fill at once";
  EXPECT_THROW(std::rethrow_exception(f.failure()), shoal::future_canceled);
  ended.wait();
  EXPECT_FALSE(slept_fully.load());
}

TEST(FutureRun, AJobCancelledBeforeItStartsNeverRuns) {
  running_pool p(1);
  std::binary_semaphore release(0);
  std::latch blocking(1);
  p.pool.spawn([](std::binary_semaphore& r, std::latch& b) -> task<> {
    b.count_down();
    r.acquire();  // holds the only worker (a test may; real code must not block a worker)
    co_return;
  }(release, blocking));
  blocking.wait();
  std::atomic<bool> ran{false};
  auto f = shoal::spawn_future(p.pool, [&] {
    ran = true;
    return 1;
  });
  EXPECT_TRUE(f.cancel());
  release.release();
  shoal::sync_wait(p.pool.stop());
  EXPECT_FALSE(ran.load());
}

TEST(FutureRun, AJobReturningAFutureCompletesWithItWithoutHoldingAThread) {
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  promise<int> inner;
  auto f = shoal::spawn_future(pool, [&]() -> task<future<int>> {
    co_return inner.get_future().map([](int x) { return x + 1; });
  });
  static_assert(std::is_same_v<decltype(f), shoal::cancelable_future<int>>);
  auto g = shoal::spawn_future(pool, [&] { return inner.get_future(); });
  // The jobs have ended (stop would refuse while a spawned chain is suspended) while the
  // results still wait for the inner future.
  shoal::sync_wait(pool.stop());
  EXPECT_FALSE(f.is_completed());
  EXPECT_FALSE(g.is_completed());
  inner.success(9);
  EXPECT_EQ(f.value(), 10);
  EXPECT_EQ(g.value(), 9);
}

// A job whose future was dropped, with nothing listening, still runs its work but does not fill
// the state nobody can read: its value is never moved in. A listener registered before the drop
// (on_success on the temporary) keeps the fill, and hears the value.
TEST(FutureRun, ADroppedFutureSkipsTheFillUnlessSomethingListens) {
  using shoal::testing::counted;
  const auto run = [](bool keep, bool listen) {
    counted::reset();
    std::atomic<int> ran{0};
    std::atomic<int> heard{0};
    std::latch dropped(1);
    {
      running_pool p(1);
      auto work = [&] {
        dropped.wait();  // holds the only worker until the test has let go of the future
        ran.fetch_add(1);
        return counted(7);
      };
      std::optional<shoal::cancelable_future<counted>> kept;
      if (keep) {
        kept.emplace(shoal::spawn_future(p.pool, work));
      } else if (listen) {
        static_cast<void>(shoal::spawn_future(p.pool, work).on_success([&](const counted& c) {
          heard.store(c.value);
        }));
      } else {
        static_cast<void>(shoal::spawn_future(p.pool, work));
      }
      dropped.count_down();
      if (kept) {
        EXPECT_EQ(kept->value().value, 7);
      }
    }  // the pool stops once the job has ended
    EXPECT_EQ(ran.load(), 1);
    if (listen) {
      EXPECT_EQ(heard.load(), 7);
    }
    return counted::moves;
  };
  EXPECT_EQ(run(false, false), 0);  // dropped, nothing listening: never moved into the state
  EXPECT_EQ(run(true, false), 1);   // kept: moved into the state once
  EXPECT_EQ(run(false, true), 1);   // dropped, but a listener holds the fill
  EXPECT_EQ(counted::alive, 0);
}

TEST(FutureRun, CoAwaitResumesOnTheAwaitingBoundWorker) {
  running_pool p(2);
  auto probe = [&]() -> task<bool> {
    co_await p.pool.schedule_on(1);
    const shoal::executor* home = shoal::executor::current();
    bool ok = home == &p.pool.worker(1);
    for (int i = 0; i < 100; ++i) {
      promise<int> pr;
      std::thread filler([pr, i] { pr.success(i); });
      const int v = co_await pr.get_future();
      ok = ok && v == i && shoal::executor::current() == home;
      filler.join();
      // A future filled by a job on the other worker.
      const int w = co_await shoal::spawn_future_on(p.pool, 0, [i] { return i * 2; });
      ok = ok && w == i * 2 && shoal::executor::current() == home;
    }
    co_return ok;
  };
  EXPECT_TRUE(shoal::sync_wait(probe()));
}

TEST(FutureRun, AnUnboundChainResumesInItsPoolNeverOnTheFillingThread) {
  running_pool p(2);
  auto probe = [&]() -> task<bool> {
    co_await p.pool.schedule();
    bool ok = true;
    for (int i = 0; i < 100; ++i) {
      promise<int> pr;
      std::thread::id filled_on;
      std::thread filler([&filled_on, pr, i] {
        filled_on = std::this_thread::get_id();
        pr.success(i);
      });
      const int v = co_await pr.get_future();
      ok = ok && v == i && shoal::thread_pool::current() == &p.pool;
      filler.join();
      ok = ok && std::this_thread::get_id() != filled_on;
    }
    co_return ok;
  };
  EXPECT_TRUE(shoal::sync_wait(probe()));
}

TEST(FutureRun, SpawnFutureOnRunsOnThatWorker) {
  running_pool p(2);
  for (std::size_t k = 0; k < 2; ++k) {
    auto f = shoal::spawn_future_on(
        p.pool, k, [&p, k] { return shoal::executor::current() == &p.pool.worker(k); });
    EXPECT_TRUE(f.value());
  }
  EXPECT_THROW(static_cast<void>(shoal::spawn_future_on(p.pool, 2, [] { return 1; })),
               std::out_of_range);
}

TEST(FutureRun, OnlyWorkThatRunsACoroutineGetsAStopToken) {
  running_pool p(2);
  auto plain =
      shoal::spawn_future(p.pool, [] { return shoal::current_stop_token().stop_possible(); });
  auto coroutine = shoal::spawn_future(
      p.pool, []() -> task<bool> { co_return shoal::current_stop_token().stop_possible(); });
  EXPECT_FALSE(plain.value());
  EXPECT_TRUE(coroutine.value());
}

TEST(FutureRun, WaitOnAWorkerIsRefused) {
  running_pool p(2);
  promise<int> never;
  auto pending = never.get_future();
  auto f = shoal::spawn_future(p.pool, [&] {
    pending.wait();
    return 0;
  });
  f.wait();
  EXPECT_THROW(std::rethrow_exception(f.failure()), std::logic_error);
}

TEST(FutureRun, RunSequenceGivesResultsInOrder) {
  running_pool p(2);
  std::vector<int> data(200);
  std::iota(data.begin(), data.end(), 0);
  std::atomic<int> calls{0};
  auto f = shoal::run_sequence(p.pool, data, [&](int x) {
    calls.fetch_add(1, std::memory_order_relaxed);
    return x * x;
  });
  static_assert(std::is_same_v<decltype(f), shoal::cancelable_future<std::vector<int>>>);
  const std::vector<int>& squares = f.value();
  ASSERT_EQ(squares.size(), data.size());
  for (std::size_t i = 0; i < data.size(); ++i) EXPECT_EQ(squares[i], data[i] * data[i]);
  EXPECT_EQ(calls.load(), 200);
  EXPECT_TRUE(
      shoal::run_sequence(p.pool, std::vector<int>{}, [](int x) { return x; }).value().empty());
  auto strings =
      shoal::run_sequence(p.pool, std::list<int>{1, 2}, [](int x) { return std::to_string(x); });
  EXPECT_EQ(strings.value(), (std::list<std::string>{"1", "2"}));
  auto indexed = shoal::run_sequence(
      p.pool, std::vector<std::string>{"a", "b"},
      [](std::size_t i, const std::string& s) { return s + std::to_string(i); });
  EXPECT_EQ(indexed.value(), (std::vector<std::string>{"a0", "b1"}));
}

TEST(FutureRun, RunSequenceFailsWithAnElementsFailure) {
  running_pool p(2);
  auto f = shoal::run_sequence<std::string>(p.pool, std::vector<int>{1, 2, 3}, [](int x) {
    if (x == 2) throw std::runtime_error("two");
    return x;
  });
  EXPECT_EQ(f.failure(), "two");
}

TEST(FutureRun, RunClusteredRunsEachClusterInOrderOnOneThread) {
  running_pool p(2);
  std::vector<int> data(1000);
  std::iota(data.begin(), data.end(), 0);
  std::vector<std::thread::id> ran_on(data.size());  // each element written by one job
  auto f = shoal::run_clustered(
      p.pool, data,
      [&](int x) {
        ran_on[static_cast<std::size_t>(x)] = std::this_thread::get_id();
        return x + 1;
      },
      10);
  const auto& out = f.value();  // the fill happens-after every job
  ASSERT_EQ(out.size(), 1000U);
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_EQ(out[i], static_cast<int>(i) + 1);
  // min(2 workers, 1000 / 10) = 2 clusters, [0, 500) and [500, 1000), one job each.
  for (std::size_t i = 1; i < 500; ++i) EXPECT_EQ(ran_on[i], ran_on[0]);
  for (std::size_t i = 501; i < 1000; ++i) EXPECT_EQ(ran_on[i], ran_on[500]);
  auto small = shoal::run_clustered(p.pool, std::vector<int>{1, 2, 3}, [](int x) { return x; }, 10);
  EXPECT_EQ(small.value(), (std::vector<int>{1, 2, 3}));
}

TEST(FutureRun, CancelledRunSkipsTheElementsNotStarted) {
  running_pool p(1);
  std::binary_semaphore release(0);
  std::latch blocking(1);
  p.pool.spawn([](std::binary_semaphore& r, std::latch& b) -> task<> {
    b.count_down();
    r.acquire();
    co_return;
  }(release, blocking));
  blocking.wait();
  std::atomic<int> calls{0};
  auto f = shoal::run_sequence(p.pool, std::vector<int>(50, 1), [&](int x) {
    calls.fetch_add(1, std::memory_order_relaxed);
    return x;
  });
  EXPECT_TRUE(f.cancel());
  release.release();
  shoal::sync_wait(p.pool.stop());
  EXPECT_EQ(calls.load(), 0);
  EXPECT_THROW(std::rethrow_exception(f.failure()), shoal::future_canceled);
}

}  // namespace
