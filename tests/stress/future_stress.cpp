// SPDX-License-Identifier: Apache-2.0
// Futures under real concurrency (run under TSan): callbacks, transformations, co_awaits and
// blocking waits registered while another thread fills; racing fills and cancels; spawn_future
// jobs cancelled while they run. Every registered continuation must run exactly once.
#include <gtest/gtest.h>

#include <atomic>
#include <barrier>
#include <chrono>
#include <latch>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "shoal/future.hpp"
#include "shoal/future_run.hpp"
#include "shoal/promise.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::future;
using shoal::promise;
using shoal::task;
using shoal::testing::running_pool;

TEST(FutureStress, CallbacksRegisteredWhileAnotherThreadFillsRunExactlyOnce) {
  constexpr int rounds = 5'000;
  constexpr std::size_t per_round = 8;  // registrations by each of the two registering threads
  std::optional<promise<int>> slot;
  std::atomic<int> ran{0};
  std::atomic<int> wrong{0};
  std::vector<future<int>> mapped(2 * per_round);
  std::barrier sync(3);
  auto registrar = [&](std::size_t id) {
    for (int r = 0; r < rounds; ++r) {
      sync.arrive_and_wait();  // the round's promise exists
      future<int> f = slot->get_future();
      for (std::size_t k = 0; k < per_round; ++k) {
        f.on_success([&, r](int v) {
          if (v != r) wrong.fetch_add(1, std::memory_order_relaxed);
          ran.fetch_add(1, std::memory_order_relaxed);
        });
        mapped[id * per_round + k] = f.map([](int v) { return v + 1; });
      }
      sync.arrive_and_wait();  // the round is over
    }
  };
  std::thread a(registrar, std::size_t{0});
  std::thread b(registrar, std::size_t{1});
  for (int r = 0; r < rounds; ++r) {
    slot.emplace();
    promise<int> p = *slot;
    sync.arrive_and_wait();
    p.success(r);  // while the others register
    sync.arrive_and_wait();
    for (auto& m : mapped) {
      if (m.value() != r + 1) wrong.fetch_add(1, std::memory_order_relaxed);
    }
  }
  a.join();
  b.join();
  EXPECT_EQ(ran.load(), rounds * 2 * static_cast<int>(per_round));
  EXPECT_EQ(wrong.load(), 0);
}

TEST(FutureStress, RacingFillsAndCancelsHaveExactlyOneWinner) {
  constexpr int rounds = 5'000;
  std::atomic<int> more_than_one{0};
  for (int r = 0; r < rounds; ++r) {
    promise<int> p;
    auto f = p.get_cancelable_future();
    std::atomic<int> winners{0};
    std::latch go(3);
    std::thread s([&] {
      go.arrive_and_wait();
      if (p.success(r)) winners.fetch_add(1);
    });
    std::thread x([&] {
      go.arrive_and_wait();
      if (p.failure(std::make_exception_ptr(std::runtime_error("x")))) winners.fetch_add(1);
    });
    go.arrive_and_wait();
    if (f.cancel()) winners.fetch_add(1);
    s.join();
    x.join();
    if (winners.load() != 1) more_than_one.fetch_add(1);
    ASSERT_TRUE(f.is_completed());
  }
  EXPECT_EQ(more_than_one.load(), 0);
}

TEST(FutureStress, CoAwaitsRacingWithForeignFillsAllResumeOnce) {
  running_pool p(2);
  constexpr int waiters = 20'000;
  std::vector<promise<int>> promises(waiters);
  std::atomic<long> sum{0};
  std::latch all(waiters);
  auto waiter = [&](std::size_t i) -> task<> {
    const int v = co_await promises[i].get_future();
    sum.fetch_add(v, std::memory_order_relaxed);
    all.count_down();
  };
  std::thread filler([&] {
    for (std::size_t i = 0; i < promises.size(); ++i) promises[i].success(static_cast<int>(i));
  });
  for (std::size_t i = 0; i < promises.size(); ++i) p.pool.spawn(waiter(i));
  filler.join();
  all.wait();
  EXPECT_EQ(sum.load(), static_cast<long>(waiters) * (waiters - 1) / 2);
}

TEST(FutureStress, BlockingWaitsRacingWithFillsNeverHangOrLeak) {
  constexpr int rounds = 2'000;
  int completed_early = 0;
  for (int r = 0; r < rounds; ++r) {
    promise<int> p;
    future<int> f = p.get_future();
    std::thread filler([p, r] {
      if (r % 3 == 0) std::this_thread::yield();
      p.success(r);
    });
    if (f.wait_for(r % 2 == 0 ? 0us : 50us)) ++completed_early;
    f.wait();
    EXPECT_EQ(f.value(), r);
    filler.join();
  }
  EXPECT_LE(completed_early, rounds);
}

TEST(FutureStress, ChainsBuiltWhileTheSourceIsFilled) {
  constexpr int rounds = 2'000;
  for (int r = 0; r < rounds; ++r) {
    promise<int> p;
    future<int> f = p.get_future();
    std::thread filler([p, r] { p.success(r); });
    future<int> g = f;
    for (int k = 0; k < 20; ++k) {
      g = g.flat_map([](int v) { return future<int>::successful(v + 1); }).map([](int v) {
        return v - 1;
      });
    }
    auto z = f.zip(g, f.map([](int v) { return v * 2; }));
    auto [a, b, c] = z.value();
    EXPECT_EQ(a, r);
    EXPECT_EQ(b, r);
    EXPECT_EQ(c, 2 * r);
    filler.join();
  }
}

TEST(FutureStress, SpawnedJobsCancelledWhileRunningEndAndThePoolStops) {
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  constexpr int jobs = 2'000;
  std::atomic<int> values{0};
  std::atomic<int> cancelled{0};
  int cancels_won = 0;
  std::vector<shoal::cancelable_future<int>> fs;
  fs.reserve(jobs);
  for (int i = 0; i < jobs; ++i) {
    fs.push_back(shoal::spawn_future(pool, [i]() -> task<int> {
      co_await shoal::sleep_for(std::chrono::microseconds(i % 7 * 20));
      co_return i;
    }));
    if (i % 2 == 0 && fs.back().cancel()) ++cancels_won;  // false: the job finished first
  }
  for (auto& f : fs) {
    f.wait();
    if (f.is_succeeded()) {
      values.fetch_add(1);
    } else {
      try {
        std::rethrow_exception(f.failure());
      } catch (const shoal::future_canceled&) {
        cancelled.fetch_add(1);
      }
    }
  }
  shoal::sync_wait(pool.stop());  // every job ended: none is left suspended
  EXPECT_EQ(values.load() + cancelled.load(), jobs);
  EXPECT_EQ(cancelled.load(), cancels_won);
}

// spawn_future jobs ending while this thread drops their futures, some after registering a
// callback or a map on them (issue 36: a job whose future is gone and unheard skips the fill):
// every listener hears its value exactly once, and every job runs its work.
TEST(FutureStress, DroppedFuturesRacingWithTheirJobsEndNeverLoseAListener) {
  constexpr int jobs = 20'000;
  std::atomic<int> ran{0};
  std::atomic<int> heard{0};
  std::atomic<int> wrong{0};
  {
    running_pool p(2);
    for (int i = 0; i < jobs; ++i) {
      auto f = shoal::spawn_future(p.pool, [i, &ran] {
        ran.fetch_add(1, std::memory_order_relaxed);
        return i;
      });
      if (i % 3 == 1) {
        static_cast<void>(f.on_success([i, &heard, &wrong](int v) {
          heard.fetch_add(1, std::memory_order_relaxed);
          if (v != i) wrong.fetch_add(1, std::memory_order_relaxed);
        }));
      } else if (i % 3 == 2) {
        static_cast<void>(f.map([](int v) { return v + 1; }).on_success([i, &heard, &wrong](int v) {
          heard.fetch_add(1, std::memory_order_relaxed);
          if (v != i + 1) wrong.fetch_add(1, std::memory_order_relaxed);
        }));
      }
    }  // each future dropped here, racing with its job
  }  // the pool stops once every job has ended
  EXPECT_EQ(ran.load(), jobs);
  EXPECT_EQ(heard.load(), jobs / 3 * 2 + (jobs % 3 == 2 ? 1 : 0));
  EXPECT_EQ(wrong.load(), 0);
}

TEST(FutureStress, StopsRacingWithFillsResumeEveryAwaitOnce) {
  running_pool p(2);
  constexpr std::size_t waiters = 5'000;
  std::vector<promise<int>> promises(waiters);
  std::vector<std::stop_source> sources(waiters);
  std::atomic<int> values{0};
  std::atomic<int> cancelled{0};
  std::latch all(static_cast<std::ptrdiff_t>(waiters));
  auto waiter = [&](std::size_t i) -> task<> {
    try {
      const int v = co_await promises[i].get_future();
      if (v == static_cast<int>(i)) values.fetch_add(1, std::memory_order_relaxed);
    } catch (const shoal::future_canceled&) {
      cancelled.fetch_add(1, std::memory_order_relaxed);
    }
    all.count_down();
  };
  for (std::size_t i = 0; i < waiters; ++i) {
    p.pool.spawn(waiter(i), sources[i].get_token());
  }
  std::thread filler([&] {
    for (std::size_t i = 0; i < waiters; ++i) promises[i].success(static_cast<int>(i));
  });
  std::thread stopper([&] {
    for (auto& s : sources) s.request_stop();
  });
  filler.join();
  stopper.join();
  all.wait();
  EXPECT_EQ(values.load() + cancelled.load(), static_cast<int>(waiters));
}

}  // namespace
