// SPDX-License-Identifier: Apache-2.0
// when_all on the manual scheduler: results in order, void children, the range form, the
// failure policy (first exception rethrown, siblings cancelled and awaited, every child frame
// destroyed before the await returns), stop before / during / after, and what children inherit.
#include "shoal/when_all.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include "shoal/async_backtrace.hpp"
#include "shoal/coroutine_local.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "support/frame_probe.hpp"
#include "support/manual_scheduler.hpp"
#include "support/sleepy_child.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::fail_after;
using shoal::testing::frame_probe;
using shoal::testing::manual_scheduler;

// Sleeps `d`, then returns `value` (cancelled too); its end increments `ended` (even when
// cancelled).
task<int> sleep_then(shoal::duration d, int value, int* ended = nullptr) {
  co_await shoal::sleep_for(d);
  if (ended != nullptr) ++*ended;
  co_return value;
}

// Sleeps `d` and says whether the sleep ran to its end.
task<bool> sleeper(shoal::duration d) { co_return co_await shoal::sleep_for(d); }

// The same, with a probe in its frame.
task<bool> probed_sleeper(shoal::duration d, frame_probe probe) {
  static_cast<void>(probe);
  co_return co_await shoal::sleep_for(d);
}

TEST(WhenAll, ResultsComeInArgumentOrderWhateverOrderChildrenFinishIn) {
  manual_scheduler sched;
  auto body = []() -> task<std::tuple<int, int, int>> {
    co_return co_await shoal::when_all(sleep_then(30ms, 1), sleep_then(10ms, 2),
                                       sleep_then(20ms, 3));
  };
  auto s = sched.spawn(body());
  sched.run_all();
  EXPECT_EQ(sched.timer_count(), 3u) << "all three children started before any finished";
  sched.advance(30ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), std::make_tuple(1, 2, 3));
}

TEST(WhenAll, ChildrenRunConcurrentlyNotOneAfterAnother) {
  manual_scheduler sched;
  auto body = []() -> task<int> {
    auto [a, b] = co_await shoal::when_all(sleep_then(10ms, 1), sleep_then(10ms, 2));
    co_return a + b;
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(10ms);
  ASSERT_TRUE(s.done()) << "two 10 ms children take 10 ms together";
  EXPECT_EQ(s.get(), 3);
}

// The parent runs on its executor, so the first child starts at once, without a trip through
// the ready queue; the others are posted (and run when it suspends or ends).
TEST(WhenAll, TheLaunchRunsEveryChildInOrderAndPostsNone) {
  manual_scheduler sched;
  std::vector<int> ran;
  auto record = [&ran](int i) -> task<int> {
    ran.push_back(i);
    co_return i;
  };
  auto body = [&]() -> task<int> {
    auto [a, b, c] = co_await shoal::when_all(record(0), record(1), record(2));
    co_return a + b + c;
  };
  auto s = sched.spawn(body());
  ASSERT_TRUE(sched.run_one());  // the body: launches, runs children 0 and 1, then into 2
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(sched.ready_count(), 1u) << "only the parent, deferred by the last child";
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 3);
}

TEST(WhenAll, TheRangeLaunchRunsEachChildToItsFirstSuspensionInOrder) {
  manual_scheduler sched;
  std::vector<int> events;  // i: child i started; 100 + i: child i resumed after its sleep
  auto child = [&events](int i) -> task<int> {
    events.push_back(i);
    if (i % 2 == 0) {
      (void)co_await shoal::sleep_for(1ms);
      events.push_back(100 + i);
    }
    co_return i;
  };
  auto body = [&]() -> task<int> {
    std::vector<task<int>> children;
    for (int i = 0; i < 5; ++i) children.push_back(child(i));
    const std::vector<int> values = co_await shoal::when_all(std::move(children));
    int sum = 0;
    for (const int v : values) sum += v;
    co_return sum;
  };
  auto s = sched.spawn(body());
  ASSERT_TRUE(sched.run_one());
  EXPECT_EQ(events, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_EQ(sched.ready_count(), 0u) << "no child posted";
  sched.advance(1ms);
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 10);
  EXPECT_EQ(events.size(), 8u);
}

// Launches nest in line (a first child that forks in its first run) up to a limit; deeper ones
// post their other children, so the stack stays bounded however deep the fork chain is.
task<int> nested_fork(int depth) {
  if (depth == 0) co_return 1;
  auto leaf = []() -> task<int> { co_return 1; };
  auto [a, b] = co_await shoal::when_all(nested_fork(depth - 1), leaf());
  co_return a + b;
}

TEST(WhenAll, InLineLaunchesNestOnlyUpToTheirLimitThenPost) {
  constexpr int limit = static_cast<int>(shoal::detail::join_all::inline_launch_limit);
  constexpr int depth = limit + 8;
  manual_scheduler sched;
  auto s = sched.spawn(nested_fork(depth));
  ASSERT_TRUE(sched.run_one());
  // Launches 1 .. limit ran their first child in line; the 8 below them posted their leaf.
  EXPECT_EQ(sched.ready_count(), 8u);
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), depth + 1);
}

TEST(WhenAll, AForkChainFarDeeperThanTheInLineLimitCompletes) {
  manual_scheduler sched;
  auto s = sched.spawn(nested_fork(20000));
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 20001);
}

TEST(WhenAll, VoidChildrenGiveMonostatePlaceholders) {
  manual_scheduler sched;
  int ran = 0;
  auto work = [&]() -> task<void> {
    ++ran;
    co_return;
  };
  auto body = [&]() -> task<int> {
    auto [a, b, c] = co_await shoal::when_all(work(), sleep_then(1ms, 5), work());
    static_assert(std::is_same_v<decltype(a), std::monostate>);
    static_assert(std::is_same_v<decltype(c), std::monostate>);
    co_return b;
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 5);
  EXPECT_EQ(ran, 2);
}

TEST(WhenAll, NoChildrenCompletesAtOnceWithAnEmptyTuple) {
  manual_scheduler sched;
  auto body = []() -> task<std::tuple<>> { co_return co_await shoal::when_all(); };
  auto s = sched.spawn(body());
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), std::tuple<>());
}

TEST(WhenAll, RangeFormGivesValuesInVectorOrder) {
  manual_scheduler sched;
  auto body = []() -> task<std::vector<int>> {
    std::vector<task<int>> children;
    children.reserve(10);
    for (int i = 0; i < 10; ++i) children.push_back(sleep_then(shoal::duration(10ms - i * 1ms), i));
    co_return co_await shoal::when_all(std::move(children));
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(10ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

// Values that cannot be copied, and values that own memory, are moved out of the children's
// frames into the result in vector order (the range form builds its result in one pass).
TEST(WhenAll, RangeFormMovesMoveOnlyAndOwningValuesOutInVectorOrder) {
  manual_scheduler sched;
  auto boxed = [](shoal::duration d, int v) -> task<std::unique_ptr<int>> {
    co_await shoal::sleep_for(d);
    co_return std::make_unique<int>(v);
  };
  auto text = [](shoal::duration d, int v) -> task<std::string> {
    co_await shoal::sleep_for(d);
    co_return std::string(40, static_cast<char>('a' + v));  // past the small-string buffer
  };
  auto body = [&]() -> task<std::string> {
    std::vector<task<std::unique_ptr<int>>> boxes;
    std::vector<task<std::string>> texts;
    for (int i = 0; i < 5; ++i) {
      boxes.push_back(boxed(shoal::duration(5ms - i * 1ms), i));
      texts.push_back(text(shoal::duration(i * 1ms), i));
    }
    const std::vector<std::unique_ptr<int>> b = co_await shoal::when_all(std::move(boxes));
    const std::vector<std::string> t = co_await shoal::when_all(std::move(texts));
    std::string out;
    for (const auto& p : b) out += static_cast<char>('0' + (p ? *p : 9));
    for (const auto& s : t) out += s.size() == 40 ? s.front() : '?';
    co_return out;
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(5ms);
  sched.run_all();
  sched.advance(5ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), "01234abcde");
}

TEST(WhenAll, RangeOfVoidTasksWaitsForAll) {
  manual_scheduler sched;
  int ended = 0;
  auto child = [&](shoal::duration d) -> task<void> {
    co_await shoal::sleep_for(d);
    ++ended;
  };
  auto body = [&]() -> task<int> {
    std::vector<task<void>> children;
    children.reserve(4);
    for (int i = 1; i <= 4; ++i) children.push_back(child(i * 1ms));
    co_await shoal::when_all(std::move(children));
    co_return ended;
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(3ms);
  EXPECT_FALSE(s.done());
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 4);
}

TEST(WhenAll, EmptyRangeCompletesAtOnce) {
  manual_scheduler sched;
  auto body = []() -> task<std::size_t> {
    std::vector<int> values = co_await shoal::when_all(std::vector<task<int>>{});
    co_return values.size();
  };
  auto s = sched.spawn(body());
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 0u);
}

TEST(WhenAll, FirstExceptionIsRethrownAfterSiblingsAreCancelledAndTheirFramesDestroyed) {
  manual_scheduler sched;
  int destroyed = 0;
  struct outcome {
    std::string error;
    int destroyed_at_catch = -1;
    bool parent_stopped = true;
  };
  auto body = [&]() -> task<outcome> {
    outcome out;
    try {
      co_await shoal::when_all(probed_sleeper(1s, frame_probe(destroyed)), fail_after(1ms, "first"),
                               probed_sleeper(1s, frame_probe(destroyed)));
    } catch (const std::runtime_error& e) {
      out.error = e.what();
      out.destroyed_at_catch = destroyed;
    }
    out.parent_stopped = shoal::stop_requested();
    co_return out;
  };
  auto s = sched.spawn(body());
  sched.run_all();
  EXPECT_EQ(destroyed, 0);
  sched.advance(1ms);  // the failure cancels both sleepers at once: no need to wait 1 s
  ASSERT_TRUE(s.done());
  const outcome out = s.get();
  EXPECT_EQ(out.error, "first");
  EXPECT_EQ(out.destroyed_at_catch, 2) << "child frames outlived the await";
  EXPECT_FALSE(out.parent_stopped) << "a child's failure must not stop the caller";
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(WhenAll, OnlyTheFirstOfSeveralExceptionsIsRethrown) {
  manual_scheduler sched;
  auto stubborn_fail = [](shoal::duration d, const char* what) -> task<int> {
    co_await shoal::with_stop_token(std::stop_token{}, shoal::sleep_for(d));
    throw std::runtime_error(what);
  };
  auto body = [&]() -> task<std::string> {
    try {
      co_await shoal::when_all(stubborn_fail(2ms, "second"), stubborn_fail(1ms, "first"));
    } catch (const std::runtime_error& e) {
      co_return e.what();
    }
    co_return "nothing thrown";
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(1ms);
  EXPECT_FALSE(s.done()) << "the second child ignores the stop and is still awaited";
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), "first");
}

TEST(WhenAll, StopRequestedBeforeStartReachesEveryChildAtOnce) {
  manual_scheduler sched;
  std::stop_source source;
  source.request_stop();
  auto saw_stop = []() -> task<bool> { co_return shoal::stop_requested(); };
  auto body = [&]() -> task<std::tuple<bool, bool, bool>> {
    co_return co_await shoal::when_all(sleeper(1s), sleeper(1s), saw_stop());
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), body()));
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), std::make_tuple(false, false, true));
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(WhenAll, StopRequestedDuringWakesSleepingChildren) {
  manual_scheduler sched;
  std::stop_source source;
  auto body = []() -> task<std::tuple<bool, bool>> {
    co_return co_await shoal::when_all(sleeper(1s), sleeper(2s));
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), body()));
  sched.run_all();
  sched.advance(10ms);
  EXPECT_FALSE(s.done());
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), std::make_tuple(false, false));
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(WhenAll, StopRequestedAfterCompletionChangesNothing) {
  manual_scheduler sched;
  std::stop_source source;
  auto body = []() -> task<std::tuple<bool, bool>> {
    co_return co_await shoal::when_all(sleeper(1ms), sleeper(2ms));
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), body()));
  sched.run_all();
  sched.advance(2ms);
  ASSERT_TRUE(s.done());
  source.request_stop();
  EXPECT_EQ(sched.ready_count(), 0u);
  EXPECT_EQ(s.get(), std::make_tuple(true, true));
}

const shoal::coroutine_local<int> when_all_tenant{-1};

TEST(WhenAll, ChildrenInheritLocalsAndHomeButGetAForkedToken) {
  manual_scheduler sched;
  struct seen {
    int tenant = 0;
    bool bound_here = false;
    bool own_token = false;
  };
  auto child = [](std::stop_token parent) -> task<seen> {
    co_await shoal::sleep_for(1ms);
    const shoal::detail::task_env* env = shoal::detail::current_env;
    co_return seen{
        when_all_tenant.get(), env->home == shoal::executor::current(),
        shoal::current_stop_token() != parent && shoal::current_stop_token().stop_possible()};
  };
  auto body = [&]() -> task<std::tuple<seen, seen>> {
    auto scope = co_await when_all_tenant.bind(7);
    const std::stop_token mine = shoal::current_stop_token();
    co_return co_await shoal::when_all(child(mine), child(mine));
  };
  auto s = sched.spawn(body());  // the manual scheduler binds its chains to itself
  sched.run_all();
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  const auto [a, b] = s.get();
  for (const seen& x : {a, b}) {
    EXPECT_EQ(x.tenant, 7);
    EXPECT_TRUE(x.bound_here);
    EXPECT_TRUE(x.own_token);
  }
}

TEST(WhenAll, NestedWhenAllPassesCancellationDown) {
  manual_scheduler sched;
  std::stop_source source;
  auto inner = []() -> task<bool> {
    auto [a, b] = co_await shoal::when_all(sleeper(1s), sleeper(1s));
    co_return a || b;
  };
  auto body = [&]() -> task<std::tuple<bool, bool>> {
    co_return co_await shoal::when_all(inner(), sleeper(1s));
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), body()));
  sched.run_all();
  EXPECT_EQ(sched.timer_count(), 3u);
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), std::make_tuple(false, false));
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(WhenAll, AFailureDeepInsideCancelsTheOuterSiblings) {
  manual_scheduler sched;
  int destroyed = 0;
  auto inner = []() -> task<int> {
    auto [a, b] = co_await shoal::when_all(fail_after(1ms, "deep"), sleep_then(1s, 1));
    co_return a + b;
  };
  auto body = [&]() -> task<std::string> {
    try {
      co_await shoal::when_all(inner(), probed_sleeper(1s, frame_probe(destroyed)));
    } catch (const std::runtime_error& e) {
      co_return std::string(e.what()) + (destroyed == 1 ? " destroyed" : " alive");
    }
    co_return "nothing thrown";
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), "deep destroyed");
}

TEST(WhenAll, AChildsAsyncBacktraceContinuesIntoTheAwaitingParent) {
  manual_scheduler sched;
  auto child = [](const void* parent_frame) -> task<bool> {
    const std::vector<shoal::async_frame> frames = co_await shoal::async_backtrace_here();
    for (const shoal::async_frame& f : frames) {
      if (f.frame == parent_frame) co_return true;
    }
    co_return false;
  };
  auto body = [&]() -> task<std::tuple<bool, bool>> {
    const void* self = (co_await shoal::async_backtrace_here()).front().frame;
    co_return co_await shoal::when_all(child(self), child(self));
  };
  auto s = sched.spawn(body());
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), std::make_tuple(true, true));
}

TEST(WhenAll, ShuffledReadyOrderGivesTheSameResults) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    manual_scheduler sched(seed);
    auto body = []() -> task<std::vector<int>> {
      std::vector<task<int>> children;
      children.reserve(8);
      for (int i = 0; i < 8; ++i) children.push_back(sleep_then(shoal::duration(i % 3 * 1ms), i));
      co_return co_await shoal::when_all(std::move(children));
    };
    auto s = sched.spawn(body());
    sched.run_all();
    sched.advance(2ms);
    ASSERT_TRUE(s.done()) << "seed " << seed;
    EXPECT_EQ(s.get(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7})) << "seed " << seed;
  }
}

}  // namespace
