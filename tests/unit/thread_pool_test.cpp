// SPDX-License-Identifier: Apache-2.0
// shoal::thread_pool: placement, affinity, detached work, lifecycle, and idleness.
#include "shoal/thread_pool.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <latch>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <vector>

#include "shoal/async_event.hpp"
#include "shoal/frame_allocator.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/yield.hpp"
#include "support/manual_scheduler.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::thread_pool;
using shoal::testing::running_pool;

TEST(ThreadPool, ScheduleMovesTheCoroutineOntoAWorker) {
  running_pool p(2);
  auto body = [&]() -> task<std::thread::id> {
    EXPECT_EQ(thread_pool::current(), nullptr);
    co_await p.pool.schedule();
    EXPECT_EQ(thread_pool::current(), &p.pool);
    co_return std::this_thread::get_id();
  };
  EXPECT_NE(shoal::sync_wait(body()), std::this_thread::get_id());
}

TEST(ThreadPool, ScheduleOnBindsTheChainToItsWorker) {
  running_pool p(2);
  auto child = [&]() -> task<bool> {
    co_await shoal::yield();
    co_await shoal::sleep_for(1ms);
    co_return shoal::executor::current() == &p.pool.worker(1);
  };
  auto body = [&]() -> task<int> {
    co_await p.pool.schedule_on(1);
    int on_home = 0;
    for (int i = 0; i < 200; ++i) {
      if (co_await child()) ++on_home;
      if (shoal::executor::current() == &p.pool.worker(1)) ++on_home;
    }
    co_return on_home;
  };
  EXPECT_EQ(shoal::sync_wait(body()), 400);
}

TEST(ThreadPool, ScheduleOnAMissingWorkerThrowsOutOfRange) {
  running_pool p(2);
  EXPECT_THROW((void)p.pool.schedule_on(2), std::out_of_range);
}

TEST(ThreadPool, SpawnRunsDetachedWorkToCompletion) {
  running_pool p(2);
  constexpr int n = 1000;
  std::atomic<int> done{0};
  std::latch all(n);
  auto job = [&]() -> task<> {
    co_await shoal::yield();
    done.fetch_add(1, std::memory_order_relaxed);
    all.count_down();
  };
  for (int i = 0; i < n; ++i) p.pool.spawn(job());
  all.wait();
  EXPECT_EQ(done.load(), n);
}

TEST(ThreadPool, SpawnOnKeepsEveryResumptionOnTheChosenWorker) {
  running_pool p(2);
  std::atomic<int> wrong{0};
  std::latch all(100);
  auto job = [&](std::size_t k) -> task<> {
    for (int i = 0; i < 20; ++i) {
      if (shoal::executor::current() != &p.pool.worker(k)) wrong.fetch_add(1);
      co_await shoal::yield();
    }
    all.count_down();
  };
  for (int i = 0; i < 100; ++i) p.pool.spawn_on(static_cast<std::size_t>(i % 2), job(i % 2));
  all.wait();
  EXPECT_EQ(wrong.load(), 0);
}

// The token given to spawn is the chain's: a child task sees it, a sleep wakes on its stop,
// and the work stays on its worker.
TEST(ThreadPool, SpawnUnderATokenRunsTheWholeChainUnderIt) {
  running_pool p(2);
  std::stop_source source;
  std::atomic<int> saw_token{0};
  std::atomic<int> woke_by_stop{0};
  std::atomic<int> wrong_worker{0};
  std::latch asleep(4);
  std::latch all(4);
  auto child = [&]() -> task<bool> { co_return shoal::current_stop_token() == source.get_token(); };
  constexpr std::size_t unbound = 2;
  auto job = [&](std::size_t k) -> task<> {
    if (co_await child()) saw_token.fetch_add(1);
    asleep.count_down();
    if (!co_await shoal::sleep_for(1h)) woke_by_stop.fetch_add(1);
    if (k != unbound && shoal::executor::current() != &p.pool.worker(k)) wrong_worker.fetch_add(1);
    all.count_down();
  };
  p.pool.spawn_on(0, job(0), source.get_token());
  p.pool.spawn_on(1, job(1), source.get_token());
  p.pool.spawn(job(unbound), source.get_token());
  p.pool.spawn(job(unbound), source.get_token());
  asleep.wait();
  source.request_stop();
  all.wait();
  EXPECT_EQ(saw_token.load(), 4);
  EXPECT_EQ(woke_by_stop.load(), 4);
  EXPECT_EQ(wrong_worker.load(), 0);
}

TEST(ThreadPool, SpawnWithoutATokenCannotBeStopped) {
  running_pool p(1);
  std::atomic<bool> possible{true};
  std::latch done(1);
  auto job = [&]() -> task<> {
    possible.store(shoal::current_stop_token().stop_possible());
    done.count_down();
    co_return;
  };
  p.pool.spawn_on(0, job());
  done.wait();
  EXPECT_FALSE(possible.load());
}

// A token that cannot be stopped is dropped: the spawn takes the plain path, where a worker
// makes the root (only the task's frame is written here), and the chain sees no stoppable token.
TEST(ThreadPool, SpawnUnderATokenThatCannotStopIsAPlainSpawn) {
  running_pool p(2);
  std::stop_source source;
  std::atomic<int> stoppable{0};
  std::atomic<int> off_worker_one{0};
  std::latch done(3);
  auto job = [&](bool on_one) -> task<> {
    if (shoal::current_stop_token().stop_possible()) stoppable.fetch_add(1);
    if (on_one && shoal::executor::current() != &p.pool.worker(1)) off_worker_one.fetch_add(1);
    done.count_down();
    co_return;
  };
  const auto frames_here = [] { return shoal::this_thread_frame_stats().allocations; };
  const std::uint64_t before = frames_here();
  p.pool.spawn(job(false), std::stop_token{});
  const std::uint64_t unstoppable = frames_here() - before;
  p.pool.spawn(job(false), source.get_token());
  const std::uint64_t under_token = frames_here() - before - unstoppable;
  p.pool.spawn_on(1, job(true), std::stop_token{});
  done.wait();
  EXPECT_EQ(unstoppable, 1U);  // the task's frame; a worker makes the root
  EXPECT_EQ(under_token, 2U);  // the task's frame and the root holding the token
  EXPECT_EQ(stoppable.load(), 1);
  EXPECT_EQ(off_worker_one.load(), 0);
}

TEST(ThreadPool, StopAwaitedOnItsOwnWorkerThrowsLogicError) {
  running_pool p(1);
  auto body = [&]() -> task<bool> {
    co_await p.pool.schedule();
    try {
      co_await p.pool.stop();
    } catch (const std::logic_error&) {
      co_return true;
    }
    co_return false;
  };
  // The stop request was made (await_ready) before the throw: the pool winds down either way.
  EXPECT_TRUE(shoal::sync_wait(body()));
}

// "At once": the awaiting chain never suspends, so one resumption on a manual scheduler runs
// it to its end (a stop that waited for workers would need a post that never comes).
TEST(ThreadPool, StopOfAPoolNeverStartedCompletesAtOnce) {
  thread_pool pool({.workers = 2});
  shoal::testing::manual_scheduler sched;
  auto stop_twice = [&]() -> task<> {
    co_await pool.stop();
    co_await pool.stop();
  };
  auto stopped = sched.spawn(stop_twice());
  EXPECT_TRUE(sched.run_one());
  EXPECT_TRUE(stopped.done()) << "the stop of a pool never started waited";
  EXPECT_EQ(sched.ready_count(), 0U);
  EXPECT_EQ(pool.blocking_thread_count(), 0U);
}

// start() after stop() throws, as its contract says, whether the pool had run or not.
TEST(ThreadPool, StartAfterStopThrowsWhetherThePoolHadRunOrNot) {
  thread_pool never({.workers = 1});
  shoal::sync_wait(never.stop());
  EXPECT_THROW(never.start(), std::logic_error);
  thread_pool ran({.workers = 1});
  ran.start();
  shoal::sync_wait(ran.stop());
  EXPECT_THROW(ran.start(), std::logic_error);
}

// Re-queues the awaiting coroutine through executor::post or executor::defer.
template <bool Defer>
struct requeue {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const noexcept {
    if (Defer) {
      shoal::executor::current()->defer(h);
    } else {
      shoal::executor::current()->post(h, true);
    }
  }
  void await_resume() const noexcept {}
};

TEST(ThreadPool, DeferredContinuationsRunAheadOfPostedWork) {
  thread_pool pool({.workers = 1, .shuffle = false});
  pool.start();
  std::vector<char> order;  // touched only on the single worker
  std::latch done(1);
  auto other = [&]() -> task<> {
    order.push_back('o');
    co_return;
  };
  auto first = [&]() -> task<> {
    co_await pool.schedule_on(0);
    pool.spawn_on(0, other());  // posted work, queued before what follows
    co_await requeue<true>{};   // a continuation: runs before the posted work
    order.push_back('d');
    co_await requeue<false>{};  // posted: runs after it
    order.push_back('p');
    done.count_down();
  };
  pool.spawn(first());
  done.wait();
  shoal::sync_wait(pool.stop());
  EXPECT_EQ(order, (std::vector<char>{'d', 'o', 'p'}));
}

// Posts the awaiting coroutine as sticky work of the executor running it.
struct post_sticky_here {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) const noexcept {
    shoal::executor::current()->post_sticky(h);
  }
  void await_resume() const noexcept {}
};

// Sticky work (an actor's hand-overs: kept on the worker that made it ready) waits on that worker
// only while the worker runs: here the next thing it runs blocks in sync_wait on what the sticky
// work does, and the other worker must run it (before, the two deadlocked).
TEST(ThreadPool, StickyWorkOfAWorkerThatBlocksInSyncWaitIsRunByAnother) {
  thread_pool pool({.workers = 2, .shuffle = false});
  pool.start();
  shoal::async_event ready;
  std::latch done(2);
  std::thread::id blocked, sticky;  // the blocker's thread, and the sticky work's
  auto waits = [&]() -> task<> { co_await ready.wait(); };
  auto blocker = [&]() -> task<> {
    blocked = std::this_thread::get_id();
    shoal::sync_wait(waits());  // blocks worker 0 until `ready` is set
    done.count_down();
    co_return;
  };
  auto first = [&]() -> task<> {
    co_await pool.schedule_on(0);
    pool.spawn_on(0, blocker());  // queued on worker 0, ahead of what follows
    co_await post_sticky_here{};  // sticky on worker 0, behind the blocker
    sticky = std::this_thread::get_id();
    ready.set();  // run by worker 1 once worker 0 blocked
    done.count_down();
  };
  pool.spawn(first());
  done.wait();
  shoal::sync_wait(pool.stop());
  EXPECT_NE(sticky, blocked);
}

// The CPU time worker k's thread has used so far, read from its thread CPU clock.
struct worker_cpu_clock {
  clockid_t id{};
  [[nodiscard]] std::chrono::nanoseconds used() const {
    timespec t{};
    clock_gettime(id, &t);
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
  }
};

worker_cpu_clock cpu_clock_of_worker(thread_pool& pool, std::size_t k) {
  auto on_worker = [&]() -> task<pthread_t> {
    co_await pool.schedule_on(k);
    co_return pthread_self();
  };
  worker_cpu_clock c;
  EXPECT_EQ(pthread_getcpuclockid(shoal::sync_wait(on_worker()), &c.id), 0);
  return c;
}

// An idle worker sleeps in the kernel: its thread's CPU clock stands still. A worker that
// busy-waits, however loaded the machine, moves its own clock by far more than a millisecond in
// the window. The window measures; it orders nothing: the workers are first seen asleep.
TEST(ThreadPool, AnIdlePoolBurnsNoCpu) {
  thread_pool pool({.workers = 2, .spin_rounds = 0});
  pool.start();
  std::vector<worker_cpu_clock> clocks;
  for (std::size_t k = 0; k < 2; ++k) clocks.push_back(cpu_clock_of_worker(pool, k));
  for (std::size_t k = 0; k < 2; ++k) {
    auto last = clocks[k].used();
    int still = 0;  // consecutive polls (1 ms apart) that saw the clock stand still
    const bool asleep = shoal::testing::eventually([&] {
      const auto now = clocks[k].used();
      still = now == last ? still + 1 : 0;
      last = now;
      return still >= 5;
    });
    EXPECT_TRUE(asleep) << "worker " << k << " never went to sleep";
  }
  const auto before0 = clocks[0].used();
  const auto before1 = clocks[1].used();
  std::this_thread::sleep_for(300ms);
  EXPECT_LT(clocks[0].used() - before0, 1ms) << "worker 0 burnt CPU while idle";
  EXPECT_LT(clocks[1].used() - before1, 1ms) << "worker 1 burnt CPU while idle";
  EXPECT_GT(pool.stats(0).parked, 0U);
  EXPECT_GT(pool.stats(1).parked, 0U);
  shoal::sync_wait(pool.stop());
}

TEST(ThreadPool, SleepingWorkersWakeForTheirTimers) {
  running_pool p(2);
  auto body = [&]() -> task<shoal::duration> {
    co_await p.pool.schedule_on(0);
    const auto start = shoal::clock::now();
    co_await shoal::sleep_for(20ms);
    co_return shoal::clock::now() - start;
  };
  const auto slept = shoal::sync_wait(body());
  EXPECT_GE(slept, 20ms);
  // Nothing else wakes the worker: one parked past its timer's deadline would sleep until the
  // test's timeout. The bound is only a clearer message, beyond anything load does to a 20 ms
  // timer.
  EXPECT_LT(slept, 30s);
}

}  // namespace
