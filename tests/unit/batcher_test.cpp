// shoal::batcher: flush by size, time, idleness and predicate; per-item and bulk errors;
// cancellation before and during the bulk call; chained batchers; callers on several workers;
// no allocation per call in steady state (operator new is counted in this test binary).
#include "shoal/batcher.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <latch>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <vector>

#include "shoal/async_event.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/thread_pool.hpp"
#include "support/counting_new.hpp"
#include "support/manual_scheduler.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::batcher;
using shoal::item_result;
using shoal::task;
using shoal::testing::allocations;
using shoal::testing::manual_scheduler;
using shoal::testing::spawned;

// A plain bulk function: x -> 10x, recording each batch it was called with.
struct times_ten {
  std::vector<std::vector<int>>* seen;
  std::vector<int> operator()(std::span<int> args) const {
    seen->emplace_back(args.begin(), args.end());
    std::vector<int> out;
    for (int a : args) out.push_back(a * 10);
    return out;
  }
};

// An awaiting bulk function: sleeps 10 ms (a timer of the scheduler), then times_ten.
struct sleeps_then_times_ten {
  std::vector<std::vector<int>>* seen;
  task<std::vector<int>> operator()(std::span<int> args) const {
    co_await shoal::sleep_for(10ms);
    co_return times_ten{seen}(args);
  }
};

task<std::optional<int>> call(batcher<int, int>& b, int x) {
  std::optional<int> r = co_await b(x);
  co_return r;
}

std::vector<int> values(std::initializer_list<int> v) { return v; }

TEST(batcher, FlushesWhenTheBatchReachesItsSize) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  batcher<int, int> b(times_ten{&seen}, {.max_size = 3});
  std::vector<spawned<std::optional<int>>> calls;
  for (int i = 1; i <= 7; ++i) calls.push_back(sched.spawn(call(b, i)));
  sched.run_all();
  ASSERT_EQ(seen.size(), 2U);
  EXPECT_EQ(seen[0], values({1, 2, 3}));
  EXPECT_EQ(seen[1], values({4, 5, 6}));
  EXPECT_FALSE(calls[6].done());
  EXPECT_EQ(b.pending(), 1U);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(calls[i].get(), (i + 1) * 10);
  EXPECT_EQ(b.stats().by_size, 2U);
}

TEST(batcher, FlushesWhenItsFirstCallerHasWaitedMaxWait) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  batcher<int, int> b(times_ten{&seen}, {.max_size = 100, .max_wait = 10ms});
  auto first = sched.spawn(call(b, 1));
  sched.run_all();
  sched.advance(4ms);
  auto second = sched.spawn(call(b, 2));
  sched.run_all();
  sched.advance(5ms);
  EXPECT_TRUE(seen.empty());
  sched.advance(1ms);  // 10 ms after the first caller, 6 ms after the second
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({1, 2}));
  EXPECT_EQ(first.get(), 10);
  EXPECT_EQ(second.get(), 20);
  EXPECT_EQ(b.stats().by_time, 1U);
  EXPECT_EQ(sched.timer_count(), 0U);  // the timer was disarmed or fired
}

TEST(batcher, FlushesAHalfFullBatchWhenItsExecutorGoesIdle) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  batcher<int, int> b(times_ten{&seen}, {.max_size = 100});
  std::vector<spawned<std::optional<int>>> calls;
  for (int i = 1; i <= 5; ++i) calls.push_back(sched.spawn(call(b, i)));
  sched.run_all();
  EXPECT_TRUE(seen.empty());
  EXPECT_GT(sched.idle(), 0U);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({1, 2, 3, 4, 5}));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(calls[i].get(), (i + 1) * 10);
  EXPECT_EQ(b.stats().by_idle, 1U);
  EXPECT_EQ(sched.idle(), 0U);  // nothing waits: idleness flushes nothing
  EXPECT_EQ(b.stats().batches, 1U);
}

TEST(batcher, FlushesWhenThePredicateSaysSo) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  auto sum_reaches_10 = [](std::span<const int> args) {
    return std::accumulate(args.begin(), args.end(), 0) >= 10;
  };
  batcher<int, int> b(times_ten{&seen}, {.flush_if = sum_reaches_10});
  std::vector<spawned<std::optional<int>>> calls;
  for (int x : {4, 4, 4, 1}) calls.push_back(sched.spawn(call(b, x)));
  sched.run_all();
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({4, 4, 4}));
  EXPECT_EQ(b.stats().by_predicate, 1U);
  EXPECT_FALSE(calls[3].done());
  sched.idle();
  EXPECT_EQ(calls[3].get(), 10);
}

std::vector<item_result<int>> fail_odd(std::span<int> args) {
  std::vector<item_result<int>> out;
  for (int a : args) {
    if (a % 2 != 0) {
      out.push_back(item_result<int>::failure(std::make_exception_ptr(std::out_of_range("odd"))));
    } else {
      out.emplace_back(a * 10);
    }
  }
  return out;
}

task<std::optional<int>> call_items(batcher<int, item_result<int>>& b, int x) {
  std::optional<int> r = co_await b(x);
  co_return r;
}

TEST(batcher, AFailedItemFailsOnlyItsOwnCaller) {
  manual_scheduler sched;
  batcher<int, item_result<int>> b(&fail_odd);
  auto two = sched.spawn(call_items(b, 2));
  auto three = sched.spawn(call_items(b, 3));
  auto four = sched.spawn(call_items(b, 4));
  sched.run_all();
  sched.idle();
  EXPECT_EQ(two.get(), 20);
  EXPECT_THROW((void)three.get(), std::out_of_range);
  EXPECT_EQ(four.get(), 40);
  EXPECT_EQ(b.stats().batches, 1U);
}

TEST(batcher, AFailedBulkCallFailsEveryCallerWithItsError) {
  manual_scheduler sched;
  batcher<int, int> b([](std::span<int>) -> std::vector<int> { throw std::runtime_error("down"); });
  auto one = sched.spawn(call(b, 1));
  auto two = sched.spawn(call(b, 2));
  sched.run_all();
  sched.idle();
  EXPECT_THROW((void)one.get(), std::runtime_error);
  EXPECT_THROW((void)two.get(), std::runtime_error);
}

TEST(batcher, AWrongResultCountIsALogicError) {
  manual_scheduler sched;
  batcher<int, int> b([](std::span<int>) { return std::vector<int>(1, 0); });
  auto one = sched.spawn(call(b, 1));
  auto two = sched.spawn(call(b, 2));
  sched.run_all();
  sched.idle();
  EXPECT_THROW((void)one.get(), std::logic_error);
  EXPECT_THROW((void)two.get(), std::logic_error);
}

TEST(batcher, ACallerCancelledBeforeTheFlushLeavesTheBatchAndIsNotSent) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  batcher<int, int> b(times_ten{&seen}, {.max_size = 100, .max_wait = 10ms});
  std::stop_source early;
  std::stop_source during_fill;
  std::stop_source first_stop;
  early.request_stop();
  auto first = sched.spawn(shoal::with_stop_token(first_stop.get_token(), call(b, 1)));
  auto two = sched.spawn(call(b, 2));
  auto three = sched.spawn(shoal::with_stop_token(during_fill.get_token(), call(b, 3)));
  auto four = sched.spawn(shoal::with_stop_token(early.get_token(), call(b, 4)));
  sched.run_all();
  EXPECT_TRUE(four.done());  // stopped before it awaited: never joined
  EXPECT_EQ(four.get(), std::nullopt);
  EXPECT_EQ(b.pending(), 3U);
  during_fill.request_stop();
  first_stop.request_stop();  // the timer holder leaves too: the next caller takes its timer
  sched.run_all();
  EXPECT_EQ(three.get(), std::nullopt);
  EXPECT_EQ(first.get(), std::nullopt);
  EXPECT_EQ(b.pending(), 1U);
  EXPECT_EQ(b.stats().cancelled, 2U);
  auto five = sched.spawn(call(b, 5));
  sched.run_all();
  sched.advance(10ms);  // the batch's deadline still counts from the first arrival
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({2, 5}));
  EXPECT_EQ(two.get(), 20);
  EXPECT_EQ(five.get(), 50);
}

// Callers sharing a token share one stop callback (hosted by the first of them in the batch);
// stopping it must still take out exactly the callers of that token, wherever they sit.
TEST(batcher, StoppingASharedTokenTakesOutEveryCallerOfItAndNoOther) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  batcher<int, int> b(times_ten{&seen});
  std::stop_source a;
  std::stop_source other;
  std::vector<spawned<std::optional<int>>> calls;
  // a, other, a, a, other, a: hosts are the 1st, 2nd, 3rd and 5th callers; the 4th and 6th
  // are covered.
  for (int x : {1, 2, 3, 4, 5, 6}) {
    const std::stop_token t = (x == 2 || x == 5) ? other.get_token() : a.get_token();
    calls.push_back(sched.spawn(shoal::with_stop_token(t, call(b, x))));
  }
  sched.run_all();
  EXPECT_EQ(b.pending(), 6U);
  a.request_stop();
  sched.run_all();
  EXPECT_EQ(b.pending(), 2U);
  EXPECT_EQ(b.stats().cancelled, 4U);
  for (int i : {0, 2, 3, 5}) {
    EXPECT_TRUE(calls[static_cast<std::size_t>(i)].done()) << i;
    EXPECT_EQ(calls[static_cast<std::size_t>(i)].get(), std::nullopt) << i;
  }
  auto seven = sched.spawn(shoal::with_stop_token(other.get_token(), call(b, 7)));
  sched.run_all();
  sched.idle();
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({2, 5, 7}));
  EXPECT_EQ(calls[1].get(), 20);
  EXPECT_EQ(calls[4].get(), 50);
  EXPECT_EQ(seven.get(), 70);
}

TEST(batcher, StoppingASharedTokenDuringTheBulkCallCancelsEachOfItsCallers) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  batcher<int, int> b(sleeps_then_times_ten{&seen});
  std::stop_source shared;
  auto one = sched.spawn(shoal::with_stop_token(shared.get_token(), call(b, 1)));
  auto two = sched.spawn(call(b, 2));
  auto three = sched.spawn(shoal::with_stop_token(shared.get_token(), call(b, 3)));
  sched.run_all();
  sched.idle();  // the bulk call starts and sleeps
  shared.request_stop();
  sched.run_all();
  EXPECT_FALSE(one.done());
  EXPECT_FALSE(three.done());
  sched.advance(10ms);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({1, 2, 3}));
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_EQ(two.get(), 20);
  EXPECT_EQ(three.get(), std::nullopt);
}

TEST(batcher, ACallerCancelledDuringTheBulkCallGetsNulloptWhenItReturns) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  batcher<int, int> b(sleeps_then_times_ten{&seen});
  std::stop_source stop;
  auto one = sched.spawn(shoal::with_stop_token(stop.get_token(), call(b, 1)));
  auto two = sched.spawn(call(b, 2));
  sched.run_all();
  sched.idle();  // the bulk call starts and sleeps
  stop.request_stop();
  sched.run_all();
  EXPECT_FALSE(one.done());  // its cancellation waits for the call to return
  sched.advance(10ms);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({1, 2}));
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_EQ(two.get(), 20);
}

// The seed's pipeline: get the user's preferences, then notify those who want it.
struct prefs {
  bool wants_mail = false;
  int address = 0;
};

task<bool> notify_user(batcher<int, prefs>& get_prefs, batcher<int, bool>& send, int user) {
  std::optional<prefs> p = co_await get_prefs(user);
  if (!p || !p->wants_mail) co_return false;
  std::optional<bool> sent = co_await send(p->address);
  co_return sent.value_or(false);
}

TEST(batcher, ChainedBatchersSendEachStageInOneCall) {
  manual_scheduler sched;
  std::vector<std::size_t> prefs_calls;
  std::vector<std::size_t> send_calls;
  batcher<int, prefs> get_prefs([&](std::span<int> users) {
    prefs_calls.push_back(users.size());
    std::vector<prefs> out;
    for (int u : users) out.push_back(prefs{u % 2 == 0, 1000 + u});
    return out;
  });
  batcher<int, bool> send([&](std::span<int> addresses) {
    send_calls.push_back(addresses.size());
    return std::vector<bool>(addresses.size(), true);
  });
  std::vector<spawned<bool>> users;
  users.reserve(100);
  for (int u = 0; u < 100; ++u) users.push_back(sched.spawn(notify_user(get_prefs, send, u)));
  sched.run_all();
  while (sched.idle() > 0) {
  }
  EXPECT_EQ(prefs_calls, std::vector<std::size_t>(1, 100));
  EXPECT_EQ(send_calls, std::vector<std::size_t>(1, 50));
  int notified = 0;
  for (auto& u : users) notified += u.get() ? 1 : 0;
  EXPECT_EQ(notified, 50);
}

task<void> call_and_record(batcher<int, int>& b, int x, std::vector<int>& order) {
  std::optional<int> r = co_await b(x);
  order.push_back(r.value_or(-1));
}

TEST(batcher, CallersOfTheFlushingExecutorResumeInArrivalOrder) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  batcher<int, int> b(times_ten{&seen}, {.max_size = 4});
  std::vector<int> order;
  std::vector<spawned<void>> calls;
  for (int i = 1; i <= 4; ++i) calls.push_back(sched.spawn(call_and_record(b, i, order)));
  sched.run_all();
  ASSERT_EQ(seen.size(), 1U);
  std::vector<int> arrival_times_ten;
  for (int x : seen[0]) arrival_times_ten.push_back(x * 10);
  EXPECT_EQ(order, arrival_times_ten);
  EXPECT_EQ(order.size(), 4U);
}

task<int> call_repeatedly(batcher<int, int>& b, int x, int rounds) {
  int good = 0;
  for (int i = 0; i < rounds; ++i) {
    std::optional<int> r = co_await b(x);
    if (r == x * 10) ++good;
  }
  co_return good;
}

// Each batch's last caller fills it, its runner completes at once and resumes both callers,
// which fill the next one: resumed directly, nested completions must not grow the stack.
TEST(batcher, ManyBatchesInARowOnOneExecutorDoNotGrowTheStack) {
  constexpr int rounds = 50000;
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  batcher<int, int> b(
      [](std::span<int> args) { return std::vector<int>{args[0] * 10, args[1] * 10}; },
      {.max_size = 2});
  auto one = sched.spawn(call_repeatedly(b, 1, rounds));
  auto two = sched.spawn(call_repeatedly(b, 2, rounds));
  sched.run_all();
  EXPECT_EQ(one.get(), rounds);
  EXPECT_EQ(two.get(), rounds);
  EXPECT_EQ(b.stats().batches, static_cast<std::uint64_t>(rounds));
  EXPECT_EQ(b.stats().by_size, static_cast<std::uint64_t>(rounds));
}

task<void> bound_caller(batcher<int, int>& b, int x, std::atomic<int>& wrong, std::latch& done) {
  shoal::executor* before = shoal::executor::current();
  std::optional<int> r = co_await b(x);
  if (!r || *r != x * 10 || shoal::executor::current() != before) wrong.fetch_add(1);
  done.count_down();
}

// Blocks its worker's thread until `go` opens: the callers queued behind it then join without
// their worker going idle in between, so batches fill to their size whatever the timing.
task<void> hold_worker(std::latch& go) {
  go.wait();
  co_return;
}

TEST(batcher, CallersOnSeveralWorkersEachResumeOnTheirOwnWithTheirOwnResult) {
  constexpr int callers = 2000;
  std::atomic<int> wrong{0};
  std::latch done(callers);
  std::mutex seen_mutex;
  std::vector<int> seen;
  auto slow = [&](std::span<int> args) -> task<std::vector<int>> {
    co_await shoal::sleep_for(100us);  // a bulk call that awaits, as I/O would
    {
      const std::lock_guard lock(seen_mutex);
      seen.insert(seen.end(), args.begin(), args.end());
    }
    std::vector<int> out;
    for (int a : args) out.push_back(a * 10);
    co_return out;
  };
  {
    shoal::testing::running_pool p(4);
    batcher<int, int> b(slow, {.max_size = 64});
    std::latch go(1);
    for (std::size_t w = 0; w < 4; ++w) p.pool.spawn_on(w, hold_worker(go));
    for (int i = 0; i < callers; ++i) {
      p.pool.spawn_on(static_cast<std::size_t>(i) % 4, bound_caller(b, i, wrong, done));
    }
    go.count_down();
    done.wait();
    EXPECT_EQ(b.stats().items, static_cast<std::uint64_t>(callers));
    EXPECT_GT(b.stats().by_size, 0U);
  }
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(callers));
}

task<void> stoppable_caller(batcher<int, int>& b, int x, std::stop_token token,
                            std::atomic<int>& got, std::atomic<int>& none, std::latch& done) {
  std::optional<int> r = co_await shoal::with_stop_token(std::move(token), b(x));
  if (r) {
    got.fetch_add(*r == x * 10 ? 1 : 1000000);
  } else {
    none.fetch_add(1);
  }
  done.count_down();
}

// Callers on 3 workers, flushed by size, while another thread stops some of them: each
// token covers `per_token` consecutive callers (so shared stop callbacks race flushes too).
void race_cancellations_with_flushes(int per_token) {
  constexpr int callers = 1000;
  std::atomic<int> got{0};
  std::atomic<int> none{0};
  std::atomic<int> sent{0};
  std::latch done(callers);
  std::vector<std::stop_source> stops(callers);
  {
    shoal::testing::running_pool p(3);
    batcher<int, int> b(
        [&](std::span<int> args) {
          sent.fetch_add(static_cast<int>(args.size()));
          std::vector<int> out;
          for (int a : args) out.push_back(a * 10);
          return out;
        },
        {.max_size = 16});
    for (int i = 0; i < callers; ++i) {
      const std::stop_token token = stops[static_cast<std::size_t>(i / per_token)].get_token();
      p.pool.spawn(stoppable_caller(b, i, token, got, none, done));
      if (i % 3 == 0) stops[static_cast<std::size_t>(i / 2 / per_token)].request_stop();
    }
    done.wait();
    EXPECT_EQ(static_cast<std::uint64_t>(sent.load()), b.stats().items);
    EXPECT_LE(b.stats().cancelled, static_cast<std::uint64_t>(none.load()));
  }
  EXPECT_EQ(got.load() + none.load(), callers);
  EXPECT_LE(got.load(), sent.load());  // every value came from a bulk call
  EXPECT_LT(got.load(), 1000000);      // and was the caller's own
}

TEST(batcher, CancellationsFromAnotherThreadRaceFlushesSafely) {
  race_cancellations_with_flushes(1);
}

TEST(batcher, SharedTokenCancellationsFromAnotherThreadRaceFlushesSafely) {
  race_cancellations_with_flushes(8);
}

struct round_state {
  shoal::async_event go;     // set by the test thread: wakes the starter
  shoal::async_event start;  // set by the starter, on the worker: wakes every caller at once
  std::atomic<int> arrived{0};
  std::atomic<int>* wrong = nullptr;
};

// Sets `start` from the callers' own worker, so all of them are made ready in one go before
// the worker can go idle (set from another thread, they trickle in and idle flushes split the
// first batch).
task<void> start_round(round_state& s) {
  const bool go = co_await s.go.wait();
  if (go) s.start.set();
}

task<void> repeat_calls(batcher<int, int>& b, round_state& s, int x, int rounds, std::latch& done) {
  s.arrived.fetch_add(1);
  const bool started = co_await s.start.wait();
  for (int i = 0; started && i < rounds; ++i) {
    std::optional<int> r = co_await b(x);
    if (!r || *r != x * 10) s.wrong->fetch_add(1);
  }
  done.count_down();
}

// Runs `rounds` batches of `callers` items on one worker; returns the allocations made after
// every caller was spawned and waiting (so spawning is not counted).
std::uint64_t allocations_for(shoal::thread_pool& pool, batcher<int, int>& b, int callers,
                              int rounds, std::atomic<int>& wrong) {
  round_state s;
  s.wrong = &wrong;
  std::latch done(callers);
  for (int i = 0; i < callers; ++i) pool.spawn_on(0, repeat_calls(b, s, i, rounds, done));
  pool.spawn_on(0, start_round(s));
  while (s.arrived.load() < callers) std::this_thread::yield();  // all spawned and waiting
  const std::uint64_t before = allocations.load();
  s.go.set();
  done.wait();
  return allocations.load() - before;
}

TEST(batcher, SteadyStateCallsAllocateNothingPerItem) {
  if (!SHOAL_TEST_COUNTS_NEW) GTEST_SKIP() << "operator new is not counted under TSan";
  constexpr int callers = 100;
  constexpr int rounds = 20;
  std::atomic<int> wrong{0};
  shoal::testing::running_pool p(1);
  batcher<int, int> b(
      [](std::span<int> args) {
        std::vector<int> out(args.size());
        for (std::size_t i = 0; i < args.size(); ++i) out[i] = args[i] * 10;
        return out;
      },
      {.max_size = callers});
  (void)allocations_for(p.pool, b, callers, 3, wrong);  // warm up buffers, frames and queues
  const std::uint64_t during = allocations_for(p.pool, b, callers, rounds, wrong);
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(b.stats().batches, 23U);
  // Per batch of 100 items: the bulk function's result vector and, where the frame allocator
  // does not recycle (AddressSanitizer builds), the runner's two frames. One allocation per
  // item would make it at least 2,000.
  std::cout << "allocations: " << during << " for " << rounds << " batches of " << callers
            << " items\n";
  EXPECT_LE(during, static_cast<std::uint64_t>(rounds) * 3U + 4U);
}

}  // namespace
