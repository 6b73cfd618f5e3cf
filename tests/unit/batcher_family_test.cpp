// SPDX-License-Identifier: Apache-2.0
// shoal::batcher and shoal::bound_batcher, one typed suite for what they share: flush by size,
// time, idleness and predicate; per-item and bulk errors; cancellation before the await, while
// the batch fills and during the bulk call, with shared tokens; arrival order; no stack growth
// and no allocation per call in steady state. Each runs on the manual scheduler, the batchers'
// home. What only one of them does: batcher_test.cpp, batcher_hardening_test.cpp,
// bound_batcher_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <vector>

#include "shoal/batcher.hpp"
#include "shoal/bound_batcher.hpp"
#include "shoal/stop.hpp"
#include "shoal/when_all.hpp"
#include "support/counting_new.hpp"
#include "support/manual_scheduler.hpp"
#include "unit/batcher_support.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::item_result;
using shoal::task;
using shoal::testing::allocations;
using shoal::testing::call;
using shoal::testing::fail_odd;
using shoal::testing::manual_scheduler;
using shoal::testing::sleeps_then_times_ten;
using shoal::testing::spawned;
using shoal::testing::times_ten;
using shoal::testing::values;

template <class Family>
class batcher_family : public ::testing::Test {
 protected:
  template <class Arg = int, class R = int>
  using batcher_t = typename Family::template type<Arg, R>;

  // A batcher<Arg, R> of the family under test, on sched.
  template <class Arg = int, class R = int, class Bulk>
  auto make(Bulk bulk, shoal::batch_options<Arg> options = {}) {
    return Family::template make<Arg, R>(sched, std::move(bulk), std::move(options));
  }

  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
};

struct family_names {
  template <class Family>
  static std::string GetName(int i) {  // NOLINT(readability-identifier-naming): gtest's name
    return i == 0 ? "batcher" : "bound_batcher";
  }
};

using families = ::testing::Types<shoal::testing::family<shoal::batcher>,
                                  shoal::testing::family<shoal::bound_batcher>>;
TYPED_TEST_SUITE(batcher_family, families, family_names);

TYPED_TEST(batcher_family, FlushesWhenTheBatchReachesItsSize) {
  auto b = this->make(times_ten{&this->seen}, {.max_size = 3});
  std::vector<spawned<std::optional<int>>> calls;
  for (int i = 1; i <= 7; ++i) calls.push_back(this->sched.spawn(call(*b, i)));
  this->sched.run_all();
  ASSERT_EQ(this->seen.size(), 2U);
  EXPECT_EQ(this->seen[0], values({1, 2, 3}));
  EXPECT_EQ(this->seen[1], values({4, 5, 6}));
  EXPECT_FALSE(calls[6].done());
  EXPECT_EQ(b->pending(), 1U);
  for (int i = 0; i < 6; ++i) EXPECT_EQ(calls[i].get(), (i + 1) * 10);
  EXPECT_EQ(b->stats().by_size, 2U);
  this->sched.idle();
  EXPECT_EQ(calls[6].get(), 70);
}

TYPED_TEST(batcher_family, FlushesWhenItsFirstCallerHasWaitedMaxWait) {
  auto b = this->make(times_ten{&this->seen}, {.max_size = 100, .max_wait = 10ms});
  auto first = this->sched.spawn(call(*b, 1));
  this->sched.run_all();
  this->sched.advance(4ms);
  auto second = this->sched.spawn(call(*b, 2));
  this->sched.run_all();
  this->sched.advance(5ms);
  EXPECT_TRUE(this->seen.empty());
  this->sched.advance(1ms);  // 10 ms after the first caller, 6 ms after the second
  ASSERT_EQ(this->seen.size(), 1U);
  EXPECT_EQ(this->seen[0], values({1, 2}));
  EXPECT_EQ(first.get(), 10);
  EXPECT_EQ(second.get(), 20);
  EXPECT_EQ(b->stats().by_time, 1U);
  EXPECT_EQ(this->sched.timer_count(), 0U);  // the timer was disarmed or fired
}

TYPED_TEST(batcher_family, AFlushBySizeDisarmsTheTimerAndTheNextBatchGetsItsOwn) {
  auto b = this->make(times_ten{&this->seen}, {.max_size = 2, .max_wait = 10ms});
  auto one = this->sched.spawn(call(*b, 1));
  auto two = this->sched.spawn(call(*b, 2));
  this->sched.run_all();
  EXPECT_EQ(this->sched.timer_count(), 0U);  // flushed by size: the timer went with the batch
  this->sched.advance(6ms);
  auto three = this->sched.spawn(call(*b, 3));
  this->sched.run_all();
  this->sched.advance(9ms);
  EXPECT_FALSE(three.done());  // its deadline counts from its own arrival
  this->sched.advance(1ms);
  ASSERT_EQ(this->seen.size(), 2U);
  EXPECT_EQ(this->seen[1], values({3}));
  EXPECT_EQ(three.get(), 30);
  EXPECT_EQ(b->stats().by_size, 1U);
  EXPECT_EQ(b->stats().by_time, 1U);
}

TYPED_TEST(batcher_family, FlushesAHalfFullBatchWhenItsExecutorGoesIdle) {
  auto b = this->make(times_ten{&this->seen}, {.max_size = 100});
  std::vector<spawned<std::optional<int>>> calls;
  for (int i = 1; i <= 5; ++i) calls.push_back(this->sched.spawn(call(*b, i)));
  this->sched.run_all();
  EXPECT_TRUE(this->seen.empty());
  EXPECT_GT(this->sched.idle(), 0U);
  ASSERT_EQ(this->seen.size(), 1U);
  EXPECT_EQ(this->seen[0], values({1, 2, 3, 4, 5}));
  for (int i = 0; i < 5; ++i) EXPECT_EQ(calls[i].get(), (i + 1) * 10);
  EXPECT_EQ(b->stats().by_idle, 1U);
  EXPECT_EQ(this->sched.idle(), 0U);  // nothing waits: idleness flushes nothing
  EXPECT_EQ(b->stats().batches, 1U);
}

TYPED_TEST(batcher_family, FlushesWhenThePredicateSaysSo) {
  auto sum_reaches_10 = [](std::span<const int> args) {
    return std::accumulate(args.begin(), args.end(), 0) >= 10;
  };
  auto b = this->make(times_ten{&this->seen}, {.flush_if = sum_reaches_10});
  std::vector<spawned<std::optional<int>>> calls;
  for (int x : {4, 4, 4, 1}) calls.push_back(this->sched.spawn(call(*b, x)));
  this->sched.run_all();
  ASSERT_EQ(this->seen.size(), 1U);
  EXPECT_EQ(this->seen[0], values({4, 4, 4}));
  EXPECT_EQ(b->stats().by_predicate, 1U);
  EXPECT_FALSE(calls[3].done());
  this->sched.idle();
  EXPECT_EQ(calls[3].get(), 10);
}

TYPED_TEST(batcher_family, AFlushIfThatThrowsFailsOnlyTheArrivingCallerAndLeavesTheBatchAsItWas) {
  auto throws_on_99 = [](std::span<const int> args) {
    if (args.back() == 99) throw std::invalid_argument("99");
    return false;
  };
  auto b = this->make(times_ten{&this->seen}, {.flush_if = throws_on_99});
  auto one = this->sched.spawn(call(*b, 1));
  auto bad = this->sched.spawn(call(*b, 99));
  auto two = this->sched.spawn(call(*b, 2));
  this->sched.run_all();
  ASSERT_TRUE(bad.done());
  EXPECT_EQ(b->pending(), 2U);  // the failed caller is not in the batch
  EXPECT_THROW((void)bad.get(), std::invalid_argument);
  this->sched.idle();
  ASSERT_EQ(this->seen.size(), 1U);
  EXPECT_EQ(this->seen[0], values({1, 2}));
  EXPECT_EQ(one.get(), 10);
  EXPECT_EQ(two.get(), 20);
}

// Each caller calls `rounds` times in a row: a batch's callers read their results one after the
// other while the next batch already fills (and completes) behind them.
template <class B>
task<int> call_in_a_row(B& b, int first, int rounds) {
  int wrong = 0;
  for (int r = 0; r < rounds; ++r) {
    const int x = first + r * 100;
    if (co_await b(x) != std::optional<int>(x * 10)) ++wrong;
  }
  co_return wrong;
}

TYPED_TEST(batcher_family, CallersReadTheirOwnResultsWhileLaterBatchesFillAndComplete) {
  auto b = this->make(times_ten{&this->seen}, {.max_size = 3});
  std::vector<spawned<int>> calls;
  for (int i = 1; i <= 5; ++i) calls.push_back(this->sched.spawn(call_in_a_row(*b, i, 4)));
  this->sched.run_all();
  for (int k = 0; k < 10 && b->pending() != 0; ++k) {
    this->sched.idle();
    this->sched.run_all();
  }
  for (auto& c : calls) EXPECT_EQ(c.get(), 0);
  EXPECT_EQ(b->stats().items, 20U);
}

template <class B>
task<std::optional<std::size_t>> measure(B& b, const std::string& kept) {
  std::optional<std::size_t> a = co_await b("abcd");  // built from a const char*
  std::optional<std::size_t> c = co_await b(kept);    // copied: the caller keeps its own
  co_return a.value_or(0) + c.value_or(0) + kept.size();
}

TYPED_TEST(batcher_family, ArgumentsAreBuiltFromWhatTheCallerPasses) {
  auto b = this->template make<std::string, std::size_t>([](std::span<std::string> args) {
    std::vector<std::size_t> out;
    for (const std::string& a : args) out.push_back(a.size());
    return out;
  });
  const std::string kept = "a string longer than the small-string buffer";
  auto m = this->sched.spawn(measure(*b, kept));
  this->sched.run_all();
  this->sched.idle();
  this->sched.idle();
  EXPECT_EQ(m.get(), 4 + 2 * kept.size());
}

TYPED_TEST(batcher_family, AFailedItemFailsOnlyItsOwnCaller) {
  auto b = this->template make<int, item_result<int>>(&fail_odd);
  auto two = this->sched.spawn(call(*b, 2));
  auto three = this->sched.spawn(call(*b, 3));
  auto four = this->sched.spawn(call(*b, 4));
  this->sched.run_all();
  this->sched.idle();
  EXPECT_EQ(two.get(), 20);
  EXPECT_THROW((void)three.get(), std::out_of_range);
  EXPECT_EQ(four.get(), 40);
  EXPECT_EQ(b->stats().batches, 1U);
}

TYPED_TEST(batcher_family, AFailedBulkCallFailsEveryCallerOfItsBatchWithItsError) {
  int calls_made = 0;
  auto b = this->make(
      [&](std::span<int> args) -> std::vector<int> {
        if (++calls_made == 1) throw std::runtime_error("down");
        return std::vector<int>(args.size(), 7);
      },
      {.max_size = 2});
  auto one = this->sched.spawn(call(*b, 1));
  auto two = this->sched.spawn(call(*b, 2));
  auto three = this->sched.spawn(call(*b, 3));
  auto four = this->sched.spawn(call(*b, 4));
  this->sched.run_all();
  EXPECT_THROW((void)one.get(), std::runtime_error);
  EXPECT_THROW((void)two.get(), std::runtime_error);
  EXPECT_EQ(three.get(), 7);  // the next batch is unaffected
  EXPECT_EQ(four.get(), 7);
}

TYPED_TEST(batcher_family, AnAwaitingBulkCallThatThrowsFailsEveryCaller) {
  auto b = this->make([](std::span<int>) -> task<std::vector<int>> {
    co_await shoal::sleep_for(1ms);
    throw std::runtime_error("down later");
  });
  auto one = this->sched.spawn(call(*b, 1));
  auto two = this->sched.spawn(call(*b, 2));
  this->sched.run_all();
  this->sched.idle();
  this->sched.advance(1ms);
  EXPECT_THROW((void)one.get(), std::runtime_error);
  EXPECT_THROW((void)two.get(), std::runtime_error);
}

TYPED_TEST(batcher_family, AWrongResultCountIsALogicError) {
  auto b = this->make([](std::span<int>) { return std::vector<int>(1, 0); });
  auto one = this->sched.spawn(call(*b, 1));
  auto two = this->sched.spawn(call(*b, 2));
  this->sched.run_all();
  this->sched.idle();
  EXPECT_THROW((void)one.get(), std::logic_error);
  EXPECT_THROW((void)two.get(), std::logic_error);
}

TYPED_TEST(batcher_family, AStopRequestedBeforeTheAwaitJoinsNothing) {
  auto b = this->make(times_ten{&this->seen});
  std::stop_source stop;
  stop.request_stop();
  auto one = this->sched.spawn(shoal::with_stop_token(stop.get_token(), call(*b, 1)));
  this->sched.run_all();
  EXPECT_TRUE(one.done());
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_EQ(b->pending(), 0U);
  EXPECT_EQ(this->sched.idle(), 0U);
  EXPECT_TRUE(this->seen.empty());
}

// A when_all child that fails at once: its scope requests its (lazy) stop.
task<int> fails_first_in_scope() {
  throw std::runtime_error("first child");
  co_return 0;
}

// A when_all child that runs after its scope's stop was requested: one call of b, its result
// kept in `got`.
template <class B>
task<int> calls_after_scope_stopped(B& b, std::optional<std::optional<int>>& got) {
  got = co_await b(2);
  co_return 0;
}

template <class B>
task<void> scope_with_failing_child(B& b, std::optional<std::optional<int>>& got, bool& threw) {
  try {
    (void)co_await shoal::when_all(fails_first_in_scope(), calls_after_scope_stopped(b, got));
  } catch (const std::runtime_error&) {
    threw = true;
  }
}

TYPED_TEST(batcher_family, AStopOfTheEnclosingScopeRequestedBeforeTheAwaitJoinsNothing) {
  auto b = this->make(times_ten{&this->seen});
  std::optional<std::optional<int>> got;  // empty: the second child never resumed
  bool threw = false;
  auto scope = this->sched.spawn(scope_with_failing_child(*b, got, threw));
  this->sched.run_all();
  EXPECT_EQ(this->sched.idle(), 0U);  // nothing pending: an idle flush would have nothing to send
  this->sched.run_all();
  ASSERT_TRUE(scope.done());
  EXPECT_TRUE(threw);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, std::nullopt);
  EXPECT_EQ(b->stats().cancelled, 0U);  // never joined: it did not have to leave a batch
  EXPECT_EQ(b->pending(), 0U);
  EXPECT_TRUE(this->seen.empty());
}

// Two callers in a when_all, joined to a filling batch, and a third child that fails: the scope's
// stop reaches them through the callback its first caller hosts on the scope's lazy stop (never
// made into a std::stop_token); with `nested`, they are the children of an inner when_all, whose
// callbacks the outer scope's stop reaches through the inner scope's link to it.
template <class B>
task<std::optional<int>> call_in_scope(B& b, int x) {
  co_return co_await b(x);
}

template <class B>
task<int> pair_in_inner_scope(B& b, std::optional<int>& one, std::optional<int>& two) {
  auto [a, c] = co_await shoal::when_all(call_in_scope(b, 1), call_in_scope(b, 2));
  one = a;
  two = c;
  co_return 0;
}

template <class B>
task<void> callers_then_failing_child(B& b, bool nested, std::optional<int>& one,
                                      std::optional<int>& two, bool& threw) {
  try {
    if (nested) {
      (void)co_await shoal::when_all(pair_in_inner_scope(b, one, two), fails_first_in_scope());
    } else {
      auto [a, c, f] = co_await shoal::when_all(call_in_scope(b, 1), call_in_scope(b, 2),
                                                fails_first_in_scope());
      (void)a;
      (void)c;
      (void)f;
    }
  } catch (const std::runtime_error&) {
    threw = true;
  }
}

TYPED_TEST(batcher_family, CallersOfAWhenAllWhoseSiblingFailsLeaveTheFillingBatch) {
  for (const bool nested : {false, true}) {
    auto b = this->make(times_ten{&this->seen}, {.max_size = 100, .max_wait = 10ms});
    std::optional<int> one = 7;
    std::optional<int> two = 7;
    bool threw = false;
    auto scope = this->sched.spawn(callers_then_failing_child(*b, nested, one, two, threw));
    this->sched.run_all();
    ASSERT_TRUE(scope.done()) << nested;
    EXPECT_TRUE(threw) << nested;
    EXPECT_EQ(b->stats().cancelled, 2U) << nested;  // both joined, then left
    EXPECT_EQ(b->pending(), 0U) << nested;
    EXPECT_EQ(this->sched.timer_count(), 0U) << nested;  // the batch's deadline went with them
    EXPECT_TRUE(this->seen.empty()) << nested;
    if (nested) {  // the inner when_all returned: both calls gave nullopt
      EXPECT_EQ(one, std::nullopt);
      EXPECT_EQ(two, std::nullopt);
    }
  }
}

// An item that counts its moves (from when the bulk function returns).
struct move_counted {
  static inline int moves = 0;
  int value = 0;
  explicit move_counted(int v) noexcept : value(v) {}
  move_counted(const move_counted&) = delete;
  move_counted& operator=(const move_counted&) = delete;
  move_counted(move_counted&& other) noexcept : value(other.value) { ++moves; }
  move_counted& operator=(move_counted&& other) noexcept {
    value = other.value;
    ++moves;
    return *this;
  }
  ~move_counted() = default;
};

template <class B>
task<int> call_counting_moves(B& b, int x, int& moves) {
  std::optional<move_counted> r = co_await b(x);
  moves = move_counted::moves;
  co_return r ? r->value : -1;
}

// The caller reads its item from the batch's results as it resumes: one move, none through the
// awaiter.
TYPED_TEST(batcher_family, EachItemIsMovedOnceFromTheBulkResultToItsCaller) {
  auto b = this->template make<int, move_counted>([](std::span<int> args) {
    std::vector<move_counted> out;
    out.reserve(args.size());
    for (int a : args) out.emplace_back(a * 10);
    move_counted::moves = 0;
    return out;
  });
  int moves = -1;
  auto one = this->sched.spawn(call_counting_moves(*b, 4, moves));
  this->sched.run_all();
  this->sched.idle();
  this->sched.run_all();
  ASSERT_TRUE(one.done());
  EXPECT_EQ(one.get(), 40);
  EXPECT_EQ(moves, 1);
}

TYPED_TEST(batcher_family, ACallerStoppedWhileItsBatchFillsLeavesItAndIsNotSent) {
  auto b = this->make(times_ten{&this->seen}, {.max_size = 100, .max_wait = 10ms});
  std::stop_source first_stop;
  std::stop_source third_stop;
  auto first = this->sched.spawn(shoal::with_stop_token(first_stop.get_token(), call(*b, 1)));
  auto two = this->sched.spawn(call(*b, 2));
  auto three = this->sched.spawn(shoal::with_stop_token(third_stop.get_token(), call(*b, 3)));
  this->sched.run_all();
  EXPECT_EQ(b->pending(), 3U);
  third_stop.request_stop();
  first_stop.request_stop();   // the first arrival leaves: the batch's deadline stays
  EXPECT_FALSE(three.done());  // the stop posted it: it resumes on its executor
  this->sched.run_all();
  EXPECT_EQ(three.get(), std::nullopt);
  EXPECT_EQ(first.get(), std::nullopt);
  EXPECT_EQ(b->pending(), 1U);
  EXPECT_EQ(b->stats().cancelled, 2U);
  auto five = this->sched.spawn(call(*b, 5));
  this->sched.run_all();
  this->sched.advance(10ms);  // the batch's deadline still counts from the first arrival
  ASSERT_EQ(this->seen.size(), 1U);
  EXPECT_EQ(this->seen[0], values({2, 5}));
  EXPECT_EQ(two.get(), 20);
  EXPECT_EQ(five.get(), 50);
}

TYPED_TEST(batcher_family, WhenEveryCallerLeavesTheTimerIsDisarmed) {
  auto b = this->make(times_ten{&this->seen}, {.max_wait = 10ms});
  std::stop_source stop;
  auto one = this->sched.spawn(shoal::with_stop_token(stop.get_token(), call(*b, 1)));
  this->sched.run_all();
  EXPECT_EQ(this->sched.timer_count(), 1U);
  stop.request_stop();
  this->sched.run_all();
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_EQ(this->sched.timer_count(), 0U);
  EXPECT_EQ(b->pending(), 0U);
}

// Callers sharing a token share one stop callback (hosted by the first of them in the batch);
// stopping it must still take out exactly the callers of that token, wherever they sit.
TYPED_TEST(batcher_family, StoppingASharedTokenTakesOutEveryCallerOfItAndNoOther) {
  auto b = this->make(times_ten{&this->seen});
  std::stop_source a;
  std::stop_source other;
  std::vector<spawned<std::optional<int>>> calls;
  // a, other, a, a, other, a: hosts are the 1st, 2nd, 3rd and 5th callers; the 4th and 6th
  // are covered.
  for (int x : {1, 2, 3, 4, 5, 6}) {
    const std::stop_token t = (x == 2 || x == 5) ? other.get_token() : a.get_token();
    calls.push_back(this->sched.spawn(shoal::with_stop_token(t, call(*b, x))));
  }
  this->sched.run_all();
  EXPECT_EQ(b->pending(), 6U);
  a.request_stop();
  this->sched.run_all();
  EXPECT_EQ(b->pending(), 2U);
  EXPECT_EQ(b->stats().cancelled, 4U);
  for (int i : {0, 2, 3, 5}) {
    EXPECT_TRUE(calls[static_cast<std::size_t>(i)].done()) << i;
    EXPECT_EQ(calls[static_cast<std::size_t>(i)].get(), std::nullopt) << i;
  }
  auto seven = this->sched.spawn(shoal::with_stop_token(other.get_token(), call(*b, 7)));
  this->sched.run_all();
  this->sched.idle();
  ASSERT_EQ(this->seen.size(), 1U);
  EXPECT_EQ(this->seen[0], values({2, 5, 7}));
  EXPECT_EQ(calls[1].get(), 20);
  EXPECT_EQ(calls[4].get(), 50);
  EXPECT_EQ(seven.get(), 70);
}

TYPED_TEST(batcher_family, CallersStoppedDuringTheBulkCallGetNulloptWhenItReturns) {
  auto b = this->make(sleeps_then_times_ten{&this->seen});
  std::stop_source shared;
  auto one = this->sched.spawn(shoal::with_stop_token(shared.get_token(), call(*b, 1)));
  auto two = this->sched.spawn(call(*b, 2));
  auto three = this->sched.spawn(shoal::with_stop_token(shared.get_token(), call(*b, 3)));
  this->sched.run_all();
  this->sched.idle();  // the bulk call starts and sleeps
  shared.request_stop();
  this->sched.run_all();
  EXPECT_FALSE(one.done());  // a sent batch is never left: its cancellation waits for the call
  EXPECT_FALSE(three.done());
  this->sched.advance(10ms);
  ASSERT_EQ(this->seen.size(), 1U);
  EXPECT_EQ(this->seen[0], values({1, 2, 3}));  // their arguments were sent already
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_EQ(two.get(), 20);
  EXPECT_EQ(three.get(), std::nullopt);
}

template <class B>
task<void> call_and_record(B& b, int x, std::vector<int>& order) {
  std::optional<int> r = co_await b(x);
  order.push_back(r.value_or(-1));
}

TYPED_TEST(batcher_family, CallersResumeInArrivalOrder) {
  auto b = this->make(times_ten{&this->seen}, {.max_size = 4});
  std::vector<int> order;
  std::vector<spawned<void>> calls;
  for (int i = 1; i <= 4; ++i) calls.push_back(this->sched.spawn(call_and_record(*b, i, order)));
  this->sched.run_all();
  ASSERT_EQ(this->seen.size(), 1U);
  std::vector<int> arrival_times_ten;  // the ready queue may be shuffled (dev preset)
  for (int x : this->seen[0]) arrival_times_ten.push_back(x * 10);
  EXPECT_EQ(order, arrival_times_ten);
  EXPECT_EQ(order.size(), 4U);
}

template <class B>
task<int> call_repeatedly(B& b, int x, int rounds) {
  int good = 0;
  for (int i = 0; i < rounds; ++i) {
    std::optional<int> r = co_await b(x);
    if (r == x * 10) ++good;
  }
  co_return good;
}

// Each batch's last caller fills it, its runner completes at once and resumes both callers,
// which fill the next one: resumed directly, nested completions must not grow the stack.
TYPED_TEST(batcher_family, ManyBatchesInARowOnOneExecutorDoNotGrowTheStack) {
  constexpr int rounds = 50000;
  auto b =
      this->make([](std::span<int> args) { return std::vector<int>{args[0] * 10, args[1] * 10}; },
                 {.max_size = 2});
  auto one = this->sched.spawn(call_repeatedly(*b, 1, rounds));
  auto two = this->sched.spawn(call_repeatedly(*b, 2, rounds));
  this->sched.run_all();
  EXPECT_EQ(one.get(), rounds);
  EXPECT_EQ(two.get(), rounds);
  EXPECT_EQ(b->stats().batches, static_cast<std::uint64_t>(rounds));
  EXPECT_EQ(b->stats().by_size, static_cast<std::uint64_t>(rounds));
}

template <class B>
task<void> repeat_calls(B& b, int x, int rounds, int& wrong) {
  for (int i = 0; i < rounds; ++i) {
    std::optional<int> r = co_await b(x);
    if (!r || *r != x * 10) ++wrong;
  }
}

// Runs `rounds` batches of `callers` items; returns the allocations made once every caller was
// spawned (so spawning is not counted).
template <class B>
std::uint64_t allocations_for(manual_scheduler& sched, B& b, int callers, int rounds, int& wrong) {
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

TYPED_TEST(batcher_family, SteadyStateCallsAllocateNothingPerItem) {
  if (!SHOAL_TEST_COUNTS_NEW) GTEST_SKIP() << "operator new is not counted under TSan";
  constexpr int callers = 100;
  constexpr int rounds = 20;
  int wrong = 0;
  auto b = this->make(
      [](std::span<int> args) {
        std::vector<int> out(args.size());
        for (std::size_t i = 0; i < args.size(); ++i) out[i] = args[i] * 10;
        return out;
      },
      {.max_size = callers});
  (void)allocations_for(this->sched, *b, callers, 3, wrong);  // warm up buffers and frames
  const std::uint64_t during = allocations_for(this->sched, *b, callers, rounds, wrong);
  EXPECT_EQ(wrong, 0);
  EXPECT_EQ(b->stats().batches, 23U);
  // Per batch of 100 items: the bulk function's result vector and, where the frame allocator
  // does not recycle (AddressSanitizer builds), the runner's two frames. One allocation per
  // item would make it at least 2,000. The few more: a block of the scheduler's ready queue.
  std::cout << "allocations: " << during << " for " << rounds << " batches of " << callers
            << " items\n";
  EXPECT_LE(during, static_cast<std::uint64_t>(rounds) * 3U + 4U);
}

}  // namespace
