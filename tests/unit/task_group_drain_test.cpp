// SPDX-License-Identifier: Apache-2.0
// with_task_group's final drain moves no value: children whose value type throws on move are
// still all awaited and destroyed, and the scope completes (it used to let the move's exception
// escape with children outstanding, and the group's destructor terminated the program).
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>

#include "shoal/sleep.hpp"
#include "shoal/task_group.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::task_group;
using shoal::testing::manual_scheduler;

// A value whose moves throw once `fragile::moves_throw` is set; counts the live ones.
struct fragile {
  static inline bool moves_throw = false;
  static inline int alive = 0;
  int value;
  explicit fragile(int v) noexcept : value(v) { ++alive; }
  // NOLINTNEXTLINE(performance-noexcept-move-constructor): throwing is the point
  fragile(fragile&& other) : value(other.value) {
    if (moves_throw) throw std::runtime_error("fragile: move");
    ++alive;
  }
  fragile(const fragile&) = delete;
  fragile& operator=(const fragile&) = delete;
  fragile& operator=(fragile&&) = delete;
  ~fragile() { --alive; }
};

task<fragile> make(int v) { co_return fragile(v); }

TEST(TaskGroupDrain, ChildrenWhoseValuesThrowOnMoveAreAllAwaitedAndTheScopeCompletes) {
  fragile::moves_throw = false;
  manual_scheduler sched;
  auto body = [](task_group<fragile>& group) -> task<int> {
    group.spawn(make(1));
    group.spawn(make(2));
    co_await shoal::sleep_for(5ms);  // the first two end meanwhile, their values kept
    fragile::moves_throw = true;     // from here no value may be moved
    co_return 7;
  };
  auto s = sched.spawn(shoal::with_task_group<fragile>(body));
  sched.run_all();
  sched.advance(5ms);
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 7);
  EXPECT_EQ(fragile::alive, 0);  // every child's value destroyed where it lay
  fragile::moves_throw = false;
}

}  // namespace
