// SPDX-License-Identifier: Apache-2.0
// shoal::bound_batcher, what only it does: a batch recycled once its last caller read it; a
// stopped host leaving at the flush; misuse from another executor or worker; stop requests from
// another thread racing joins and completions (TSan). What it shares with shoal::batcher is
// tested once for both: batcher_family_test.cpp.
#include "shoal/bound_batcher.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <iostream>
#include <latch>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/when_all.hpp"
#include "support/counting_new.hpp"
#include "support/manual_scheduler.hpp"
#include "support/running_pool.hpp"
#include "unit/batcher_support.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::bound_batcher;
using shoal::item_result;
using shoal::task;
using shoal::testing::call;
using shoal::testing::fail_odd;
using shoal::testing::manual_scheduler;
using shoal::testing::stoppable_caller;
using shoal::testing::times_ten;
using shoal::testing::values;

using int_batcher = bound_batcher<int, int>;

task<std::optional<int>> call_items(bound_batcher<int, item_result<int>>& b, int x) {
  std::optional<int> r = co_await b(x);
  co_return r;
}

// The buffers a batch of `b` was sent in, over rounds of two callers that complete before the
// next round starts: a batch is recycled once its last caller has read it (or its error), so
// two batches (the one filling, the one being read) serve every round. Counts the callers that
// got an exception.
template <class Batcher, class Seen>
std::size_t buffers_over_rounds(manual_scheduler& sched, Batcher& b, Seen& data, int rounds,
                                int& failed) {
  for (int r = 0; r < rounds; ++r) {
    auto one = sched.spawn(call_items(b, 2 * r));
    auto two = sched.spawn(call_items(b, 2 * r + 1));
    sched.run_all();
    for (auto* c : {&one, &two}) {
      EXPECT_TRUE(c->done());
      try {
        (void)c->get();
      } catch (const std::exception&) {  // the odd item, or the whole batch
        ++failed;
      }
    }
  }
  std::sort(data.begin(), data.end());
  return static_cast<std::size_t>(std::unique(data.begin(), data.end()) - data.begin());
}

TEST(bound_batcher, ABatchIsRecycledOnceItsLastCallerReadItsResultOrItsError) {
  manual_scheduler sched;
  std::vector<const int*> data;
  int batch = 0;
  // Every second batch fails as a whole; in the others the odd item fails.
  bound_batcher<int, item_result<int>> b(sched,
                                         [&](std::span<int> args) {
                                           data.push_back(args.data());
                                           if (++batch % 2 == 0) throw std::runtime_error("down");
                                           return fail_odd(args);
                                         },
                                         {.max_size = 2});
  int failed = 0;
  EXPECT_EQ(buffers_over_rounds(sched, b, data, 10, failed), 2U);
  EXPECT_EQ(failed, 5 * 1 + 5 * 2);
  EXPECT_EQ(b.stats().batches, 10U);
}

// The stop callback fires and posts the host, but the batch is flushed before the host runs:
// the flush must take it (and those it covers) out, and it must be resumed once, by its post.
TEST(bound_batcher, AHostStoppedJustBeforeTheFlushLeavesTheBatchAndIsResumedOnce) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen});
  std::stop_source stop;
  auto one = sched.spawn(shoal::with_stop_token(stop.get_token(), call(b, 1)));
  auto two = sched.spawn(call(b, 2));
  auto three = sched.spawn(shoal::with_stop_token(stop.get_token(), call(b, 3)));
  sched.run_all();
  stop.request_stop();  // posts the host; nothing runs yet
  EXPECT_EQ(sched.ready_count(), 1U);
  sched.idle();  // flushes: the host and the caller it covers leave, the rest is sent
  ASSERT_EQ(seen.size(), 1U);
  EXPECT_EQ(seen[0], values({2}));
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_EQ(two.get(), 20);
  EXPECT_EQ(three.get(), std::nullopt);
  EXPECT_EQ(b.stats().cancelled, 2U);
}

TEST(bound_batcher, ABatchWhoseCallersAllLeftAtTheFlushSendsNothing) {
  manual_scheduler sched;
  std::vector<std::vector<int>> seen;
  int_batcher b(sched, times_ten{&seen}, {.max_wait = 10ms});
  std::stop_source stop;
  auto one = sched.spawn(shoal::with_stop_token(stop.get_token(), call(b, 1)));
  sched.run_all();
  stop.request_stop();  // posts the host
  sched.idle();         // the flush finds it stopped: nothing to send
  EXPECT_EQ(one.get(), std::nullopt);
  EXPECT_TRUE(seen.empty());
  EXPECT_EQ(b.stats().batches, 0U);
  EXPECT_EQ(sched.timer_count(), 0U);
}

TEST(bound_batcher, AnAwaitFromAnotherExecutorThrowsWrongExecutorAndChangesNothing) {
  manual_scheduler home;
  manual_scheduler elsewhere;
  std::vector<std::vector<int>> seen;
  int_batcher b(home, times_ten{&seen});
  auto stray = elsewhere.spawn(call(b, 1));
  elsewhere.run_all();
  ASSERT_TRUE(stray.done());
  try {
    (void)stray.get();
    ADD_FAILURE() << "no exception";
  } catch (const shoal::wrong_executor& e) {
    EXPECT_NE(std::string(e.what()).find("bound to executor"), std::string::npos) << e.what();
  }
  EXPECT_EQ(b.pending(), 0U);
  auto fine = home.spawn(call(b, 2));
  home.run_all();
  home.idle();
  EXPECT_EQ(fine.get(), 20);
  EXPECT_EQ(seen.size(), 1U);
}

TEST(bound_batcher, BuiltOutsideAnyExecutorWithoutAHomeIsALogicError) {
  std::vector<std::vector<int>> seen;
  EXPECT_THROW(int_batcher(times_ten{&seen}), std::logic_error);
}

task<void> report_executor(std::promise<shoal::executor*>& where) {
  where.set_value(shoal::executor::current());
  co_return;
}

shoal::executor& executor_of_worker(shoal::thread_pool& pool, std::size_t k) {
  std::promise<shoal::executor*> where;
  std::future<shoal::executor*> result = where.get_future();
  pool.spawn_on(k, report_executor(where));
  return *result.get();
}

task<void> call_into(int_batcher& b, int x, std::promise<std::optional<int>>& out) {
  try {
    out.set_value(co_await b(x));
  } catch (...) {
    out.set_exception(std::current_exception());
  }
}

TEST(bound_batcher, AnAwaitFromAnotherWorkerThrowsWrongExecutor) {
  shoal::testing::running_pool p(2);
  std::vector<std::vector<int>> seen;
  int_batcher b(executor_of_worker(p.pool, 0), times_ten{&seen}, {.max_size = 1});
  std::promise<std::optional<int>> stray;
  std::promise<std::optional<int>> fine;
  p.pool.spawn_on(1, call_into(b, 1, stray));
  EXPECT_THROW((void)stray.get_future().get(), shoal::wrong_executor);
  p.pool.spawn_on(0, call_into(b, 2, fine));
  EXPECT_EQ(fine.get_future().get(), 20);
}

// Callers on worker 0 of 2, flushed by size into an awaiting bulk call, while the test thread
// stops a third of them: each token covers `per_token` consecutive callers, so stop posts race
// joins, flushes and completions, landing before the await, while batches fill and during bulk
// calls (the counts are printed: each kind should be there).
void race_stops_from_another_thread(int per_token) {
  constexpr int callers = 1000;
  std::atomic<int> got{0};
  std::atomic<int> none{0};
  std::latch done(callers);
  std::vector<std::stop_source> stops(callers);
  std::vector<char> sent(callers, 0);  // written on worker 0, read after `done`
  {
    shoal::testing::running_pool p(2);
    auto bulk = [&sent](std::span<int> args) -> task<std::vector<int>> {
      co_await shoal::sleep_for(50us);
      std::vector<int> out;
      for (int a : args) {
        sent[static_cast<std::size_t>(a)] = 1;
        out.push_back(a * 10);
      }
      co_return out;
    };
    int_batcher b(executor_of_worker(p.pool, 0), bulk, {.max_size = 16});
    for (int i = 0; i < callers; ++i) {
      const std::stop_token token = stops[static_cast<std::size_t>(i / per_token)].get_token();
      p.pool.spawn_on(0, stoppable_caller(b, i, token, got, none, done));
      const int earlier = i - 4;  // spawned a moment ago: waiting, in its bulk call or done
      if (earlier >= 0 && earlier % 3 == 0) {
        stops[static_cast<std::size_t>(earlier / per_token)].request_stop();
      }
      if (i % 4 == 0) std::this_thread::sleep_for(5us);
    }
    done.wait();
  }
  EXPECT_EQ(got.load() + none.load(), callers);
  EXPECT_LT(got.load(), 1000000);  // every value was the caller's own
  int sent_count = 0;
  for (char c : sent) sent_count += c;
  EXPECT_LE(got.load(), sent_count);
  std::cout << "returned a value: " << got.load() << ", cancelled: " << none.load()
            << " (of which sent: " << sent_count - got.load() << ")\n";
}

TEST(bound_batcher, StopsFromAnotherThreadRaceJoinsAndCompletionsSafely) {
  race_stops_from_another_thread(1);
}

TEST(bound_batcher, SharedTokenStopsFromAnotherThreadRaceJoinsAndCompletionsSafely) {
  race_stops_from_another_thread(8);
}

// Under sync_wait (no fork support: when_all runs its children from the launch, none posted),
// callers sharing tokens (8 a token: hosts' callbacks in host_stop_callback) race the test thread
// stopping every third token while the launch, the fills and the awaiting bulk calls go on.
TEST(bound_batcher, CallersLaunchedInLineOnSyncWaitRaceStopsFromAnotherThreadSafely) {
  constexpr int callers = 600;
  constexpr int per_token = 8;
  std::vector<std::stop_source> stops(callers / per_token + 1);
  std::atomic<int> got{0};
  std::atomic<int> none{0};
  std::latch done(callers);
  std::atomic<bool> go{false};
  std::thread stopper([&] {
    while (!go.load(std::memory_order_acquire)) std::this_thread::yield();  // pairs with store
    for (std::size_t i = 0; i < stops.size(); i += 3) {
      stops[i].request_stop();
      std::this_thread::yield();
    }
  });
  auto run = [&]() -> task<void> {
    auto bulk = [](std::span<int> args) -> task<std::vector<int>> {
      co_await shoal::sleep_for(20us);
      std::vector<int> out;
      for (int a : args) out.push_back(a * 10);
      co_return out;
    };
    int_batcher b(bulk, {.max_size = 16});  // home: sync_wait's loop
    std::vector<task<void>> children;
    for (int i = 0; i < callers; ++i) {
      const std::stop_token token = stops[static_cast<std::size_t>(i / per_token)].get_token();
      children.push_back(stoppable_caller(b, i, token, got, none, done));
    }
    go.store(true, std::memory_order_release);  // pairs with the stopper's load
    co_await shoal::when_all(std::move(children));
  };
  shoal::sync_wait(run());
  stopper.join();
  EXPECT_EQ(got.load() + none.load(), callers);
  EXPECT_LT(got.load(), 1000000);  // every value was the caller's own
  EXPECT_TRUE(done.try_wait());
}

}  // namespace
