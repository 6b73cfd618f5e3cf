// SPDX-License-Identifier: Apache-2.0
// A wake-up given or received inside a sync_wait nested on a pool worker (legal: sync_wait.hpp)
// resumes each coroutine on its own executor (issue 27, item 1). "Is this thread a worker of
// pool P" is not "is the running executor a worker of P": inside the nested sync_wait the thread
// is a worker, but the executor is the nested loop, which returns and is destroyed as soon as its
// task is done. A waiter woken there used to run on (and arm timers on) that loop; a waiter that
// suspended there used to be run by another worker. Each test orders its two sides with idle
// hooks (an executor's hook runs only once its coroutines are all suspended), never with sleeps.
//
// Issue 35: a worker blocked in a nested sync_wait must not keep what another chain waits for.
// The pool's test seam drop_relaxed_wakeups (pool/pool_state.hpp) makes every wake-up a worker's
// push onto its own queues gives be missed, as a stale relaxed read legally may; the actor's
// preemption is forced by spending its per-thread budget (detail::actor_budget_left). Each test
// fails (a bounded wait, then unblocked from outside) without its fix.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>
#include <utility>

#include "pool/pool_state.hpp"
#include "shoal/actor.hpp"
#include "shoal/async_event.hpp"
#include "shoal/async_mutex.hpp"
#include "shoal/async_semaphore.hpp"
#include "shoal/executor.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/when_all.hpp"
#include "shoal/yield.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::executor;
using shoal::task;
using shoal::testing::running_pool;

// Set once the executor it was added to has run out of ready work after it was added (so the
// coroutine that added it has suspended). Added on that executor's thread.
struct idle_flag : shoal::detail::idle_hook {
  idle_flag() noexcept {
    run = [](shoal::detail::idle_hook& self) noexcept {
      static_cast<idle_flag&>(self).idle.store(true);
      return false;
    };
  }
  idle_flag(const idle_flag&) = delete;
  idle_flag& operator=(const idle_flag&) = delete;
  ~idle_flag() { unlink(); }
  void add_here() { ASSERT_TRUE(executor::current()->add_idle_hook(*this)); }
  // Blocks the calling thread until set (bounded: a wall-clock wait for another thread, never a
  // timing check).
  [[nodiscard]] bool wait() const {
    for (int i = 0; i < 100'000 && !idle.load(); ++i) std::this_thread::sleep_for(100us);
    return idle.load();
  }
  std::atomic<bool> idle{false};
};

// Runs `a` and `b` to completion from this thread, concurrently.
void both(task<> a, task<> b) {
  shoal::sync_wait([](task<> x, task<> y) -> task<> {
    co_await shoal::when_all(std::move(x), std::move(y));
  }(std::move(a), std::move(b)));
}

TEST(NestedSyncWait, AMutexWaiterWokenFromANestedSyncWaitResumesOnAWorker) {
  running_pool p(1);
  shoal::async_mutex m;
  std::atomic<bool> b_waiting{false};
  executor* nested = nullptr;
  executor* b_resumed_on = nullptr;
  std::atomic<bool> b_done{false};
  auto b = [&]() -> task<> {
    b_waiting.store(true);
    co_await m.lock();  // A holds it: B suspends
    b_resumed_on = executor::current();
    m.unlock();
    b_done.store(true);
  };
  auto a = [&]() -> task<> {
    co_await p.pool.schedule();
    co_await m.lock();
    p.pool.spawn(b());
    // One worker: once B has run at all, it is suspended in lock().
    while (!b_waiting.load()) co_await shoal::yield();
    shoal::sync_wait([&]() -> task<> {
      nested = executor::current();
      m.unlock();  // hands the lock to B
      co_return;
    }());
  };
  shoal::sync_wait(a());
  shoal::sync_wait(p.pool.stop());  // B is a spawned chain: stop waits for it
  ASSERT_TRUE(b_done.load());
  EXPECT_NE(b_resumed_on, nested) << "B ran on the nested sync_wait's loop";
  EXPECT_EQ(b_resumed_on, &p.pool.worker(0));
}

// Issue 36: a fork/join hand-off reads the running executor's fork support from a thread-local of
// its own (detail::current_fork_support), set with the running executor: none on a sync_wait
// nested on a worker (a when_all there posts its children to that loop, never into the worker's
// deque, which the loop does not serve), the worker's again once the nested loop has returned.
TEST(NestedSyncWait, TheForkSupportFollowsTheRunningExecutorIntoAndOutOfANestedSyncWait) {
  running_pool p(1);
  const shoal::detail::fork_support* before = nullptr;
  const shoal::detail::fork_support* inside = nullptr;
  const shoal::detail::fork_support* after = nullptr;
  executor* nested = nullptr;
  executor* children_ran_on[2] = {nullptr, nullptr};
  auto record_executor = [](executor** out) -> task<> {
    *out = executor::current();
    co_return;
  };
  auto body = [&]() -> task<> {
    co_await p.pool.schedule();
    before = shoal::detail::current_fork_support;
    shoal::sync_wait([&]() -> task<> {
      nested = executor::current();
      inside = shoal::detail::current_fork_support;
      co_await shoal::when_all(record_executor(&children_ran_on[0]),
                               record_executor(&children_ran_on[1]));
    }());
    after = shoal::detail::current_fork_support;
  };
  shoal::sync_wait(body());
  EXPECT_EQ(before, p.pool.worker(0).fork_support());
  EXPECT_EQ(inside, nullptr) << "the nested loop lent the worker's fork deque";
  EXPECT_EQ(children_ran_on[0], nested);
  EXPECT_EQ(children_ran_on[1], nested);
  EXPECT_EQ(after, before) << "the worker's fork support was not restored";
}

TEST(NestedSyncWait, ASemaphoreWaiterInANestedSyncWaitResumesThereWhenAnotherWorkerReleases) {
  running_pool p(2);
  shoal::async_semaphore sem(0);
  idle_flag nested_idle;
  executor* nested = nullptr;
  executor* resumed_on = nullptr;
  auto waiting_side = [&]() -> task<> {
    co_await p.pool.schedule_on(0);
    shoal::sync_wait([&]() -> task<> {
      nested = executor::current();
      nested_idle.add_here();
      co_await sem.acquire();
      resumed_on = executor::current();
      nested_idle.unlink();
    }());
  };
  auto releasing_side = [&]() -> task<> {
    co_await p.pool.schedule_on(1);
    while (!nested_idle.idle.load()) co_await shoal::yield();
    sem.release();
  };
  both(waiting_side(), releasing_side());
  EXPECT_EQ(resumed_on, nested) << "the nested sync_wait's coroutine ran on another worker";
}

class gatekeeper {
 public:
  // Enters the context and keeps it until `until` is set.
  shoal::actor_task<void> hold(std::atomic<bool>& entered, const idle_flag& until) {
    co_await ctx_();
    entered.store(true);
    EXPECT_TRUE(until.wait());
  }
  // Enters the context: where the caller runs once it holds it.
  shoal::actor_task<executor*> enter() {
    co_await ctx_();
    co_return executor::current();
  }

 private:
  shoal::actor_context ctx_;
};

TEST(NestedSyncWait, AnActorCallerHandedTheContextFromANestedSyncWaitResumesOnItsWorker) {
  running_pool p(2);
  gatekeeper g;
  std::atomic<bool> held{false};
  idle_flag caller_idle;
  executor* nested = nullptr;
  executor* caller_was_on = nullptr;
  executor* caller_resumed_on = nullptr;
  auto holding_side = [&]() -> task<> {
    co_await p.pool.schedule_on(0);
    shoal::sync_wait([&]() -> task<> {
      nested = executor::current();
      co_await g.hold(held, caller_idle);  // returns: hands the context to the caller
    }());
  };
  auto calling_side = [&]() -> task<> {
    co_await p.pool.schedule();  // unbound: on either worker
    while (!held.load()) co_await shoal::yield();
    caller_was_on = executor::current();
    caller_idle.add_here();
    caller_resumed_on = co_await g.enter();  // queued behind the holder
  };
  both(holding_side(), calling_side());
  EXPECT_NE(caller_resumed_on, nested) << "the caller ran on the nested sync_wait's loop";
  // On a worker of its pool: the one it waited on, or the other if that one stole it (an unbound
  // chain may move; the nested loop's worker steals when it is back in its own loop).
  EXPECT_NE(caller_was_on, nullptr);
  EXPECT_TRUE(caller_resumed_on == &p.pool.worker(0) || caller_resumed_on == &p.pool.worker(1));
}

TEST(NestedSyncWait, AnActorCallerInANestedSyncWaitResumesThereWhenAnotherWorkerHandsItOver) {
  running_pool p(2);
  gatekeeper g;
  std::atomic<bool> held{false};
  idle_flag nested_idle;
  executor* nested = nullptr;
  executor* resumed_on = nullptr;
  auto calling_side = [&]() -> task<> {
    co_await p.pool.schedule_on(0);
    shoal::sync_wait([&]() -> task<> {
      nested = executor::current();
      while (!held.load()) co_await shoal::yield();
      nested_idle.add_here();
      resumed_on = co_await g.enter();  // queued behind the holder on worker 1
      nested_idle.unlink();
    }());
  };
  auto holding_side = [&]() -> task<> {
    co_await p.pool.schedule_on(1);
    co_await g.hold(held, nested_idle);  // returns: hands the context to the nested caller
  };
  both(calling_side(), holding_side());
  EXPECT_EQ(resumed_on, nested) << "the nested sync_wait's coroutine ran on another worker";
}

// Waits (bounded: a wall-clock wait for another thread, never a timing check) until `done`.
[[nodiscard]] bool wait_until(const std::function<bool()>& done) {
  for (int i = 0; i < 100'000 && !done(); ++i) std::this_thread::sleep_for(100us);
  return done();
}

task<> set_event_on(shoal::async_event& ev, std::atomic<executor*>& ran_on) {
  ran_on.store(executor::current());
  ev.set();
  co_return;
}

task<> nothing() { co_return; }

// Two workers that never spin, with no shuffling of their queues; with `missed_wakeups`, every
// wake-up a worker gives for its own pushes is missed: what such a push makes ready then reaches
// a sleeping worker only through the protocol's fenced wake-ups.
class quiet_pool {
 public:
  explicit quiet_pool(bool missed_wakeups) {
    shoal::detail::drop_relaxed_wakeups = missed_wakeups;  // no worker runs yet
    pool.start();
  }
  quiet_pool(const quiet_pool&) = delete;
  quiet_pool& operator=(const quiet_pool&) = delete;
  ~quiet_pool() {
    shoal::sync_wait(pool.stop());
    shoal::detail::drop_relaxed_wakeups = false;  // the workers have been joined
  }
  // Blocks worker 0's thread until worker 1 has gone to sleep.
  [[nodiscard]] bool worker1_asleep() const {
    return wait_until([this] { return pool.stats(1).parked != 0; });
  }
  // Ends a hang after a bounded wait: a spawn from outside wakes a sleeper (fenced), which then
  // steals what worker 0 keeps in its ring.
  void unblock() { pool.spawn(nothing()); }

  shoal::thread_pool pool{{.workers = 2, .spin_rounds = 0, .shuffle = false}};
};

TEST(NestedSyncWait,
     WorkSpawnedBeforeANestedSyncWaitRunsOnASleepingWorkerThoughItsWakeUpWasMissed) {
  quiet_pool p(true);
  shoal::async_event produced;
  std::atomic<executor*> producer_ran_on{nullptr};
  std::atomic<bool> done{false};
  auto spawner = [&]() -> task<> {
    EXPECT_TRUE(p.worker1_asleep());
    p.pool.spawn(set_event_on(produced, producer_ran_on));  // onto this worker's ring
    shoal::sync_wait(produced.wait());
    done.store(true);
    co_return;
  };
  p.pool.spawn_on(0, spawner());
  const bool finished = wait_until([&] { return done.load(); });
  if (!finished) p.unblock();
  EXPECT_TRUE(finished) << "worker 0 blocked with the producer in its ring, worker 1 asleep";
  ASSERT_TRUE(wait_until([&] { return done.load(); }));
  EXPECT_EQ(producer_ran_on.load(), &p.pool.worker(1));
}

TEST(NestedSyncWait, AChainWokenFromANestedSyncWaitRunsOnASleepingWorkerThoughItsWakeUpWasMissed) {
  quiet_pool p(true);
  shoal::async_semaphore permits(0);
  shoal::async_event produced;
  std::atomic<bool> waiting{false};
  std::atomic<executor*> waiter_ran_on{nullptr};
  std::atomic<bool> done{false};
  auto waiter = [&]() -> task<> {  // unbound: waits on worker 0, where it was spawned
    waiting.store(true);
    co_await permits.acquire();
    co_await set_event_on(produced, waiter_ran_on);
  };
  auto releaser = [&]() -> task<> {
    permits.release();  // posts the waiter to worker 0, blocked right here
    co_await produced.wait();
  };
  auto blocker = [&]() -> task<> {
    EXPECT_TRUE(p.worker1_asleep());
    p.pool.spawn(waiter());
    while (!waiting.load()) co_await shoal::yield();  // one runnable worker: it has suspended
    shoal::sync_wait(releaser());
    done.store(true);
  };
  p.pool.spawn_on(0, blocker());
  const bool finished = wait_until([&] { return done.load(); });
  if (!finished) p.unblock();
  EXPECT_TRUE(finished) << "the waiter was posted to worker 0's ring while it was blocked";
  ASSERT_TRUE(wait_until([&] { return done.load(); }));
  EXPECT_EQ(waiter_ran_on.load(), &p.pool.worker(1));
}

// A context that, once entered, calls the next stage (whose context is free: it enters it
// inline, and this one stays held for us, parked, meanwhile), then runs `inside`.
class relay_stage {
 public:
  shoal::actor_task<void> pass() {
    co_await ctx_();
    if (next != nullptr) co_await next->pass();
    inside();
  }
  shoal::actor_task<void> touch(shoal::async_event& ev, std::atomic<executor*>& ran_on) {
    co_await ctx_();
    ran_on.store(executor::current());
    ev.set();
  }

  relay_stage* next = nullptr;
  std::function<void()> inside = [] {};

 private:
  shoal::actor_context ctx_;
};

// A chain bound to worker 0 holds x, y (x parked) and z (y parked); a caller from worker 1 waits
// for x. z returns on a preempted switch: y's hold on x is let go, x handed to that caller, who
// is posted to worker 0 rather than run, and y's continuation is posted too (first: the chain is
// bound, both pinned FIFO). y then blocks in a nested sync_wait for what the caller does in x.
TEST(NestedSyncWait, AnActorCallerHandedAContextAtAPreemptedSwitchRunsWhileItsWorkerIsBlocked) {
  quiet_pool p(false);
  relay_stage x;
  relay_stage y;
  relay_stage z;
  shoal::async_event touched;
  std::atomic<executor*> caller_ran_on{nullptr};
  std::atomic<bool> holding{false};
  idle_flag caller_queued;
  std::atomic<bool> done{false};
  x.next = &y;
  y.next = &z;
  z.inside = [&] {
    holding.store(true);
    EXPECT_TRUE(caller_queued.wait());
    shoal::detail::actor_budget_left = 1;  // z's return is the switch that yields
  };
  y.inside = [&] { shoal::sync_wait(touched.wait()); };
  auto chain = [&]() -> task<> {
    shoal::detail::actor_budget_left = shoal::detail::actor_preemption_budget;
    co_await x.pass();
    done.store(true);
  };
  auto caller = [&]() -> task<> {
    caller_queued.add_here();
    co_await x.touch(touched, caller_ran_on);
  };
  p.pool.spawn_on(0, chain());
  ASSERT_TRUE(wait_until([&] { return holding.load(); }));
  p.pool.spawn(caller());  // from outside: worker 0 is busy, so worker 1 runs it
  const bool finished = wait_until([&] { return done.load(); });
  if (!finished) touched.set();
  EXPECT_TRUE(finished) << "the caller handed x was pinned to worker 0, blocked in sync_wait";
  ASSERT_TRUE(wait_until([&] { return done.load(); }));
  EXPECT_EQ(caller_ran_on.load(), &p.pool.worker(1));
}

}  // namespace
