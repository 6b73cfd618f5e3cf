// SPDX-License-Identifier: Apache-2.0
// Async backtraces on the manual scheduler: the chain of a suspended coroutine, innermost first,
// symbolized to the coroutines' names.
#include "shoal/async_backtrace.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <coroutine>
#include <string>
#include <vector>

#include "shoal/sleep.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::manual_scheduler;

using void_handle = std::coroutine_handle<task<void>::promise_type>;

// Gives the awaiting coroutine's own handle without suspending it.
struct own_handle {
  void_handle handle;
  bool await_ready() const noexcept { return false; }
  bool await_suspend(void_handle h) noexcept {
    handle = h;
    return false;
  }
  void_handle await_resume() const noexcept { return handle; }
};

// Where the chain below is suspended: filled in as it runs.
struct chain_state {
  void_handle innermost;
};

task<void> backtrace_leaf(chain_state& s) {
  s.innermost = co_await own_handle{};
  co_await shoal::sleep_for(10ms);
}

task<int> backtrace_middle(chain_state& s) {
  co_await backtrace_leaf(s);
  co_return 1;
}

task<int> backtrace_outer(chain_state& s) {
  const int v = co_await backtrace_middle(s);
  co_return v + 1;
}

std::vector<std::string> names_of(const std::vector<shoal::async_frame>& frames) {
  std::vector<std::string> names;
  names.reserve(frames.size());
  for (const shoal::async_frame& f : frames) names.push_back(shoal::symbolize(f.resume).function);
  return names;
}

bool contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(AsyncBacktrace, ThreeDeepChainSuspendedOnASleepGivesThreeFramesAndTheRootInOrder) {
  manual_scheduler sched;
  chain_state s;
  auto spawned = sched.spawn(backtrace_outer(s));
  sched.run_all();
  ASSERT_FALSE(spawned.done());
  ASSERT_TRUE(s.innermost);

  const std::vector<shoal::async_frame> frames = shoal::async_backtrace(s.innermost);
  ASSERT_EQ(frames.size(), 4U) << shoal::format_async_backtrace(frames);
  const std::vector<std::string> names = names_of(frames);
  EXPECT_TRUE(contains(names[0], "backtrace_leaf")) << names[0];
  EXPECT_TRUE(contains(names[1], "backtrace_middle")) << names[1];
  EXPECT_TRUE(contains(names[2], "backtrace_outer")) << names[2];
  EXPECT_TRUE(contains(names[3], "run_root")) << names[3];
  EXPECT_EQ(frames[0].frame, s.innermost.address());

  sched.advance(10ms);
  ASSERT_TRUE(spawned.done());
  EXPECT_EQ(spawned.get(), 2);
}

TEST(AsyncBacktrace, FormattedBacktraceNamesEveryCoroutineAndItsModuleOffset) {
  manual_scheduler sched;
  chain_state s;
  auto spawned = sched.spawn(backtrace_outer(s));
  sched.run_all();
  const std::string text = shoal::format_async_backtrace(shoal::async_backtrace(s.innermost));
  const std::size_t leaf = text.find("backtrace_leaf");
  const std::size_t middle = text.find("backtrace_middle");
  const std::size_t outer = text.find("backtrace_outer");
  ASSERT_NE(leaf, std::string::npos) << text;
  EXPECT_LT(leaf, middle) << text;
  EXPECT_LT(middle, outer) << text;
  EXPECT_TRUE(contains(text, "#3 ")) << text;
  EXPECT_TRUE(contains(text, "+0x")) << text;
  sched.advance(10ms);
  EXPECT_TRUE(spawned.done());
}

task<std::vector<shoal::async_frame>> here_inner() {
  co_return co_await shoal::async_backtrace_here();
}

task<std::vector<shoal::async_frame>> here_outer() { co_return co_await here_inner(); }

TEST(AsyncBacktrace, HereFromARunningCoroutineStartsWithItself) {
  const std::vector<shoal::async_frame> frames = shoal::sync_wait(here_outer());
  ASSERT_EQ(frames.size(), 3U) << shoal::format_async_backtrace(frames);
  const std::vector<std::string> names = names_of(frames);
  EXPECT_TRUE(contains(names[0], "here_inner")) << names[0];
  EXPECT_TRUE(contains(names[1], "here_outer")) << names[1];
  EXPECT_TRUE(contains(names[2], "run_root")) << names[2];
}

TEST(AsyncBacktrace, SymbolizingAnAddressOutsideAnyModuleGivesNoName) {
  int on_stack = 0;
  const shoal::code_symbol s = shoal::symbolize(&on_stack);
  EXPECT_TRUE(s.function.empty());
}

}  // namespace
