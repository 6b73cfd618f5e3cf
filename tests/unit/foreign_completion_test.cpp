// SPDX-License-Identifier: Apache-2.0
// foreign_completion: completions from the awaiting thread, from a foreign thread, with an
// exception, and the resumption on the awaiting executor rather than the foreign thread.
#include "shoal/foreign_completion.hpp"

#include <gtest/gtest.h>

#include <semaphore>
#include <stdexcept>
#include <string>
#include <thread>

#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"
#include "support/manual_scheduler.hpp"

namespace {

using shoal::task;
using shoal::testing::manual_scheduler;

TEST(ForeignCompletion, CompletedInsideStartDoesNotSuspend) {
  manual_scheduler sched;
  auto probe = []() -> task<int> {
    co_return co_await shoal::foreign_completion<int>([](auto done) { done.set_value(7); });
  };
  auto s = sched.spawn(probe());
  EXPECT_EQ(sched.run_all(), 1u) << "suspended although already complete";
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), 7);
}

TEST(ForeignCompletion, CompletedFromAForeignThreadIsPostedToTheAwaitingExecutor) {
  manual_scheduler sched;
  std::thread foreign;
  std::binary_semaphore go(0);  // the foreign thread completes only once the coroutine waits
  auto probe = [&]() -> task<std::string> {
    co_return co_await shoal::foreign_completion<std::string>([&](auto done) {
      foreign = std::thread([done, &go] {
        go.acquire();
        done.set_value(std::string("from afar"));
      });
    });
  };
  auto s = sched.spawn(probe());
  sched.run_all();
  EXPECT_FALSE(s.done());
  go.release();
  foreign.join();  // the manual scheduler is single-threaded: nothing runs while it posts
  EXPECT_FALSE(s.done()) << "resumed on the foreign thread";
  EXPECT_EQ(sched.ready_count(), 1u);
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_EQ(s.get(), "from afar");
}

TEST(ForeignCompletion, ExceptionIsRethrownInTheCoroutine) {
  manual_scheduler sched;
  std::thread foreign;
  std::binary_semaphore go(0);
  auto probe = [&]() -> task<void> {
    co_await shoal::foreign_completion<void>([&](auto done) {
      foreign = std::thread([done, &go] {
        go.acquire();
        done.set_exception(std::make_exception_ptr(std::runtime_error("lost")));
      });
    });
  };
  auto s = sched.spawn(probe());
  sched.run_all();
  go.release();
  foreign.join();
  sched.run_all();
  ASSERT_TRUE(s.done());
  EXPECT_THROW(s.get(), std::runtime_error);
}

TEST(ForeignCompletion, ResumesOnTheBoundWorkerNeverTheForeignThread) {
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  auto probe = [&]() -> task<bool> {
    bool ok = true;
    co_await pool.schedule_on(1);
    const shoal::executor* home = shoal::executor::current();
    for (int i = 0; i < 100; ++i) {
      std::thread foreign;
      std::thread::id completed_on;
      const int v = co_await shoal::foreign_completion<int>([&](auto done) {
        foreign = std::thread([&, done, i] {
          completed_on = std::this_thread::get_id();
          done.set_value(i);
        });
      });
      ok = ok && v == i && shoal::executor::current() == home &&
           std::this_thread::get_id() != completed_on;
      foreign.join();
    }
    co_return ok;
  };
  EXPECT_TRUE(shoal::sync_wait(probe()));
  shoal::sync_wait(pool.stop());
}

}  // namespace
