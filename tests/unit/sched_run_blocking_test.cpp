// SPDX-License-Identifier: Apache-2.0
// shoal::run_blocking: blocking work runs on the pool's blocking subpool, never on a worker, and
// the awaiting coroutine resumes on its own worker (issue 17).
#include "shoal/run_blocking.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <latch>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/when_all.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::eventually;
using shoal::testing::running_pool;

TEST(RunBlocking, ReturnsTheValueAndResumesOnTheCallersWorker) {
  running_pool p(2);
  auto body = [&]() -> task<bool> {
    co_await p.pool.schedule_on(1);
    const auto worker = std::this_thread::get_id();
    const auto ran_on = co_await shoal::run_blocking([] { return std::this_thread::get_id(); });
    EXPECT_NE(ran_on, worker);
    co_return std::this_thread::get_id() == worker&& shoal::thread_pool::current() == &p.pool;
  };
  EXPECT_TRUE(shoal::sync_wait(body()));
}

TEST(RunBlocking, AnUnboundCallerResumesOnTheWorkerItSuspendedOn) {
  running_pool p(2);
  auto body = [&]() -> task<int> {
    co_await p.pool.schedule();
    int same = 0;
    for (int i = 0; i < 20; ++i) {
      const auto before = std::this_thread::get_id();
      co_await shoal::run_blocking([] {});
      same += std::this_thread::get_id() == before ? 1 : 0;
    }
    co_return same;
  };
  EXPECT_EQ(shoal::sync_wait(body()), 20);
}

TEST(RunBlocking, RethrowsWhatTheFunctionThrew) {
  running_pool p(1);
  auto body = [&]() -> task<> {
    co_await p.pool.schedule();
    co_await shoal::run_blocking([]() -> int { throw std::runtime_error("disk on fire"); });
  };
  EXPECT_THROW(shoal::sync_wait(body()), std::runtime_error);
}

TEST(RunBlocking, MoveOnlyResultsAndFunctionsWork) {
  running_pool p(1);
  auto body = [&]() -> task<int> {
    co_await p.pool.schedule();
    auto owned = std::make_unique<int>(41);
    // Named, not a temporary in the co_await: g++ 12 destroys such a temporary twice when its
    // captures are not trivially destructible (see shoal/run_blocking.hpp).
    auto add_one = [o = std::move(owned)]() mutable { return std::make_unique<int>(*o + 1); };
    std::unique_ptr<int> r = co_await shoal::run_blocking(std::move(add_one));
    co_return *r;
  };
  EXPECT_EQ(shoal::sync_wait(body()), 42);
}

// On a one-worker pool, a blocking call waits for something only another coroutine on that same
// worker can do: were it run on the worker, this would deadlock.
TEST(RunBlocking, ABlockingCallNeverHoldsTheWorker) {
  running_pool p(1);
  std::latch released(1);
  std::thread::id blocking_thread, releasing_thread, worker_thread;
  auto blocker = [&]() -> task<> {
    co_await shoal::run_blocking([&] {
      blocking_thread = std::this_thread::get_id();
      released.wait();
    });
  };
  auto releaser = [&]() -> task<> {
    releasing_thread = std::this_thread::get_id();
    released.count_down();
    co_return;
  };
  auto body = [&]() -> task<> {
    co_await p.pool.schedule();
    worker_thread = std::this_thread::get_id();
    co_await shoal::when_all(blocker(), releaser());
  };
  shoal::sync_wait(body());
  EXPECT_EQ(releasing_thread, worker_thread) << "the releaser ran on the pool's one worker";
  EXPECT_NE(blocking_thread, std::thread::id{});
  EXPECT_NE(blocking_thread, worker_thread) << "the blocking call held the worker";
}

TEST(RunBlocking, ThreadsStartOnDemandAndRetireWhenIdle) {
  shoal::thread_pool pool({.workers = 1, .blocking_keep_alive = 20ms});
  pool.start();
  EXPECT_EQ(pool.blocking_thread_count(), 0u);  // nothing started behind the user's back
  auto body = [&]() -> task<> {
    co_await pool.schedule();
    co_await shoal::run_blocking([] {});
  };
  shoal::sync_wait(body());
  EXPECT_LE(pool.blocking_thread_count(), 1u);
  EXPECT_TRUE(eventually([&] { return pool.blocking_thread_count() == 0; }));
  shoal::sync_wait(body());  // a retired subpool starts again
  shoal::sync_wait(pool.stop());
  EXPECT_EQ(pool.blocking_thread_count(), 0u);
}

TEST(RunBlocking, NoMoreThanTheCapRunAtOnce) {
  shoal::thread_pool pool({.workers = 2, .blocking_threads = 2});
  pool.start();
  std::atomic<int> running{0};
  std::atomic<int> most{0};
  auto call = [&]() -> task<> {
    co_await shoal::run_blocking([&] {
      const int now = running.fetch_add(1) + 1;
      int seen = most.load();
      while (seen < now && !most.compare_exchange_weak(seen, now)) {
      }
      std::this_thread::sleep_for(2ms);
      running.fetch_sub(1);
    });
  };
  auto body = [&]() -> task<> {
    co_await pool.schedule();
    co_await shoal::when_all(call(), call(), call(), call(), call(), call());
  };
  shoal::sync_wait(body());
  EXPECT_LE(most.load(), 2);
  EXPECT_LE(pool.blocking_thread_count(), 2u);
  shoal::sync_wait(pool.stop());
}

// A spawned chain waiting for a blocking call is work to come: stop waits for it rather than
// refusing, and the chain finishes.
TEST(RunBlocking, StopWaitsForACallInFlight) {
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  std::atomic<bool> finished{false};
  std::latch started(1);
  pool.spawn([](std::atomic<bool>& done, std::latch& go) -> task<> {
    co_await shoal::run_blocking([&go] {
      go.count_down();
      std::this_thread::sleep_for(30ms);
    });
    done.store(true);
  }(finished, started));
  started.wait();
  shoal::sync_wait(pool.stop());
  EXPECT_TRUE(finished.load());
}

TEST(RunBlocking, NamingThePoolWorksFromOutsideIt) {
  running_pool p(1);
  auto body = [&]() -> task<std::string> {
    co_return co_await shoal::run_blocking(p.pool, [] { return std::string("from main"); });
  };
  EXPECT_EQ(shoal::sync_wait(body()), "from main");
}

TEST(RunBlocking, AwaitedOffAPoolWithoutNamingOneIsALogicError) {
  auto body = []() -> task<> { co_await shoal::run_blocking([] {}); };
  EXPECT_THROW(shoal::sync_wait(body()), std::logic_error);
}

// A stopped pool has joined its blocking threads and starts none again: a call after stop is
// refused with std::logic_error (issue 27, item 3: it used to start a thread that was never
// joined, and with blocking_threads = 1 the next call waited forever for a thread).
TEST(RunBlocking, AfterStopACallIsRefusedAndStartsNoThread) {
  shoal::thread_pool pool({.workers = 1, .blocking_threads = 1});
  pool.start();
  shoal::sync_wait(pool.stop());
  bool ran = false;
  auto call = [&]() -> task<> { co_await shoal::run_blocking(pool, [&ran] { ran = true; }); };
  EXPECT_THROW(shoal::sync_wait(call()), std::logic_error);
  EXPECT_FALSE(ran);
  EXPECT_EQ(pool.blocking_thread_count(), 0u);
}

}  // namespace
