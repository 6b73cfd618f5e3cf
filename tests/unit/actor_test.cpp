// SPDX-License-Identifier: Apache-2.0
// actor_context and actor_task on the manual scheduler: direct entry, the mailbox's order,
// release across awaits, holds lent to calls, results and errors, the environment, composition
// with timeouts and when_all, and the preemption budget. A pool for sync_wait and detach.
#include "shoal/actor.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "shoal/async_event.hpp"
#include "shoal/coroutine_local.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task_group.hpp"
#include "shoal/timeout.hpp"
#include "shoal/when_all.hpp"
#include "shoal/when_any.hpp"
#include "support/manual_scheduler.hpp"
#include "support/running_pool.hpp"

namespace {

using shoal::actor_task;
using shoal::task;
using shoal::testing::manual_scheduler;

const shoal::coroutine_local<std::string> request_name{"none"};

class counter {
 public:
  actor_task<int> add(int n) {
    co_await ctx_();
    value_ += n;
    log_.push_back(n);
    co_return value_;
  }
  // Holds the context, then waits for `ev` (the context is released meanwhile).
  actor_task<int> add_after(shoal::async_event& ev, int n) {
    co_await ctx_();
    const int before = value_;
    co_await ev.wait();
    value_ += n;
    log_.push_back(n);
    co_return before;
  }
  actor_task<bool> busy_inside() {
    co_await ctx_();
    co_return ctx_.busy();
  }
  // Calls its own method: the hold is lent, nothing is released.
  actor_task<int> add_twice(int n) {
    co_await ctx_();
    co_await add(n);
    co_return co_await add(n);
  }
  actor_task<int> fail() {
    co_await ctx_();
    throw std::runtime_error("refused");
  }
  actor_task<std::string> environment() {
    co_await ctx_();
    co_return request_name.get() + (shoal::stop_requested() ? "/stopped" : "/running");
  }
  actor_task<bool> nap(shoal::duration d) {
    co_await ctx_();
    co_return co_await shoal::sleep_for(d);
  }
  // Calls `other` while holding this context.
  actor_task<int> forward(counter& other, shoal::async_event& ev, int n) {
    co_await ctx_();
    co_return co_await other.add_after(ev, n);
  }
  // Reports whether `caller` is busy while this (another actor's) method runs inline.
  actor_task<bool> sees_busy(const counter& caller) {
    co_await ctx_();
    co_return caller.busy();
  }
  actor_task<bool> call_and_look(counter& other) {
    co_await ctx_();
    co_return co_await other.sees_busy(*this);
  }
  // Calls `other`, which calls back into this actor's add().
  actor_task<int> ping_back(counter& other, int n) {
    co_await ctx_();
    co_return co_await other.call_add(*this, n);
  }
  actor_task<int> call_add(counter& target, int n) {
    co_await ctx_();
    co_return co_await target.add(n);
  }
  [[nodiscard]] int value() const { return value_; }
  [[nodiscard]] const std::vector<int>& log() const { return log_; }
  [[nodiscard]] bool busy() const { return ctx_.busy(); }

 private:
  shoal::actor_context ctx_;
  int value_ = 0;
  std::vector<int> log_;
};

template <class T>
task<T> call(actor_task<T> t) {
  co_return co_await std::move(t);
}

// The mailbox on its own, each interleaving driven by hand.
TEST(ActorMailbox, AFreeContextIsTakenByOneCasAndRefusedToTheNext) {
  shoal::detail::actor_mailbox mb;
  EXPECT_FALSE(mb.held());
  EXPECT_TRUE(mb.try_lock());
  EXPECT_TRUE(mb.held());
  EXPECT_FALSE(mb.try_lock());
  EXPECT_EQ(mb.unlock(), nullptr);
  EXPECT_FALSE(mb.held());
}

TEST(ActorMailbox, LockOrPushTakesAFreeContextWithoutQueueing) {
  shoal::detail::actor_mailbox mb;
  shoal::detail::actor_waiter w;
  EXPECT_TRUE(mb.lock_or_push(w));
  EXPECT_EQ(mb.unlock(), nullptr);
}

TEST(ActorMailbox, UnlockHandsTheContextToWaitersOldestFirstAcrossBatches) {
  shoal::detail::actor_mailbox mb;
  shoal::detail::actor_waiter a;
  shoal::detail::actor_waiter b;
  shoal::detail::actor_waiter c;
  ASSERT_TRUE(mb.try_lock());
  EXPECT_FALSE(mb.lock_or_push(a));
  EXPECT_FALSE(mb.lock_or_push(b));
  EXPECT_EQ(mb.unlock(), &a);  // takes the stack {b, a}, hands to a, keeps b pending
  EXPECT_TRUE(mb.held());      // handed over, never free in between
  EXPECT_FALSE(mb.lock_or_push(c));
  EXPECT_EQ(mb.unlock(), &b);  // from pending: c, pushed later, waits behind it
  EXPECT_EQ(mb.unlock(), &c);  // the freeing CAS fails on c's push: the stack is taken
  EXPECT_EQ(mb.unlock(), nullptr);
  EXPECT_FALSE(mb.held());
}

TEST(Actor, ACallIntoAFreeContextRunsInlineWithoutScheduling) {
  manual_scheduler sched;
  counter c;
  auto r = sched.spawn(call(c.add(5)));
  EXPECT_EQ(sched.run_one(), true);  // the root: it runs the whole call
  ASSERT_TRUE(r.done());
  EXPECT_EQ(r.get(), 5);
  EXPECT_EQ(sched.ready_count(), 0u);
  EXPECT_FALSE(c.busy());
}

TEST(Actor, TheContextIsHeldWhileTheMethodRunsAndFreeAfter) {
  manual_scheduler sched;
  counter c;
  auto r = sched.spawn(call(c.busy_inside()));
  sched.run_all();
  EXPECT_TRUE(r.get());
  EXPECT_FALSE(c.busy());
}

TEST(Actor, TheContextIsReleasedWhileTheMethodAwaitsAndReacquiredAfter) {
  manual_scheduler sched;
  counter c;
  shoal::async_event ev;
  auto slow = sched.spawn(call(c.add_after(ev, 10)));
  sched.run_all();
  EXPECT_FALSE(slow.done());
  EXPECT_FALSE(c.busy());  // suspended on the event: released
  auto quick = sched.spawn(call(c.add(1)));
  sched.run_all();
  ASSERT_TRUE(quick.done());  // re-entrant: ran while the slow call waited
  EXPECT_EQ(quick.get(), 1);
  ev.set();
  sched.run_all();
  ASSERT_TRUE(slow.done());
  EXPECT_EQ(slow.get(), 0);  // what it read before the await
  EXPECT_EQ(c.value(), 11);
  EXPECT_EQ(c.log(), (std::vector<int>{1, 10}));
  EXPECT_FALSE(c.busy());
}

TEST(Actor, CallersOfABusyContextAreServedInArrivalOrder) {
  manual_scheduler sched;
  counter c;
  shoal::detail::actor_budget_left = 1;  // the first entry yields, holding the context
  auto first = sched.spawn(call(c.add(1)));
  sched.run_one();
  EXPECT_TRUE(c.busy());
  EXPECT_FALSE(first.done());
  auto second = sched.spawn(call(c.add(2)));
  auto third = sched.spawn(call(c.add(3)));
  auto fourth = sched.spawn(call(c.add(4)));
  // Run the three newcomers first: each finds the context busy and queues.
  std::vector<shoal::testing::spawned<int>*> all{&first, &second, &third, &fourth};
  sched.run_all();
  for (auto* s : all) ASSERT_TRUE(s->done());
  EXPECT_EQ(c.log(), (std::vector<int>{1, 2, 3, 4}));
  EXPECT_EQ(fourth.get(), 10);
  EXPECT_FALSE(c.busy());
}

TEST(Actor, TheMailboxKeepsArrivalOrderAcrossBatches) {
  manual_scheduler sched;
  counter c;
  shoal::async_event ev;
  shoal::detail::actor_budget_left = 1;
  auto holder = sched.spawn(call(c.add(0)));
  sched.run_one();  // holds, yielded
  std::vector<shoal::testing::spawned<int>> callers;
  for (int i = 1; i <= 3; ++i) callers.push_back(sched.spawn(call(c.add(i))));
  for (int i = 0; i < 3; ++i) sched.run_one();  // 1..3 queue
  sched.run_one();                              // the holder finishes: hands to 1, takes the stack
  for (int i = 4; i <= 6; ++i) callers.push_back(sched.spawn(call(c.add(i))));
  sched.run_all();
  EXPECT_EQ(c.log(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
}

TEST(Actor, AnActorCallingItsOwnMethodsKeepsItsContext) {
  manual_scheduler sched;
  counter c;
  auto r = sched.spawn(call(c.add_twice(3)));
  EXPECT_EQ(sched.run_all(), 1u);
  EXPECT_EQ(r.get(), 6);
  EXPECT_FALSE(c.busy());
}

TEST(Actor, ACallerReleasesItsContextWhileItsCallWaitsAndGetsItBack) {
  manual_scheduler sched;
  counter a;
  counter b;
  shoal::async_event ev;
  auto outer = sched.spawn(call(a.forward(b, ev, 7)));
  sched.run_all();
  EXPECT_FALSE(outer.done());
  EXPECT_FALSE(a.busy());
  EXPECT_FALSE(b.busy());
  auto into_a = sched.spawn(call(a.add(1)));
  sched.run_all();
  EXPECT_TRUE(into_a.done());  // a was free while its call into b waited
  ev.set();
  sched.run_all();
  ASSERT_TRUE(outer.done());
  EXPECT_EQ(outer.get(), 0);
  EXPECT_EQ(b.value(), 7);
  EXPECT_FALSE(a.busy());
}

TEST(Actor, ACallersContextStaysHeldForItWhileItsCalleeRunsInline) {
  manual_scheduler sched;
  counter a;
  counter b;
  auto r = sched.spawn(call(a.call_and_look(b)));
  EXPECT_EQ(sched.run_all(), 1u);
  EXPECT_TRUE(r.get());  // parked: neither released nor re-entered, as the call never suspended
  EXPECT_FALSE(a.busy());
  EXPECT_FALSE(b.busy());
}

TEST(Actor, ACalleeCallingBackIntoItsCallersContextGetsItWithoutDeadlock) {
  manual_scheduler sched;
  counter a;
  counter b;
  auto r = sched.spawn(call(a.ping_back(b, 5)));
  sched.run_all();
  ASSERT_TRUE(r.done());  // the call back found a's context parked, queued, and was handed it
  EXPECT_EQ(r.get(), 5);
  EXPECT_EQ(a.value(), 5);
  EXPECT_FALSE(a.busy());
  EXPECT_FALSE(b.busy());
}

TEST(Actor, AMethodsExceptionReachesItsCallerAndFreesTheContext) {
  manual_scheduler sched;
  counter c;
  auto r = sched.spawn(call(c.fail()));
  sched.run_all();
  ASSERT_TRUE(r.done());
  EXPECT_THROW(r.get(), std::runtime_error);
  EXPECT_FALSE(c.busy());
}

task<std::string> environment_of(counter& c, std::stop_token token) {
  auto scope = co_await request_name.bind("req-7");
  co_return co_await shoal::with_stop_token(token, c.environment());
}

TEST(Actor, TheCallersStopTokenAndCoroutineLocalsFlowIntoTheMethod) {
  manual_scheduler sched;
  counter c;
  std::stop_source source;
  auto running = sched.spawn(environment_of(c, source.get_token()));
  sched.run_all();
  EXPECT_EQ(running.get(), "req-7/running");
  source.request_stop();
  auto stopped = sched.spawn(environment_of(c, source.get_token()));
  sched.run_all();
  EXPECT_EQ(stopped.get(), "req-7/stopped");
}

task<bool> nap_with_timeout(counter& c) {
  co_return co_await shoal::with_timeout(std::chrono::milliseconds(10),
                                         c.nap(std::chrono::seconds(5)));
}

TEST(Actor, WithTimeoutCancelsWhatTheMethodAwaits) {
  manual_scheduler sched;
  counter c;
  auto r = sched.spawn(nap_with_timeout(c));
  sched.run_all();
  EXPECT_FALSE(c.busy());
  sched.advance(std::chrono::milliseconds(10));
  ASSERT_TRUE(r.done());
  EXPECT_FALSE(r.get());  // the sleep was cut short
  EXPECT_FALSE(c.busy());
}

task<int> both(counter& a, counter& b) {
  auto [x, y] = co_await shoal::when_all(shoal::as_task(a.add(2)), shoal::as_task(b.add(3)));
  co_return x + y;
}

TEST(Actor, CallsComposeWithWhenAll) {
  manual_scheduler sched;
  counter a;
  counter b;
  auto r = sched.spawn(both(a, b));
  sched.run_all();
  EXPECT_EQ(r.get(), 5);
}

task<int> first_of(counter& a, shoal::async_event& never) {
  auto winner =
      co_await shoal::when_any(shoal::as_task(a.add_after(never, 100)), shoal::as_task(a.add(1)));
  co_return static_cast<int>(winner.index());
}

TEST(Actor, CallsComposeWithWhenAnyAndTheLoserIsCancelledInsideTheActor) {
  manual_scheduler sched;
  counter a;
  shoal::async_event never;
  auto r = sched.spawn(first_of(a, never));
  sched.run_all();  // the loser's wait ends on when_any's stop; it re-enters, adds, and returns
  ASSERT_TRUE(r.done());
  EXPECT_EQ(r.get(), 1);
  EXPECT_EQ(a.value(), 101);
  EXPECT_FALSE(a.busy());
}

task<int> sum_in_group(counter& c) {
  co_return co_await shoal::with_task_group<int>([&c](shoal::task_group<int>& group) -> task<int> {
    for (int i = 1; i <= 4; ++i) group.spawn(shoal::as_task(c.add(i)));
    int last = 0;
    while (auto result = co_await group.next_result()) last = std::max(last, result->take_value());
    co_return last;
  });
}

TEST(Actor, CallsComposeWithATaskGroup) {
  manual_scheduler sched;
  counter c;
  auto r = sched.spawn(sum_in_group(c));
  sched.run_all();
  EXPECT_EQ(r.get(), 10);
  EXPECT_EQ(c.log().size(), 4u);
}

task<int> many_calls(counter& c, int n) {
  for (int i = 0; i < n; ++i) co_await c.add(1);
  co_return c.value();
}

TEST(Actor, APreemptionBudgetMakesALongChainOfCallsYield) {
  manual_scheduler sched;
  counter c;
  shoal::detail::actor_budget_left = shoal::detail::actor_preemption_budget;
  auto r = sched.spawn(many_calls(c, 1000));
  sched.run_one();
  EXPECT_FALSE(r.done());  // yielded after the budget, holding nothing it should not
  EXPECT_LT(c.value(), 1000);
  EXPECT_GT(c.value(), 0);
  const std::size_t resumptions = sched.run_all();
  EXPECT_GE(resumptions, 3u);  // 1000 calls, two switches each, 256 per slice
  EXPECT_EQ(r.get(), 1000);
  EXPECT_FALSE(c.busy());
}

TEST(Actor, SyncWaitCallsFromAPlainThreadAndDetachRunsOnThePool) {
  shoal::testing::running_pool pool(2);
  counter c;
  EXPECT_EQ(shoal::sync_wait(c.add(4)), 4);
  std::atomic<int> done{0};
  auto bump = [](counter& target, std::atomic<int>& count) -> actor_task<> {
    co_await target.add(1);
    count.fetch_add(1);
  };
  for (int i = 0; i < 100; ++i) shoal::detach(pool.pool, bump(c, done));
  while (done.load() < 100) std::this_thread::yield();
  EXPECT_EQ(shoal::sync_wait(c.add(0)), 104);
}

}  // namespace
