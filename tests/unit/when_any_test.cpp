// SPDX-License-Identifier: Apache-2.0
// when_any on the manual scheduler: the first child to end wins, the losers are cancelled and
// awaited (their frames destroyed before the await returns), a winner's exception is rethrown,
// and stop before / during / after.
#include "shoal/when_any.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <variant>
#include <vector>

#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "support/frame_probe.hpp"
#include "support/manual_scheduler.hpp"
#include "support/sleepy_child.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::after;
using shoal::testing::frame_probe;
using shoal::testing::manual_scheduler;
using shoal::testing::probed_after;

TEST(WhenAny, TheFirstToFinishWinsAndTheLosersAreCancelledAndAwaited) {
  manual_scheduler sched;
  int cancelled = 0;
  int destroyed = 0;
  struct outcome {
    shoal::when_any_result<int> first;
    int cancelled_then = -1;
    int destroyed_then = -1;
  };
  auto body = [&]() -> task<outcome> {
    std::vector<task<int>> replicas;
    replicas.push_back(probed_after(30ms, 10, &cancelled, frame_probe(destroyed)));
    replicas.push_back(probed_after(10ms, 11, &cancelled, frame_probe(destroyed)));
    replicas.push_back(probed_after(20ms, 12, &cancelled, frame_probe(destroyed)));
    auto first = co_await shoal::when_any(std::move(replicas));
    co_return outcome{first, cancelled, destroyed};
  };
  auto s = sched.spawn(body());
  sched.run_all();
  EXPECT_EQ(sched.timer_count(), 3u);
  sched.advance(10ms);
  ASSERT_TRUE(s.done()) << "losers are cancelled at once, not waited out";
  const outcome out = s.get();
  EXPECT_EQ(out.first.index, 1u);
  EXPECT_EQ(out.first.value, 11);
  EXPECT_EQ(out.cancelled_then, 2);
  EXPECT_EQ(out.destroyed_then, 3) << "child frames outlived the await";
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(WhenAny, VariadicFormGivesTheWinnerAsTheAlternativeOfItsPosition) {
  manual_scheduler sched;
  auto text = []() -> task<std::string> {
    co_await shoal::sleep_for(5ms);
    co_return "late";
  };
  auto nothing = []() -> task<void> { co_await shoal::sleep_for(1s); };
  auto body = [&]() -> task<std::variant<std::string, int, std::monostate>> {
    co_return co_await shoal::when_any(text(), after(2ms, 7), nothing());
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(2ms);
  ASSERT_TRUE(s.done());
  const auto winner = s.get();
  ASSERT_EQ(winner.index(), 1u);
  EXPECT_EQ(std::get<1>(winner), 7);
}

TEST(WhenAny, SameTypedVariadicChildrenAreToldApartByIndex) {
  manual_scheduler sched;
  auto body = []() -> task<std::size_t> {
    auto winner = co_await shoal::when_any(after(3ms, 1), after(2ms, 1), after(4ms, 1));
    co_return winner.index();
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(2ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 1u);
}

TEST(WhenAny, AWinnerThatThrowsHasItsExceptionRethrownAfterTheLosersEnd) {
  manual_scheduler sched;
  int cancelled = 0;
  int destroyed = 0;
  auto failing = []() -> task<int> {
    co_await shoal::sleep_for(1ms);
    throw std::runtime_error("replica down");
  };
  auto body = [&]() -> task<std::string> {
    try {
      co_await shoal::when_any(failing(), probed_after(1s, 1, &cancelled, frame_probe(destroyed)));
    } catch (const std::runtime_error& e) {
      co_return std::string(e.what()) + " " + std::to_string(cancelled) + " " +
          std::to_string(destroyed);
    }
    co_return "nothing thrown";
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), "replica down 1 1");
}

TEST(WhenAny, ALoserThatIgnoresTheStopDelaysTheResultUntilItEnds) {
  manual_scheduler sched;
  auto stubborn = []() -> task<int> {
    co_await shoal::with_stop_token(std::stop_token{}, shoal::sleep_for(50ms));
    co_return 2;
  };
  auto body = [&]() -> task<std::size_t> {
    auto winner = co_await shoal::when_any(after(1ms, 1), stubborn());
    co_return winner.index();
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(1ms);
  EXPECT_FALSE(s.done()) << "the result must wait for every loser";
  sched.advance(49ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 0u);
}

TEST(WhenAny, AnEmptyRangeThrowsInvalidArgument) {
  manual_scheduler sched;
  auto body = []() -> task<int> {
    auto winner = co_await shoal::when_any(std::vector<task<int>>{});
    co_return winner.value;
  };
  auto s = sched.spawn(body());
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_THROW(s.get(), std::invalid_argument);
}

TEST(WhenAny, StopRequestedBeforeStartEndsEveryChildAtOnce) {
  manual_scheduler sched;
  std::stop_source source;
  source.request_stop();
  auto body = []() -> task<int> {
    auto winner = co_await shoal::when_any(after(1s, 1), after(2s, 2));
    co_return winner.index() == 0 ? std::get<0>(winner) : std::get<1>(winner);
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), body()));
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), -1) << "the winner saw its sleep cancelled";
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(WhenAny, StopRequestedDuringWakesEveryChild) {
  manual_scheduler sched;
  std::stop_source source;
  auto body = []() -> task<int> {
    std::vector<task<int>> children;
    children.push_back(after(1s, 1));
    children.push_back(after(2s, 2));
    auto winner = co_await shoal::when_any(std::move(children));
    co_return winner.value;
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), body()));
  sched.run_all();
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), -1);
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(WhenAny, StopRequestedAfterCompletionChangesNothing) {
  manual_scheduler sched;
  std::stop_source source;
  auto body = []() -> task<int> {
    auto winner = co_await shoal::when_any(after(1ms, 1), after(2ms, 2));
    co_return std::get<0>(winner);
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), body()));
  sched.run_all();
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  source.request_stop();
  EXPECT_EQ(sched.ready_count(), 0u);
  EXPECT_EQ(s.get(), 1);
}

TEST(WhenAny, TheCallerIsNotStoppedByItsChildrensCancellation) {
  manual_scheduler sched;
  auto body = []() -> task<bool> {
    co_await shoal::when_any(after(1ms, 1), after(1s, 2));
    co_return shoal::stop_requested() || !co_await shoal::sleep_for(1ms);
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(1ms);
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_FALSE(s.get());
}

}  // namespace
