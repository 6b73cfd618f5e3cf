// SPDX-License-Identifier: Apache-2.0
// async_semaphore and async_mutex on the manual scheduler: FIFO hand-over, no barging, every
// order of a stop with a grant, and where a woken waiter resumes.
#include "shoal/async_semaphore.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <stop_token>
#include <vector>

#include "shoal/async_mutex.hpp"
#include "shoal/stop.hpp"
#include "shoal/timeout.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::manual_scheduler;

task<bool> acquire(shoal::async_semaphore& sem) { co_return co_await sem.acquire(); }

// Acquires, records `id` in `order`, and keeps the permit.
task<> acquire_in_order(shoal::async_semaphore& sem, std::vector<int>& order, int id) {
  // Not `if (co_await ...)`: g++ 12.2 miscompiles a co_await in an if condition of a
  // namespace-scope coroutine (it resumes at an invalid suspend point; sleep_for too).
  const bool acquired = co_await sem.acquire();
  if (acquired) order.push_back(id);
}

TEST(AsyncSemaphore, AcquireTakesAFreePermitWithoutSuspending) {
  manual_scheduler sched;
  shoal::async_semaphore sem(2);
  auto a = sched.spawn(acquire(sem));
  EXPECT_EQ(sched.run_all(), 1u);  // the root's one resumption: the acquire did not suspend
  ASSERT_TRUE(a.done());
  EXPECT_TRUE(a.get());
  EXPECT_EQ(sem.available(), 1u);
}

TEST(AsyncSemaphore, WaitersAreServedInArrivalOrder) {
  manual_scheduler sched;
  shoal::async_semaphore sem(0);
  std::vector<int> order;
  auto first = sched.spawn(acquire_in_order(sem, order, 1));
  auto second = sched.spawn(acquire_in_order(sem, order, 2));
  auto third = sched.spawn(acquire_in_order(sem, order, 3));
  sched.run_all();
  EXPECT_TRUE(order.empty());
  sem.release();
  sched.run_all();
  EXPECT_EQ(order, (std::vector<int>{1}));
  sem.release(2);
  sched.run_all();
  EXPECT_EQ(order, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(sem.available(), 0u);
}

TEST(AsyncSemaphore, AReleaseHandsThePermitOverSoANewcomerCannotBargePast) {
  manual_scheduler sched;
  shoal::async_semaphore sem(0);
  std::vector<int> order;
  auto queued = sched.spawn(acquire_in_order(sem, order, 1));
  sched.run_all();
  sem.release();
  EXPECT_EQ(sem.available(), 0u) << "the permit went to the waiter, not back to the pool";
  EXPECT_FALSE(sem.try_acquire());
  auto newcomer = sched.spawn(acquire_in_order(sem, order, 2));
  sched.run_all();
  EXPECT_EQ(order, (std::vector<int>{1}));
  EXPECT_FALSE(newcomer.done());
  sem.release();
  sched.run_all();
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

TEST(AsyncSemaphore, TryAcquireDoesNotBargePastQueuedWaitersAfterARelease) {
  manual_scheduler sched;
  shoal::async_semaphore sem(0);
  auto waiting = sched.spawn(acquire(sem));
  sched.run_all();
  sem.release(2);  // one to the waiter, one free
  EXPECT_EQ(sem.available(), 1u);
  EXPECT_TRUE(sem.try_acquire());
  EXPECT_FALSE(sem.try_acquire());
  sched.run_all();
  EXPECT_TRUE(waiting.get());
}

TEST(AsyncSemaphore, AWokenWaiterResumesOnItsOwnExecutorNotOnTheReleasers) {
  manual_scheduler home;
  manual_scheduler other;
  shoal::async_semaphore sem(0);
  auto waiter = home.spawn(acquire(sem));
  home.run_all();
  auto releaser = [&]() -> task<> {
    sem.release();
    co_return;
  };
  auto r = other.spawn(releaser());
  other.run_all();
  ASSERT_TRUE(r.done());
  EXPECT_FALSE(waiter.done()) << "resumed inline by the releaser";
  EXPECT_EQ(home.ready_count(), 1u);
  EXPECT_EQ(other.ready_count(), 0u);
  home.run_all();
  ASSERT_TRUE(waiter.done());
  EXPECT_TRUE(waiter.get());
}

TEST(AsyncSemaphore, StopBeforeAcquiringReturnsFalseAndTakesNoPermit) {
  manual_scheduler sched;
  shoal::async_semaphore sem(1);
  std::stop_source source;
  source.request_stop();
  auto a = sched.spawn(shoal::with_stop_token(source.get_token(), acquire(sem)));
  sched.run_all();
  ASSERT_TRUE(a.done());
  EXPECT_FALSE(a.get());
  EXPECT_EQ(sem.available(), 1u);
}

TEST(AsyncSemaphore, StopWhileQueuedWakesTheWaiterPromptlyWithFalse) {
  manual_scheduler sched;
  shoal::async_semaphore sem(0);
  std::stop_source source;
  auto a = sched.spawn(shoal::with_stop_token(source.get_token(), acquire(sem)));
  sched.run_all();
  EXPECT_FALSE(a.done());
  source.request_stop();
  EXPECT_EQ(sched.ready_count(), 1u);  // posted by the stop callback, not by a release
  sched.run_all();
  ASSERT_TRUE(a.done());
  EXPECT_FALSE(a.get());
  sem.release();
  EXPECT_EQ(sem.available(), 1u) << "the cancelled waiter left the queue";
}

TEST(AsyncSemaphore, AGrantThatComesBeforeTheStopIsKept) {
  manual_scheduler sched;
  shoal::async_semaphore sem(0);
  std::stop_source source;
  auto a = sched.spawn(shoal::with_stop_token(source.get_token(), acquire(sem)));
  sched.run_all();
  sem.release();          // granted and posted...
  source.request_stop();  // ...then stopped before it runs
  EXPECT_EQ(sched.ready_count(), 1u);
  sched.run_all();
  ASSERT_TRUE(a.done());
  EXPECT_TRUE(a.get()) << "the permit handed over is the waiter's";
  EXPECT_EQ(sem.available(), 0u) << "and was not also given back";
}

TEST(AsyncSemaphore, AStopThatComesBeforeTheGrantLetsTheNextWaiterHaveThePermit) {
  manual_scheduler sched;
  shoal::async_semaphore sem(0);
  std::stop_source source;
  auto stopped = sched.spawn(shoal::with_stop_token(source.get_token(), acquire(sem)));
  auto next = sched.spawn(acquire(sem));
  sched.run_all();
  source.request_stop();  // first in line, stopped...
  sem.release();          // ...so the permit skips it
  sched.run_all();
  ASSERT_TRUE(stopped.done() && next.done());
  EXPECT_FALSE(stopped.get());
  EXPECT_TRUE(next.get());
  EXPECT_EQ(sem.available(), 0u);
}

TEST(AsyncSemaphore, StopAfterTheAcquireCompletedChangesNothing) {
  manual_scheduler sched;
  shoal::async_semaphore sem(0);
  std::stop_source source;
  auto a = sched.spawn(shoal::with_stop_token(source.get_token(), acquire(sem)));
  sched.run_all();
  sem.release();
  sched.run_all();
  ASSERT_TRUE(a.done());
  source.request_stop();
  EXPECT_EQ(sched.ready_count(), 0u);
  EXPECT_TRUE(a.get());
  EXPECT_EQ(sem.available(), 0u);
}

TEST(AsyncSemaphore, WithTimeoutGivesUpOnAPermitThatNeverComes) {
  manual_scheduler sched;
  shoal::async_semaphore sem(0);
  auto body = [&]() -> task<bool> { co_return co_await shoal::with_timeout(10ms, sem.acquire()); };
  auto a = sched.spawn(body());
  sched.run_all();
  sched.advance(10ms);
  ASSERT_TRUE(a.done());
  EXPECT_FALSE(a.get());
  sem.release();
  EXPECT_EQ(sem.available(), 1u);
}

TEST(AsyncSemaphore, AScopedPermitGoesBackAtScopeExitAndIsEmptyWhenCancelled) {
  manual_scheduler sched;
  shoal::async_semaphore sem(1);
  std::stop_source source;
  auto body = [&]() -> task<bool> {
    {
      shoal::semaphore_permit permit = co_await sem.scoped_acquire();
      if (!permit || sem.available() != 0) co_return false;
    }
    if (sem.available() != 1) co_return false;
    source.request_stop();
    shoal::semaphore_permit none =
        co_await shoal::with_stop_token(source.get_token(), sem.scoped_acquire());
    co_return !none && sem.available() == 1;
  };
  auto a = sched.spawn(body());
  sched.run_all();
  ASSERT_TRUE(a.done());
  EXPECT_TRUE(a.get());
}

// --- async_mutex: the same machinery with one permit --------------------------------------

// Locks, appends `id`, suspends while holding the lock, appends `id` again, unlocks.
task<> hold_lock(shoal::async_mutex& m, shoal::async_semaphore& step, std::vector<int>& trace,
                 int id) {
  const shoal::mutex_guard guard = co_await m.scoped_lock();
  if (!guard) co_return;
  trace.push_back(id);
  co_await step.acquire();  // suspended while holding the lock
  trace.push_back(id);
}

TEST(AsyncMutex, HoldersNeverOverlapAndWaitersGetTheLockInArrivalOrder) {
  manual_scheduler sched;
  shoal::async_mutex m;
  shoal::async_semaphore step(0);
  std::vector<int> trace;
  auto a = sched.spawn(hold_lock(m, step, trace, 1));
  auto b = sched.spawn(hold_lock(m, step, trace, 2));
  auto c = sched.spawn(hold_lock(m, step, trace, 3));
  sched.run_all();
  EXPECT_EQ(trace, (std::vector<int>{1}));
  EXPECT_FALSE(m.try_lock());
  for (int i = 0; i < 3; ++i) {
    step.release();
    sched.run_all();
  }
  EXPECT_EQ(trace, (std::vector<int>{1, 1, 2, 2, 3, 3}));
  EXPECT_TRUE(a.done() && b.done() && c.done());
  EXPECT_TRUE(m.try_lock());
  m.unlock();
}

TEST(AsyncMutex, StopWhileWaitingGivesAnEmptyGuardAndTheLockGoesToTheNext) {
  manual_scheduler sched;
  shoal::async_mutex m;
  ASSERT_TRUE(m.try_lock());
  std::stop_source source;
  auto lock_then_unlock = [&]() -> task<bool> {
    const bool locked = co_await m.lock();
    if (locked) m.unlock();
    co_return locked;
  };
  auto stopped = sched.spawn(shoal::with_stop_token(source.get_token(), lock_then_unlock()));
  auto next = sched.spawn(lock_then_unlock());
  sched.run_all();
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(stopped.done());
  EXPECT_FALSE(stopped.get());
  EXPECT_FALSE(next.done());
  m.unlock();  // to the next waiter
  sched.run_all();
  ASSERT_TRUE(next.done());
  EXPECT_TRUE(next.get());
  EXPECT_TRUE(m.try_lock());
  m.unlock();
}

TEST(AsyncMutex, ALockHandedOverBeforeTheStopIsHeld) {
  manual_scheduler sched;
  shoal::async_mutex m;
  ASSERT_TRUE(m.try_lock());
  std::stop_source source;
  auto body = [&]() -> task<bool> { co_return static_cast<bool>(co_await m.scoped_lock()); };
  auto a = sched.spawn(shoal::with_stop_token(source.get_token(), body()));
  sched.run_all();
  m.unlock();  // handed over
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(a.done());
  EXPECT_TRUE(a.get());
  EXPECT_TRUE(m.try_lock()) << "the guard unlocked it";
  m.unlock();
}

}  // namespace
