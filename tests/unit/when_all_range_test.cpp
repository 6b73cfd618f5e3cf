// SPDX-License-Identifier: Apache-2.0
// when_all over a range that is not a std::vector of tasks (a view that makes them, an rvalue
// container), on the manual scheduler: 0, 1 and many children in the range's order, a range that
// does not know its size and outgrows the block's first room, the failure policy from a middle
// child, a stop mid-range, move-only and non-default-constructible values, an iteration that
// throws, and which ranges the overload takes.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <memory>
#include <ranges>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "shoal/detail/awaitable_traits.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/when_all.hpp"
#include "support/frame_probe.hpp"
#include "support/manual_scheduler.hpp"
#include "support/sleepy_child.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::after;
using shoal::testing::fail_after;
using shoal::testing::frame_probe;
using shoal::testing::manual_scheduler;

template <class R>
concept when_all_takes = requires(R&& r) { shoal::when_all(std::forward<R>(r)); };

// A view of prvalue tasks, an rvalue container (moved from) and a vector are taken; a container
// of someone else's tasks (an lvalue, or a borrowed view of one) is not.
static_assert(when_all_takes<decltype(std::views::iota(0, 3) |
                                      std::views::transform([](int) { return after(1ms, 0); }))>);
static_assert(when_all_takes<std::array<task<int>, 2>>);
static_assert(when_all_takes<std::vector<task<int>>>);
static_assert(!when_all_takes<std::array<task<int>, 2>&>);
static_assert(!when_all_takes<const std::array<task<int>, 2>>);
static_assert(!when_all_takes<std::ranges::ref_view<std::array<task<int>, 2>>>);

// A value with no default constructor that cannot be copied.
class token {
 public:
  explicit token(int v) : v_(std::make_unique<int>(v)) {}
  [[nodiscard]] int value() const { return v_ ? *v_ : -1; }

 private:
  std::unique_ptr<int> v_;
};

TEST(WhenAllRange, AViewOfManyChildrenGivesValuesInRangeOrderWhateverOrderTheyEndIn) {
  manual_scheduler sched;
  auto body = []() -> task<std::vector<int>> {
    co_return co_await shoal::when_all(std::views::iota(0, 10) | std::views::transform([](int i) {
                                         return after(shoal::duration(10ms - i * 1ms), i);
                                       }));
  };
  auto s = sched.spawn(body());
  sched.run_all();
  EXPECT_EQ(sched.timer_count(), 10u) << "every child started before any ended";
  sched.advance(10ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}));
}

TEST(WhenAllRange, AnEmptyViewCompletesAtOnceAndAOneChildViewGivesItsValue) {
  manual_scheduler sched;
  auto body = []() -> task<std::pair<std::size_t, std::vector<int>>> {
    auto make = [](int i) { return after(1ms, i + 7); };
    const std::vector<int> none =
        co_await shoal::when_all(std::views::iota(0, 0) | std::views::transform(make));
    std::vector<int> one =
        co_await shoal::when_all(std::views::iota(0, 1) | std::views::transform(make));
    co_return std::pair{none.size(), std::move(one)};
  };
  auto s = sched.spawn(body());
  sched.run_all();
  EXPECT_EQ(sched.timer_count(), 1u) << "the empty range suspended nothing";
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  const auto [none, one] = s.get();
  EXPECT_EQ(none, 0u);
  EXPECT_EQ(one, std::vector<int>{7});
}

// A filter does not know its size: the tasks go into the inline room first, then into a block
// that doubles, moved over each time; every child still runs once, and its value comes in the
// range's order.
TEST(WhenAllRange, AnUnsizedRangeBeyondTheBlocksFirstRoomKeepsEveryChildInOrder) {
  manual_scheduler sched;
  int destroyed = 0;
  constexpr int odd = 50;  // past the inline room (16) and a first block (32)
  auto child = [](int v, frame_probe probe) -> task<int> {
    static_cast<void>(probe);
    co_await shoal::sleep_for(shoal::duration((v % 3) * 1ms));
    co_return v;
  };
  auto body = [&]() -> task<std::vector<int>> {
    co_return co_await shoal::when_all(
        std::views::iota(0, 2 * odd) | std::views::filter([](int i) { return i % 2 == 1; }) |
        std::views::transform([&](int i) { return child(i, frame_probe(destroyed)); }));
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(2ms);
  ASSERT_TRUE(s.done());
  std::vector<int> expected;
  for (int i = 1; i < 2 * odd; i += 2) expected.push_back(i);
  EXPECT_EQ(s.get(), expected);
  EXPECT_EQ(destroyed, odd);
}

// The awaitable may be moved before it is awaited (sync_wait takes it by value): tasks held in
// its inline room move with it, a block changes hands; none runs twice or is lost.
TEST(WhenAllRange, AMovedAwaitableKeepsItsInlineAndItsBlockTasks) {
  manual_scheduler sched;
  int destroyed = 0;
  int cancelled = 0;
  auto body = [&]() -> task<std::pair<std::vector<int>, std::vector<int>>> {
    auto make = [&](int i) {
      return shoal::testing::probed_after(shoal::duration((i % 4) * 1ms), i, &cancelled,
                                          frame_probe(destroyed));
    };
    auto few = shoal::when_all(std::views::iota(0, 3) | std::views::transform(make));
    auto many = shoal::when_all(std::views::iota(0, 40) | std::views::transform(make));
    auto few_moved = std::move(few);
    auto many_moved = std::move(many);
    std::vector<int> a = co_await std::move(few_moved);
    std::vector<int> b = co_await std::move(many_moved);
    co_return std::pair{std::move(a), std::move(b)};
  };
  auto s = sched.spawn(body());
  for (int i = 0; i < 8; ++i) {
    sched.run_all();
    sched.advance(1ms);
  }
  ASSERT_TRUE(s.done());
  const auto [a, b] = s.get();
  EXPECT_EQ(a, (std::vector<int>{0, 1, 2}));
  ASSERT_EQ(b.size(), 40u);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(b[static_cast<std::size_t>(i)], i);
  EXPECT_EQ(destroyed, 43);
  EXPECT_EQ(cancelled, 0);
}

TEST(WhenAllRange, AFailureOfTheMiddleChildCancelsItsSiblingsAndIsRethrownAfterTheirFramesGo) {
  manual_scheduler sched;
  int destroyed = 0;
  int cancelled = 0;
  auto body = [&]() -> task<std::pair<std::string, int>> {
    auto make = [&](int i) -> task<int> {
      if (i == 2) return fail_after(1ms, "middle");
      return shoal::testing::probed_after(1s, i, &cancelled, frame_probe(destroyed));
    };
    try {
      co_await shoal::when_all(std::views::iota(0, 5) | std::views::transform(make));
    } catch (const std::runtime_error& e) {
      co_return std::pair{std::string(e.what()), destroyed};
    }
    co_return std::pair{std::string("nothing thrown"), destroyed};
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(1ms);  // the failure cancels the four sleepers at once
  ASSERT_TRUE(s.done());
  const auto [error, destroyed_at_catch] = s.get();
  EXPECT_EQ(error, "middle");
  EXPECT_EQ(destroyed_at_catch, 4) << "child frames outlived the await";
  EXPECT_EQ(cancelled, 4);
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(WhenAllRange, AStopMidRangeWakesEveryChildStillSleeping) {
  manual_scheduler sched;
  std::stop_source source;
  auto body = []() -> task<std::vector<int>> {
    co_return co_await shoal::when_all(std::views::iota(1, 5) | std::views::transform([](int i) {
                                         return after(shoal::duration(i * 10ms), i);
                                       }));
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), body()));
  sched.run_all();
  sched.advance(25ms);  // children 1 and 2 have ended; 3 and 4 sleep on
  EXPECT_FALSE(s.done());
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), (std::vector<int>{1, 2, -1, -1}));
  EXPECT_EQ(sched.timer_count(), 0u);
}

// The values are neither copyable nor default-constructible: each is moved out of its frame into
// the result, in order. The range is an rvalue array of tasks, moved from.
TEST(WhenAllRange, MoveOnlyValuesWithoutADefaultComeInOrderFromAnRvalueArray) {
  manual_scheduler sched;
  auto make = [](shoal::duration d, int v) -> task<token> {
    co_await shoal::sleep_for(d);
    co_return token(v);
  };
  auto body = [&]() -> task<std::vector<int>> {
    std::array<task<token>, 3> children{make(3ms, 0), make(1ms, 1), make(2ms, 2)};
    const std::vector<token> tokens = co_await shoal::when_all(std::move(children));
    std::vector<int> out;
    for (const token& t : tokens) out.push_back(t.value());
    co_return out;
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(3ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), (std::vector<int>{0, 1, 2}));
}

// A range of void tasks gives void, once every child has ended (here in the reverse of the
// range's order).
TEST(WhenAllRange, AViewOfVoidTasksGivesNothingOnceEveryChildHasEnded) {
  manual_scheduler sched;
  std::vector<int> ends;
  auto body = [&]() -> task<std::vector<int>> {
    auto make = [&ends](int i) -> task<void> {
      co_await shoal::sleep_for(shoal::duration((4 - i) * 1ms));
      ends.push_back(i);
    };
    static_assert(std::is_void_v<shoal::detail::await_result_t<decltype(shoal::when_all(
                      std::views::iota(0, 4) | std::views::transform(make)))>>);
    co_await shoal::when_all(std::views::iota(0, 4) | std::views::transform(make));
    co_return ends;
  };
  auto s = sched.spawn(body());
  sched.run_all();
  sched.advance(3ms);
  EXPECT_EQ(ends, (std::vector<int>{3, 2, 1}));
  EXPECT_FALSE(s.done());
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), (std::vector<int>{3, 2, 1, 0}));
}

// An iteration that throws part-way gives the exception from when_all itself, before any child
// started; the tasks made so far are destroyed unstarted.
TEST(WhenAllRange, AnIterationThatThrowsDestroysTheTasksMadeSoFarUnstarted) {
  int destroyed = 0;
  int started = 0;
  auto child = [&started](frame_probe probe) -> task<int> {
    static_cast<void>(probe);
    ++started;
    co_return 0;
  };
  auto children = std::views::iota(0, 5) | std::views::transform([&](int i) {
                    if (i == 3) throw std::runtime_error("no fourth child");
                    return child(frame_probe(destroyed));
                  });
  EXPECT_THROW(static_cast<void>(shoal::when_all(children)), std::runtime_error);
  EXPECT_EQ(destroyed, 3);
  EXPECT_EQ(started, 0);
}

}  // namespace
