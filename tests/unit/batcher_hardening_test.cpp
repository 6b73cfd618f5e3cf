// SPDX-License-Identifier: Apache-2.0
// shoal::batcher under failure: a max-wait timer that cannot be armed, and the timer's holder
// leaving the batch (its timer is a caller's, on the caller's executor).
// Deterministic, on the manual scheduler.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <vector>

#include "shoal/batcher.hpp"
#include "shoal/stop.hpp"
#include "support/manual_scheduler.hpp"
#include "unit/batcher_support.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::batcher;
using shoal::task;
using shoal::testing::call;
using shoal::testing::manual_scheduler;
using shoal::testing::times_ten;
using shoal::testing::values;

task<std::optional<int>> call_stoppable(batcher<int, int>& b, int x, std::stop_token t) {
  co_return co_await shoal::with_stop_token(std::move(t), call(b, x));
}

// The holder is the first caller; when it is cancelled, the second (same executor) must take
// the timer over, or the batch would wait for an unrelated flush.
TEST(BatcherHardening, WhenTheTimerHolderIsCancelledTheNextCallerOfItsExecutorTakesTheTimer) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  batcher<int, int> b(times_ten{&seen}, {.max_size = 100, .max_wait = 10ms});
  std::stop_source holder_stop;
  auto holder = sched.spawn(call_stoppable(b, 1, holder_stop.get_token()));
  auto second = sched.spawn(call(b, 2));
  sched.run_all();
  sched.advance(4ms);
  holder_stop.request_stop();
  sched.run_all();
  EXPECT_EQ(holder.get(), std::nullopt);
  EXPECT_EQ(b.pending(), 1U);
  EXPECT_EQ(sched.timer_count(), 1U);  // armed again, for the second caller
  sched.advance(5ms);
  EXPECT_TRUE(seen.empty());
  sched.advance(1ms);  // the batch's deadline: 10 ms after its first arrival
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({2}));
  EXPECT_EQ(second.get(), 20);
  EXPECT_EQ(b.stats().by_time, 1U);
  EXPECT_EQ(sched.timer_count(), 0U);
}

// With no caller of the holder's executor left, no other executor's timer can be armed from
// there: the batch is flushed at once (early rather than never).
TEST(BatcherHardening, WhenNoCallerOfTheHoldersExecutorRemainsTheBatchIsFlushedAtOnce) {
  std::vector<std::vector<int>> seen;
  manual_scheduler here;
  manual_scheduler there;
  batcher<int, int> b(times_ten{&seen}, {.max_size = 100, .max_wait = 10ms});
  std::stop_source holder_stop;
  auto holder = here.spawn(call_stoppable(b, 1, holder_stop.get_token()));
  here.run_all();
  auto other = there.spawn(call(b, 2));
  there.run_all();
  EXPECT_EQ(there.timer_count(), 0U);  // the batch's timer is the holder's, on `here`
  holder_stop.request_stop();
  here.run_all();
  EXPECT_EQ(holder.get(), std::nullopt);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({2}));
  there.run_all();
  EXPECT_EQ(other.get(), 20);
  EXPECT_EQ(b.stats().by_time, 1U);
}

// add_timer throwing after the call joined used to escape await_suspend, leaving the caller's
// destroyed awaiter in the batch.
TEST(BatcherHardening, ATimerThatCannotBeArmedFlushesTheBatchAtOnceInsteadOfThrowing) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  batcher<int, int> b(times_ten{&seen}, {.max_size = 100, .max_wait = 10ms});
  sched.fail_timers(true);
  auto first = sched.spawn(call(b, 1));
  sched.run_all();
  sched.fail_timers(false);
  ASSERT_TRUE(first.done());
  EXPECT_EQ(first.get(), 10);
  EXPECT_EQ(b.pending(), 0U);
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(b.stats().by_time, 1U);
  auto second = sched.spawn(call(b, 2));  // the batcher goes on as before
  sched.run_all();
  sched.advance(10ms);
  EXPECT_EQ(second.get(), 20);
}

}  // namespace
