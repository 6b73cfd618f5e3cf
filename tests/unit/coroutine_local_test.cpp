// SPDX-License-Identifier: Apache-2.0
// Coroutine-local values on the manual scheduler: binding, inheritance by awaited tasks,
// visibility to plain functions, hiding, unbinding, and no leak to other chains or threads.
#include "shoal/coroutine_local.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::manual_scheduler;

const shoal::coroutine_local<int> request_id{-1};
const shoal::coroutine_local<std::string> user;

// A plain function, called from coroutines: sees the running chain's binding.
int current_request() { return request_id.get(); }

TEST(CoroutineLocal, OutsideAnyBindingGetGivesTheFallback) {
  EXPECT_EQ(request_id.get(), -1);
  EXPECT_EQ(request_id.find(), nullptr);
  EXPECT_EQ(user.get(), "");
  auto unbound = []() -> task<int> { co_return current_request(); };
  EXPECT_EQ(shoal::sync_wait(unbound()), -1);
}

TEST(CoroutineLocal, BoundValueIsSeenByAwaitedTasksAndPlainFunctions) {
  manual_scheduler sched;
  auto leaf = []() -> task<int> { co_return current_request(); };
  auto middle = [&]() -> task<int> { co_return co_await leaf(); };
  auto root = [&]() -> task<int> {
    auto scope = co_await request_id.bind(42);
    co_return co_await middle() + current_request();
  };
  auto s = sched.spawn(root());
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 84);
  EXPECT_EQ(request_id.get(), -1) << "leaked out of the coroutine";
}

TEST(CoroutineLocal, ValueSurvivesSuspensionAndIsRemovedWhileSuspended) {
  manual_scheduler sched;
  int after_sleep = 0;
  auto root = [&]() -> task<void> {
    auto scope = co_await request_id.bind(7);
    co_await shoal::sleep_for(10ms);
    after_sleep = current_request();
  };
  auto s = sched.spawn(root());
  sched.run_all();
  EXPECT_EQ(request_id.get(), -1) << "the suspended chain's value is still mirrored";
  sched.advance(10ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(after_sleep, 7);
}

TEST(CoroutineLocal, InnerBindingHidesOuterUntilItsScopeEnds) {
  manual_scheduler sched;
  auto root = []() -> task<std::string> {
    auto outer = co_await request_id.bind(1);
    std::string seen = std::to_string(current_request());
    {
      auto inner = co_await request_id.bind(2);
      seen += std::to_string(current_request());
    }
    seen += std::to_string(current_request());
    co_return seen;
  };
  auto s = sched.spawn(root());
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), "121");
}

TEST(CoroutineLocal, CalleeBindingDoesNotLeakToItsCaller) {
  manual_scheduler sched;
  auto callee = []() -> task<int> {
    auto scope = co_await request_id.bind(5);
    co_await shoal::sleep_for(1ms);
    co_return current_request();
  };
  auto root = [&]() -> task<int> {
    auto scope = co_await request_id.bind(3);
    const int inner = co_await callee();
    co_return inner * 10 + current_request();
  };
  auto s = sched.spawn(root());
  sched.run_all();
  sched.advance(1ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 53);
}

TEST(CoroutineLocal, SeveralKeysAreIndependent) {
  manual_scheduler sched;
  auto root = []() -> task<std::string> {
    auto a = co_await request_id.bind(9);
    auto b = co_await user.bind("ana");
    co_return user.get() + std::to_string(request_id.get());
  };
  auto s = sched.spawn(root());
  sched.run_all();
  EXPECT_EQ(s.get(), "ana9");
}

TEST(CoroutineLocal, InterleavedChainsOnOneExecutorSeeOnlyTheirOwnValue) {
  manual_scheduler sched(/*shuffle_seed=*/12345);
  auto worker = [](int id) -> task<bool> {
    auto scope = co_await request_id.bind(id);
    bool ok = true;
    for (int i = 0; i < 20; ++i) {
      co_await shoal::sleep_for(1ms);
      ok = ok && current_request() == id;
    }
    co_return ok;
  };
  std::vector<shoal::testing::spawned<bool>> chains;
  chains.reserve(8);
  for (int id = 0; id < 8; ++id) chains.push_back(sched.spawn(worker(id)));
  sched.run_all();
  for (int i = 0; i < 20; ++i) sched.advance(1ms);
  for (auto& c : chains) {
    ASSERT_TRUE(c.done());
    EXPECT_TRUE(c.get());
  }
}

TEST(CoroutineLocal, WithLocalBindsForOneAwait) {
  manual_scheduler sched;
  auto leaf = []() -> task<int> { co_return current_request(); };
  auto root = [&]() -> task<int> {
    const int inside = co_await shoal::with_local(request_id, 11, leaf());
    co_return inside * 100 + current_request();
  };
  auto s = sched.spawn(root());
  sched.run_all();
  EXPECT_EQ(s.get(), 11 * 100 - 1);
}

TEST(CoroutineLocal, BindingKeepsTheChainsStopToken) {
  manual_scheduler sched;
  std::stop_source source;
  auto root = []() -> task<bool> {
    auto scope = co_await request_id.bind(1);
    co_return co_await shoal::sleep_for(10ms);
  };
  auto s = sched.spawn(shoal::with_stop_token(source.get_token(), root()));
  sched.run_all();
  source.request_stop();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_FALSE(s.get()) << "the sleep inside the scope did not see the stop";
}

TEST(CoroutineLocal, ValueFollowsTheChainAcrossWorkerThreads) {
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  auto hop = [&](int id) -> task<bool> {
    auto scope = co_await request_id.bind(id);
    bool ok = true;
    for (int i = 0; i < 200; ++i) {
      co_await pool.schedule_on(static_cast<std::size_t>(i % 2));
      ok = ok && current_request() == id;
    }
    co_return ok;
  };
  auto all = [&]() -> task<bool> {
    co_await pool.schedule();
    bool ok = true;
    for (int id = 0; id < 4; ++id) ok = ok && co_await hop(id);
    co_return ok;
  };
  EXPECT_TRUE(shoal::sync_wait(all()));
  shoal::sync_wait(pool.stop());
  EXPECT_EQ(request_id.get(), -1);
}

}  // namespace
