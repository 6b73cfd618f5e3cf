// shoal::bound_batcher: flush by size, time, idleness and predicate; per-item and bulk errors;
// cancellation before the await, while the batch fills and during the bulk call, with shared
// tokens; misuse from another executor or worker; stop requests from another thread (TSan);
// no allocation per call in steady state (operator new is counted in this test program, which
// is why it is a program of its own: shoal_unit_tests counts it for batcher_test.cpp).
#include "shoal/bound_batcher.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <iostream>
#include <latch>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/thread_pool.hpp"
#include "support/counting_new.hpp"
#include "support/manual_scheduler.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::bound_batcher;
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

// An awaiting bulk function: sleeps 10 ms (a timer of the home executor), then times_ten.
struct sleeps_then_times_ten {
  std::vector<std::vector<int>>* seen;
  task<std::vector<int>> operator()(std::span<int> args) const {
    co_await shoal::sleep_for(10ms);
    co_return times_ten{seen}(args);
  }
};

using int_batcher = bound_batcher<int, int>;

task<std::optional<int>> call(int_batcher& b, int x) {
  std::optional<int> r = co_await b(x);
  co_return r;
}

std::vector<int> values(std::initializer_list<int> v) { return v; }

TEST(bound_batcher, FlushesWhenTheBatchReachesItsSize) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen}, {.max_size = 3});
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
  sched.idle();
  EXPECT_EQ(calls[6].get(), 70);
}

TEST(bound_batcher, FlushesWhenItsFirstCallerHasWaitedMaxWait) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen}, {.max_size = 100, .max_wait = 10ms});
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
  EXPECT_EQ(sched.timer_count(), 0U);
}

TEST(bound_batcher, AFlushBySizeDisarmsTheTimerAndTheNextBatchGetsItsOwn) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen}, {.max_size = 2, .max_wait = 10ms});
  auto one = sched.spawn(call(b, 1));
  auto two = sched.spawn(call(b, 2));
  sched.run_all();
  EXPECT_EQ(sched.timer_count(), 0U);  // flushed by size: the timer went with the batch
  sched.advance(6ms);
  auto three = sched.spawn(call(b, 3));
  sched.run_all();
  sched.advance(9ms);
  EXPECT_FALSE(three.done());  // its deadline counts from its own arrival
  sched.advance(1ms);
  ASSERT_EQ(seen.size(), 2U);
  EXPECT_EQ(seen[1], values({3}));
  EXPECT_EQ(three.get(), 30);
  EXPECT_EQ(b.stats().by_size, 1U);
  EXPECT_EQ(b.stats().by_time, 1U);
}

TEST(bound_batcher, FlushesAHalfFullBatchWhenItsExecutorGoesIdle) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen}, {.max_size = 100});
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

TEST(bound_batcher, FlushesWhenThePredicateSaysSo) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  auto sum_reaches_10 = [](std::span<const int> args) {
    return std::accumulate(args.begin(), args.end(), 0) >= 10;
  };
  int_batcher b(sched, times_ten{&seen}, {.flush_if = sum_reaches_10});
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

TEST(bound_batcher, AFlushIfThatThrowsFailsOnlyTheArrivingCallerAndLeavesTheBatchAsItWas) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  auto throws_on_99 = [](std::span<const int> args) {
    if (args.back() == 99) throw std::invalid_argument("99");
    return false;
  };
  int_batcher b(sched, times_ten{&seen}, {.flush_if = throws_on_99});
  auto one = sched.spawn(call(b, 1));
  auto bad = sched.spawn(call(b, 99));
  auto two = sched.spawn(call(b, 2));
  sched.run_all();
  EXPECT_EQ(b.pending(), 2U);
  EXPECT_THROW((void)bad.get(), std::invalid_argument);
  sched.idle();
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({1, 2}));
  EXPECT_EQ(one.get(), 10);
  EXPECT_EQ(two.get(), 20);
}

// Each caller calls `rounds` times in a row: a batch's callers read their results from it one
// after the other while the next batch already fills (and completes) behind them.
task<int> call_in_a_row(int_batcher& b, int first, int rounds) {
  int wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    const int x = first + r * 100;
    if (co_await b(x) != std::optional<int>(x * 10)) ++wrong;
  }
  co_return wrong;
}

TEST(bound_batcher, CallersReadTheirOwnResultsWhileLaterBatchesFillAndComplete) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen}, {.max_size = 3});
  std::vector<spawned<int>> calls;
  for (int i = 1; i <= 5; ++i) calls.push_back(sched.spawn(call_in_a_row(b, i, 4)));
  sched.run_all();
  for (int k = 0; k < 10 && b.pending() != 0; ++k) {
    sched.idle();
    sched.run_all();
  }
  for (auto& c : calls) EXPECT_EQ(c.get(), 0);
  EXPECT_EQ(b.stats().items, 20U);
}

task<std::optional<std::size_t>> measure(bound_batcher<std::string, std::size_t>& b,
                                         const std::string& kept) {
  std::optional<std::size_t> a = co_await b("abcd");  // built in place from a const char*
  std::optional<std::size_t> c = co_await b(kept);    // copied: the caller keeps its own
  co_return a.value_or(0) + c.value_or(0) + kept.size();
}

TEST(bound_batcher, ArgumentsAreBuiltFromWhatTheCallerPasses) {
  manual_scheduler sched;
  bound_batcher<std::string, std::size_t> b(sched, [](std::span<std::string> args) {
    std::vector<std::size_t> out;
    for (const std::string& a : args) out.push_back(a.size());
    return out;
  });
  const std::string kept = "a string longer than the small-string buffer";
  auto m = sched.spawn(measure(b, kept));
  sched.run_all();
  sched.idle();
  sched.idle();
  EXPECT_EQ(m.get(), 4 + 2 * kept.size());
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

task<std::optional<int>> call_items(bound_batcher<int, item_result<int>>& b, int x) {
  std::optional<int> r = co_await b(x);
  co_return r;
}

TEST(bound_batcher, AFailedItemFailsOnlyItsOwnCaller) {
  manual_scheduler sched;
  bound_batcher<int, item_result<int>> b(sched, &fail_odd);
  auto two = sched.spawn(call_items(b, 2));
  auto three = sched.spawn(call_items(b, 3));
  auto four = sched.spawn(call_items(b, 4));
  sched.run_all();
  sched.idle();
  EXPECT_EQ(two.get(), 20);
  EXPECT_THROW((void)three.get(), std::out_of_range);
  EXPECT_EQ(four.get(), 40);
}

TEST(bound_batcher, AFailedBulkCallFailsEveryCallerOfItsBatchWithItsError) {
  manual_scheduler sched;
  int calls_made = 0;
  int_batcher b(sched,
                [&](std::span<int> args) -> std::vector<int> {
                  if (++calls_made == 1) throw std::runtime_error("down");
                  return std::vector<int>(args.size(), 7);
                },
                {.max_size = 2});
  auto one = sched.spawn(call(b, 1));
  auto two = sched.spawn(call(b, 2));
  auto three = sched.spawn(call(b, 3));
  auto four = sched.spawn(call(b, 4));
  sched.run_all();
  EXPECT_THROW((void)one.get(), std::runtime_error);
  EXPECT_THROW((void)two.get(), std::runtime_error);
  EXPECT_EQ(three.get(), 7);  // the next batch is unaffected
  EXPECT_EQ(four.get(), 7);
}

TEST(bound_batcher, AnAwaitingBulkCallThatThrowsFailsEveryCaller) {
  manual_scheduler sched;
  int_batcher b(sched, [](std::span<int>) -> task<std::vector<int>> {
    co_await shoal::sleep_for(1ms);
    throw std::runtime_error("down later");
  });
  auto one = sched.spawn(call(b, 1));
  auto two = sched.spawn(call(b, 2));
  sched.run_all();
  sched.idle();
  sched.advance(1ms);
  EXPECT_THROW((void)one.get(), std::runtime_error);
  EXPECT_THROW((void)two.get(), std::runtime_error);
}

TEST(bound_batcher, AWrongResultCountIsALogicError) {
  manual_scheduler sched;
  int_batcher b(sched, [](std::span<int>) { return std::vector<int>(1, 0); });
  auto one = sched.spawn(call(b, 1));
  auto two = sched.spawn(call(b, 2));
  sched.run_all();
  sched.idle();
  EXPECT_THROW((void)one.get(), std::logic_error);
  EXPECT_THROW((void)two.get(), std::logic_error);
}

// The buffers a batch of `b` was sent in, over rounds of two callers that complete before the
// next round starts: a batch is recycled once its last caller has read it (or its error), so
// two batches (the one filling, the one being read) serve every round. Counts the callers that
// got an exception.
template <class Batcher, class Seen>
std::size_t buffers_over_rounds(manual_scheduler& sched, Batcher& b, Seen& data, int rounds,
                                int& failed) {
  for (int r = 0; r < rounds; ++r) {
    auto one = sched.spawn(call_items(b, 2 * r));
    auto two = sched.spawn(call_items(b, 2 * r + 1));
    sched.run_all();
    for (auto* c : {&one, &two}) {
      EXPECT_TRUE(c->done());
      try {
        (void)c->get();
      } catch (const std::exception&) {  // the odd item, or the whole batch
        ++failed;
      }
    }
  }
  std::sort(data.begin(), data.end());
  return static_cast<std::size_t>(std::unique(data.begin(), data.end()) - data.begin());
}

TEST(bound_batcher, ABatchIsRecycledOnceItsLastCallerReadItsResultOrItsError) {
  manual_scheduler sched;
  std::vector<const int*> data;
  int batch = 0;
  // Every second batch fails as a whole; in the others the odd item fails.
  bound_batcher<int, item_result<int>> b(sched,
                                         [&](std::span<int> args) {
                                           data.push_back(args.data());
                                           if (++batch % 2 == 0) throw std::runtime_error("down");
                                           return fail_odd(args);
                                         },
                                         {.max_size = 2});
  int failed = 0;
  EXPECT_EQ(buffers_over_rounds(sched, b, data, 10, failed), 2U);
  EXPECT_EQ(failed, 5 * 1 + 5 * 2);
  EXPECT_EQ(b.stats().batches, 10U);
}

TEST(bound_batcher, AStopRequestedBeforeTheAwaitJoinsNothing) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen});
  std::stop_source stop;
  stop.request_stop();
  auto one = sched.spawn(shoal::with_stop_token(stop.get_token(), call(b, 1)));
  sched.run_all();
  EXPECT_TRUE(one.done());
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_EQ(b.pending(), 0U);
  EXPECT_EQ(sched.idle(), 0U);
  EXPECT_TRUE(seen.empty());
}

TEST(bound_batcher, ACallerStoppedWhileItsBatchFillsLeavesItAndIsNotSent) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen}, {.max_size = 100, .max_wait = 10ms});
  std::stop_source first_stop;
  std::stop_source third_stop;
  auto first = sched.spawn(shoal::with_stop_token(first_stop.get_token(), call(b, 1)));
  auto two = sched.spawn(call(b, 2));
  auto three = sched.spawn(shoal::with_stop_token(third_stop.get_token(), call(b, 3)));
  sched.run_all();
  EXPECT_EQ(b.pending(), 3U);
  third_stop.request_stop();
  first_stop.request_stop();   // the first arrival leaves: the batch's deadline stays
  EXPECT_FALSE(three.done());  // the stop only posted it; it leaves on home
  sched.run_all();
  EXPECT_EQ(three.get(), std::nullopt);
  EXPECT_EQ(first.get(), std::nullopt);
  EXPECT_EQ(b.pending(), 1U);
  EXPECT_EQ(b.stats().cancelled, 2U);
  auto five = sched.spawn(call(b, 5));
  sched.run_all();
  sched.advance(10ms);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({2, 5}));
  EXPECT_EQ(two.get(), 20);
  EXPECT_EQ(five.get(), 50);
}

TEST(bound_batcher, WhenEveryCallerLeavesTheTimerIsDisarmed) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen}, {.max_wait = 10ms});
  std::stop_source stop;
  auto one = sched.spawn(shoal::with_stop_token(stop.get_token(), call(b, 1)));
  sched.run_all();
  EXPECT_EQ(sched.timer_count(), 1U);
  stop.request_stop();
  sched.run_all();
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_EQ(sched.timer_count(), 0U);
  EXPECT_EQ(b.pending(), 0U);
}

// Callers sharing a token share one stop callback (hosted by the first of them in the batch);
// stopping it must still take out exactly the callers of that token, wherever they sit.
TEST(bound_batcher, StoppingASharedTokenTakesOutEveryCallerOfItAndNoOther) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen});
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

TEST(bound_batcher, CallersStoppedDuringTheBulkCallGetNulloptWhenItReturns) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, sleeps_then_times_ten{&seen});
  std::stop_source shared;
  auto one = sched.spawn(shoal::with_stop_token(shared.get_token(), call(b, 1)));
  auto two = sched.spawn(call(b, 2));
  auto three = sched.spawn(shoal::with_stop_token(shared.get_token(), call(b, 3)));
  sched.run_all();
  sched.idle();  // the bulk call starts and sleeps
  shared.request_stop();
  sched.run_all();
  EXPECT_FALSE(one.done());  // a sent batch is never left: the batcher may not go before it
  EXPECT_FALSE(three.done());
  sched.advance(10ms);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({1, 2, 3}));  // their arguments were sent already
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_EQ(two.get(), 20);
  EXPECT_EQ(three.get(), std::nullopt);
}

// The stop callback fires and posts the host, but the batch is flushed before the host runs:
// the flush must take it (and those it covers) out, and it must be resumed once, by its post.
TEST(bound_batcher, AHostStoppedJustBeforeTheFlushLeavesTheBatchAndIsResumedOnce) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen});
  std::stop_source stop;
  auto one = sched.spawn(shoal::with_stop_token(stop.get_token(), call(b, 1)));
  auto two = sched.spawn(call(b, 2));
  auto three = sched.spawn(shoal::with_stop_token(stop.get_token(), call(b, 3)));
  sched.run_all();
  stop.request_stop();  // posts the host; nothing runs yet
  EXPECT_EQ(sched.ready_count(), 1U);
  sched.idle();  // flushes: the host and the caller it covers leave, the rest is sent
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({2}));
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_EQ(two.get(), 20);
  EXPECT_EQ(three.get(), std::nullopt);
  EXPECT_EQ(b.stats().cancelled, 2U);
}

TEST(bound_batcher, ABatchWhoseCallersAllLeftAtTheFlushSendsNothing) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen}, {.max_wait = 10ms});
  std::stop_source stop;
  auto one = sched.spawn(shoal::with_stop_token(stop.get_token(), call(b, 1)));
  sched.run_all();
  stop.request_stop();  // posts the host
  sched.idle();         // the flush finds it stopped: nothing to send
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_TRUE(seen.empty());
  EXPECT_EQ(b.stats().batches, 0U);
  EXPECT_EQ(sched.timer_count(), 0U);
}

task<void> call_and_record(int_batcher& b, int x, std::vector<int>& order) {
  std::optional<int> r = co_await b(x);
  order.push_back(r.value_or(-1));
}

TEST(bound_batcher, CallersResumeInArrivalOrder) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen}, {.max_size = 4});
  std::vector<int> order;
  std::vector<spawned<void>> calls;
  for (int i = 1; i <= 4; ++i) calls.push_back(sched.spawn(call_and_record(b, i, order)));
  sched.run_all();
  EXPECT_EQ(order, values({10, 20, 30, 40}));
}

task<int> call_repeatedly(int_batcher& b, int x, int rounds) {
  int good = 0;
  for (int i = 0; i < rounds; ++i) {
    std::optional<int> r = co_await b(x);
    if (r == x * 10) ++good;
  }
  co_return good;
}

// Each batch's last caller fills it, its runner completes at once and resumes both callers,
// which fill the next one: resumed directly, nested completions must not grow the stack.
TEST(bound_batcher, ManyBatchesInARowOnOneExecutorDoNotGrowTheStack) {
  constexpr int rounds = 50000;
  manual_scheduler sched;
  int_batcher b(sched,
                [](std::span<int> args) { return std::vector<int>{args[0] * 10, args[1] * 10}; },
                {.max_size = 2});
  auto one = sched.spawn(call_repeatedly(b, 1, rounds));
  auto two = sched.spawn(call_repeatedly(b, 2, rounds));
  sched.run_all();
  EXPECT_EQ(one.get(), rounds);
  EXPECT_EQ(two.get(), rounds);
  EXPECT_EQ(b.stats().batches, static_cast<std::uint64_t>(rounds));
}

TEST(bound_batcher, AnAwaitFromAnotherExecutorThrowsWrongExecutorAndChangesNothing) {
  manual_scheduler home;
  manual_scheduler elsewhere;
  std::vector<std::vector<int>> seen;
  int_batcher b(home, times_ten{&seen});
  auto stray = elsewhere.spawn(call(b, 1));
  elsewhere.run_all();
  ASSERT_TRUE(stray.done());
  try {
    (void)stray.get();
    ADD_FAILURE() << "no exception";
  } catch (const shoal::wrong_executor& e) {
    EXPECT_NE(std::string(e.what()).find("bound to executor"), std::string::npos) << e.what();
  }
  EXPECT_EQ(b.pending(), 0U);
  auto fine = home.spawn(call(b, 2));
  home.run_all();
  home.idle();
  EXPECT_EQ(fine.get(), 20);
  EXPECT_EQ(seen.size(), 1U);
}

TEST(bound_batcher, BuiltOutsideAnyExecutorWithoutAHomeIsALogicError) {
  std::vector<std::vector<int>> seen;
  EXPECT_THROW(int_batcher(times_ten{&seen}), std::logic_error);
}

task<void> report_executor(std::promise<shoal::executor*>& where) {
  where.set_value(shoal::executor::current());
  co_return;
}

shoal::executor& executor_of_worker(shoal::thread_pool& pool, std::size_t k) {
  std::promise<shoal::executor*> where;
  std::future<shoal::executor*> result = where.get_future();
  pool.spawn_on(k, report_executor(where));
  return *result.get();
}

task<void> call_into(int_batcher& b, int x, std::promise<std::optional<int>>& out) {
  try {
    out.set_value(co_await b(x));
  } catch (...) {
    out.set_exception(std::current_exception());
  }
}

TEST(bound_batcher, AnAwaitFromAnotherWorkerThrowsWrongExecutor) {
  shoal::testing::running_pool p(2);
  std::vector<std::vector<int>> seen;
  int_batcher b(executor_of_worker(p.pool, 0), times_ten{&seen}, {.max_size = 1});
  std::promise<std::optional<int>> stray;
  std::promise<std::optional<int>> fine;
  p.pool.spawn_on(1, call_into(b, 1, stray));
  EXPECT_THROW((void)stray.get_future().get(), shoal::wrong_executor);
  p.pool.spawn_on(0, call_into(b, 2, fine));
  EXPECT_EQ(fine.get_future().get(), 20);
}

task<void> stoppable_caller(int_batcher& b, int x, std::stop_token token, std::atomic<int>& got,
                            std::atomic<int>& none, std::latch& done) {
  std::optional<int> r = co_await shoal::with_stop_token(std::move(token), b(x));
  if (r) {
    got.fetch_add(*r == x * 10 ? 1 : 1000000);
  } else {
    none.fetch_add(1);
  }
  done.count_down();
}

// Callers on worker 0 of 2, flushed by size into an awaiting bulk call, while the test thread
// stops a third of them: each token covers `per_token` consecutive callers, so stop posts race
// joins, flushes and completions, landing before the await, while batches fill and during bulk
// calls (the counts are printed: each kind should be there).
void race_stops_from_another_thread(int per_token) {
  constexpr int callers = 1000;
  std::atomic<int> got{0};
  std::atomic<int> none{0};
  std::latch done(callers);
  std::vector<std::stop_source> stops(callers);
  std::vector<char> sent(callers, 0);  // written on worker 0, read after `done`
  {
    shoal::testing::running_pool p(2);
    auto bulk = [&sent](std::span<int> args) -> task<std::vector<int>> {
      co_await shoal::sleep_for(50us);
      std::vector<int> out;
      for (int a : args) {
        sent[static_cast<std::size_t>(a)] = 1;
        out.push_back(a * 10);
      }
      co_return out;
    };
    int_batcher b(executor_of_worker(p.pool, 0), bulk, {.max_size = 16});
    for (int i = 0; i < callers; ++i) {
      const std::stop_token token = stops[static_cast<std::size_t>(i / per_token)].get_token();
      p.pool.spawn_on(0, stoppable_caller(b, i, token, got, none, done));
      const int earlier = i - 4;  // spawned a moment ago: waiting, in its bulk call or done
      if (earlier >= 0 && earlier % 3 == 0) {
        stops[static_cast<std::size_t>(earlier / per_token)].request_stop();
      }
      if (i % 4 == 0) std::this_thread::sleep_for(5us);
    }
    done.wait();
  }
  EXPECT_EQ(got.load() + none.load(), callers);
  EXPECT_LT(got.load(), 1000000);  // every value was the caller's own
  int sent_count = 0;
  for (char c : sent) sent_count += c;
  EXPECT_LE(got.load(), sent_count);
  std::cout << "returned a value: " << got.load() << ", cancelled: " << none.load()
            << " (of which sent: " << sent_count - got.load() << ")\n";
}

TEST(bound_batcher, StopsFromAnotherThreadRaceJoinsAndCompletionsSafely) {
  race_stops_from_another_thread(1);
}

TEST(bound_batcher, SharedTokenStopsFromAnotherThreadRaceJoinsAndCompletionsSafely) {
  race_stops_from_another_thread(8);
}

task<void> repeat_calls(int_batcher& b, int x, int rounds, int& wrong) {
  for (int i = 0; i < rounds; ++i) {
    std::optional<int> r = co_await b(x);
    if (!r || *r != x * 10) ++wrong;
  }
}

// Runs `rounds` batches of `callers` items; returns the allocations made once every caller was
// spawned (so spawning is not counted).
std::uint64_t allocations_for(manual_scheduler& sched, int_batcher& b, int callers, int rounds,
                              int& wrong) {
  std::stop_source scope;  // every caller carries a stoppable token, as under when_all
  std::vector<spawned<void>> calls;
  calls.reserve(static_cast<std::size_t>(callers));
  for (int i = 0; i < callers; ++i) {
    calls.push_back(
        sched.spawn(shoal::with_stop_token(scope.get_token(), repeat_calls(b, i, rounds, wrong))));
  }
  const std::uint64_t before = allocations.load();
  sched.run_all();
  const std::uint64_t during = allocations.load() - before;
  for (auto& c : calls) EXPECT_TRUE(c.done());
  return during;
}

TEST(bound_batcher, SteadyStateCallsAllocateNothingPerItem) {
  if (!SHOAL_TEST_COUNTS_NEW) GTEST_SKIP() << "operator new is not counted under TSan";
  constexpr int callers = 100;
  constexpr int rounds = 20;
  manual_scheduler sched;
  int wrong = 0;
  int_batcher b(sched,
                [](std::span<int> args) {
                  std::vector<int> out(args.size());
                  for (std::size_t i = 0; i < args.size(); ++i) out[i] = args[i] * 10;
                  return out;
                },
                {.max_size = callers});
  (void)allocations_for(sched, b, callers, 3, wrong);  // warm up buffers, frames and queues
  const std::uint64_t during = allocations_for(sched, b, callers, rounds, wrong);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(b.stats().batches, 23U);
  // Per batch of 100 items: the bulk function's result vector and, where the frame allocator
  // does not recycle (AddressSanitizer builds), the runner's two frames. One allocation per
  // item would make it at least 2,000. The few more: a block of the scheduler's ready queue.
  std::cout << "allocations: " << during << " for " << rounds << " batches of " << callers
            << " items\n";
  EXPECT_LE(during, static_cast<std::uint64_t>(rounds) * 3U + 4U);
}

}  // namespace
