// SPDX-License-Identifier: Apache-2.0
// task_group / with_task_group on the manual scheduler: results by completion order with spawn
// indices, the end of the scope cancelling and awaiting what is left, exceptions delivered and
// never lost, stop before / during / after, timeouts and nested groups.
#include "shoal/task_group.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <utility>
#include <vector>

#include "shoal/coroutine_local.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/timeout.hpp"
#include "support/frame_probe.hpp"
#include "support/manual_scheduler.hpp"
#include "support/sleepy_child.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::task_group;
using shoal::testing::after;
using shoal::testing::fail_after;
using shoal::testing::frame_probe;
using shoal::testing::manual_scheduler;
using shoal::testing::probed_after;

using pairs = std::vector<std::pair<std::size_t, int>>;

TEST(TaskGroup, NextResultGivesChildrenInTheOrderTheyFinishWithTheirSpawnIndex) {
  manual_scheduler sched;
  auto body = [](task_group<int>& group) -> task<pairs> {
    EXPECT_EQ(group.spawn(after(30ms, 100)), 0u);
    EXPECT_EQ(group.spawn(after(10ms, 101)), 1u);
    EXPECT_EQ(group.spawn(after(20ms, 102)), 2u);
    pairs seen;
    while (auto r = co_await group.next_result()) seen.emplace_back(r->index(), r->take_value());
    co_return seen;
  };
  auto s = sched.spawn(shoal::with_task_group<int>(body));
  sched.run_all();
  sched.advance(10ms);
  sched.advance(10ms);
  EXPECT_FALSE(s.done());
  sched.advance(10ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), (pairs{{1, 101}, {2, 102}, {0, 100}}));
}

TEST(TaskGroup, NextResultIsEmptyAtOnceWhenNothingIsOutstanding) {
  manual_scheduler sched;
  auto body = [](task_group<int>& group) -> task<bool> {
    const bool empty_before = !(co_await group.next_result()).has_value();
    group.spawn([]() -> task<int> { co_return 1; }());
    auto r = co_await group.next_result();
    const bool empty_after = !(co_await group.next_result()).has_value();
    co_return empty_before&& r.has_value() && r->take_value() == 1 &&
        empty_after&& group.outstanding() == 0;
  };
  auto s = sched.spawn(shoal::with_task_group<int>(body));
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_TRUE(s.get());
}

TEST(TaskGroup, ResultsAlreadyFinishedAreTakenWithoutSuspending) {
  manual_scheduler sched;
  auto body = [](task_group<int>& group) -> task<pairs> {
    for (int i = 0; i < 4; ++i) group.spawn(after(1ms, i));
    co_await shoal::sleep_for(5ms);  // every child has finished meanwhile
    pairs seen;
    while (auto r = co_await group.next_result()) seen.emplace_back(r->index(), r->take_value());
    co_return seen;
  };
  auto s = sched.spawn(shoal::with_task_group<int>(body));
  sched.run_all();
  sched.advance(1ms);
  EXPECT_EQ(sched.ready_count(), 0u);
  sched.advance(4ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), (pairs{{0, 0}, {1, 1}, {2, 2}, {3, 3}}));
}

TEST(TaskGroup, TheEndOfTheScopeCancelsPendingChildrenAndAwaitsThem) {
  manual_scheduler sched;
  int cancelled = 0;
  int destroyed = 0;
  auto body = [&](task_group<int>& group) -> task<int> {
    group.spawn(probed_after(1s, 1, &cancelled, frame_probe(destroyed)));
    group.spawn(probed_after(5ms, 2, &cancelled, frame_probe(destroyed)));
    group.spawn(probed_after(2s, 3, &cancelled, frame_probe(destroyed)));
    auto fastest = co_await group.next_result();
    co_return fastest->take_value();
  };
  auto outer = [&]() -> task<std::vector<int>> {
    const int fastest = co_await shoal::with_task_group<int>(body);
    co_return std::vector<int>{fastest, cancelled, destroyed};
  };
  auto s = sched.spawn(outer());
  sched.run_all();
  sched.advance(5ms);
  ASSERT_TRUE(s.done()) << "the slow children are cancelled, not waited out";
  EXPECT_EQ(s.get(), (std::vector<int>{2, 2, 3}));
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(TaskGroup, AChildsExceptionIsDeliveredThroughNextResult) {
  manual_scheduler sched;
  auto body = [](task_group<int>& group) -> task<std::string> {
    group.spawn(fail_after(1ms, "shard 0 failed"));
    group.spawn(after(2ms, 5));
    auto failed = co_await group.next_result();
    auto fine = co_await group.next_result();
    std::string out = std::to_string(failed->index()) + (failed->has_value() ? " value" : " error");
    try {
      failed->take_value();
    } catch (const std::runtime_error& e) {
      out += std::string(" ") + e.what();
    }
    co_return out + " " + std::to_string(fine->take_value());
  };
  auto s = sched.spawn(shoal::with_task_group<int>(body));
  sched.run_all();
  sched.advance(2ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), "0 error shard 0 failed 5");
}

TEST(TaskGroup, AnExceptionNeverTakenIsRethrownAfterEveryChildHasEnded) {
  manual_scheduler sched;
  int cancelled = 0;
  int destroyed = 0;
  auto body = [&](task_group<int>& group) -> task<int> {
    group.spawn(fail_after(1ms, "lost?"));
    group.spawn(probed_after(1s, 1, &cancelled, frame_probe(destroyed)));
    co_await shoal::sleep_for(2ms);
    co_return 0;  // never takes a result
  };
  auto outer = [&]() -> task<std::string> {
    try {
      co_await shoal::with_task_group<int>(body);
    } catch (const std::runtime_error& e) {
      co_return std::string(e.what()) + " " + std::to_string(cancelled) + " " +
          std::to_string(destroyed);
    }
    co_return "nothing thrown";
  };
  auto s = sched.spawn(outer());
  sched.run_all();
  sched.advance(2ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), "lost? 1 1");
}

TEST(TaskGroup, TheBodysExceptionWinsAndTheChildrenAreStillAwaited) {
  manual_scheduler sched;
  int cancelled = 0;
  int destroyed = 0;
  auto body = [&](task_group<int>& group) -> task<int> {
    group.spawn(probed_after(1s, 1, &cancelled, frame_probe(destroyed)));
    group.spawn(fail_after(0ms, "child"));
    co_await shoal::sleep_for(1ms);
    throw std::logic_error("body");
  };
  auto outer = [&]() -> task<std::string> {
    try {
      co_await shoal::with_task_group<int>(body);
    } catch (const std::logic_error& e) {
      co_return std::string(e.what()) + " " + std::to_string(cancelled) + " " +
          std::to_string(destroyed);
    }
    co_return "nothing thrown";
  };
  auto s = sched.spawn(outer());
  sched.run_all();
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), "body 1 1");
}

TEST(TaskGroup, VoidChildren) {
  manual_scheduler sched;
  int ran = 0;
  auto child = [&](shoal::duration d) -> task<void> {
    co_await shoal::sleep_for(d);
    ++ran;
  };
  auto body = [&](task_group<void>& group) -> task<std::vector<std::size_t>> {
    group.spawn(child(2ms));
    group.spawn(child(1ms));
    std::vector<std::size_t> order;
    while (auto r = co_await group.next_result()) {
      r->take_value();
      order.push_back(r->index());
    }
    co_return order;
  };
  auto s = sched.spawn(shoal::with_task_group<void>(body));
  sched.run_all();
  sched.advance(2ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(ran, 2);
}

TEST(TaskGroup, StopRequestedBeforeStartReachesTheBodyAndEveryChild) {
  manual_scheduler sched;
  std::stop_source source;
  source.request_stop();
  auto body = [](task_group<int>& group) -> task<std::vector<int>> {
    group.spawn(after(1s, 1));
    group.spawn(after(1s, 2));
    std::vector<int> out{shoal::stop_requested() ? 1 : 0};
    while (auto r = co_await group.next_result()) out.push_back(r->take_value());
    co_return out;
  };
  auto s =
      sched.spawn(shoal::with_stop_token(source.get_token(), shoal::with_task_group<int>(body)));
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), (std::vector<int>{1, -1, -1}));
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(TaskGroup, StopRequestedDuringCancelsSleepingChildren) {
  manual_scheduler sched;
  std::stop_source source;
  auto body = [](task_group<int>& group) -> task<std::vector<int>> {
    group.spawn(after(1s, 1));
    group.spawn(after(2s, 2));
    std::vector<int> out;
    while (auto r = co_await group.next_result()) out.push_back(r->take_value());
    co_return out;
  };
  auto s =
      sched.spawn(shoal::with_stop_token(source.get_token(), shoal::with_task_group<int>(body)));
  sched.run_all();
  sched.advance(10ms);
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), (std::vector<int>{-1, -1}));
}

TEST(TaskGroup, StopRequestedAfterCompletionChangesNothing) {
  manual_scheduler sched;
  std::stop_source source;
  auto body = [](task_group<int>& group) -> task<int> {
    group.spawn(after(1ms, 4));
    co_return (co_await group.next_result())->take_value();
  };
  auto s =
      sched.spawn(shoal::with_stop_token(source.get_token(), shoal::with_task_group<int>(body)));
  sched.run_all();
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  source.request_stop();
  EXPECT_EQ(sched.ready_count(), 0u);
  EXPECT_EQ(s.get(), 4);
}

TEST(TaskGroup, ATimeoutAroundTheGroupCancelsItsChildren) {
  manual_scheduler sched;
  auto body = [](task_group<int>& group) -> task<int> {
    group.spawn(after(1s, 1));
    group.spawn(after(2s, 2));
    int sum = 0;
    while (auto r = co_await group.next_result()) sum += r->take_value();
    co_return sum;
  };
  auto outer = [&]() -> task<int> {
    co_return co_await shoal::with_timeout(50ms, shoal::with_task_group<int>(body));
  };
  auto s = sched.spawn(outer());
  sched.run_all();
  sched.advance(49ms);
  EXPECT_FALSE(s.done());
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), -2);
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(TaskGroup, NestedGroupsPassCancellationDown) {
  manual_scheduler sched;
  int cancelled = 0;
  int destroyed = 0;
  auto inner_body = [&](task_group<int>& group) -> task<int> {
    group.spawn(probed_after(1s, 1, &cancelled, frame_probe(destroyed)));
    group.spawn(probed_after(1s, 2, &cancelled, frame_probe(destroyed)));
    int sum = 0;
    while (auto r = co_await group.next_result()) sum += r->take_value();
    co_return sum;
  };
  auto inner = [&]() -> task<int> { co_return co_await shoal::with_task_group<int>(inner_body); };
  auto outer_body = [&](task_group<int>& group) -> task<int> {
    group.spawn(inner());
    group.spawn(after(3ms, 10));
    co_return (co_await group.next_result())->take_value();  // the 3 ms child: ends the scope
  };
  auto outer = [&]() -> task<std::vector<int>> {
    const int first = co_await shoal::with_task_group<int>(outer_body);
    co_return std::vector<int>{first, cancelled, destroyed};
  };
  auto s = sched.spawn(outer());
  sched.run_all();
  EXPECT_EQ(sched.timer_count(), 3u);
  sched.advance(3ms);
  ASSERT_TRUE(s.done()) << "the grandchildren were cancelled by the outer scope's end";
  EXPECT_EQ(s.get(), (std::vector<int>{10, 2, 2}));
  EXPECT_EQ(sched.timer_count(), 0u);
}

TEST(TaskGroup, CancelStopsOnlyTheChildrenNotTheBody) {
  manual_scheduler sched;
  auto body = [](task_group<int>& group) -> task<std::vector<int>> {
    group.spawn(after(1s, 1));
    group.cancel();
    const int first = (co_await group.next_result())->take_value();
    std::vector<int> out{first};
    out.push_back(shoal::stop_requested() ? 1 : 0);
    out.push_back(co_await shoal::sleep_for(1ms) ? 1 : 0);
    co_return out;
  };
  auto s = sched.spawn(shoal::with_task_group<int>(body));
  sched.run_all();
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), (std::vector<int>{-1, 0, 1}));
}

const shoal::coroutine_local<int> tenant{-1};

TEST(TaskGroup, ChildrenSeeTheCallersLocalsAndAreBoundWhereItIs) {
  manual_scheduler sched;
  auto child = []() -> task<int> {
    co_await shoal::sleep_for(1ms);
    const bool bound = shoal::detail::current_env->home == shoal::executor::current();
    co_return bound ? tenant.get() : -100;
  };
  auto body = [&](task_group<int>& group) -> task<int> {
    group.spawn(child());
    group.spawn(shoal::with_local(tenant, 9, child()));
    int sum = 0;
    while (auto r = co_await group.next_result()) sum += r->take_value();
    co_return sum;
  };
  auto outer = [&]() -> task<int> {
    auto scope = co_await tenant.bind(4);
    co_return co_await shoal::with_task_group<int>(body);
  };
  auto s = sched.spawn(outer());
  sched.run_all();
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 13);
}

TEST(TaskGroup, ShuffledReadyOrderStillDeliversEveryResultOnce) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    manual_scheduler sched(seed);
    auto body = [](task_group<int>& group) -> task<int> {
      for (int i = 0; i < 10; ++i) group.spawn(after(shoal::duration(i % 3 * 1ms), 1 << i));
      int mask = 0;
      while (auto r = co_await group.next_result()) {
        EXPECT_EQ(r->take_value(), 1 << r->index());
        mask |= 1 << r->index();
      }
      co_return mask;
    };
    auto s = sched.spawn(shoal::with_task_group<int>(body));
    sched.run_all();
    sched.advance(2ms);
    ASSERT_TRUE(s.done()) << "seed " << seed;
    EXPECT_EQ(s.get(), 1023) << "seed " << seed;
  }
}

}  // namespace
