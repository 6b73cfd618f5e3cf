// SPDX-License-Identifier: Apache-2.0
// shoal::batcher, what only it does: chained batchers on one executor; callers on several
// workers, each resumed on its own; cancellations from another thread racing flushes. What it
// shares with shoal::bound_batcher is tested once for both: batcher_family_test.cpp.
#include "shoal/batcher.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <latch>
#include <mutex>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <stop_token>
#include <thread>
#include <vector>

#include "shoal/async_event.hpp"
#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "shoal/thread_pool.hpp"
#include "support/counting_new.hpp"
#include "support/manual_scheduler.hpp"
#include "support/running_pool.hpp"
#include "unit/batcher_support.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::batcher;
using shoal::task;
using shoal::testing::manual_scheduler;
using shoal::testing::spawned;
using shoal::testing::stoppable_caller;

// The seed's pipeline: get the user's preferences, then notify those who want it.
struct prefs {
  bool wants_mail = false;
  int address = 0;
};

task<bool> notify_user(batcher<int, prefs>& get_prefs, batcher<int, bool>& send, int user) {
  std::optional<prefs> p = co_await get_prefs(user);
  if (!p || !p->wants_mail) co_return false;
  std::optional<bool> sent = co_await send(p->address);
  co_return sent.value_or(false);
}

TEST(batcher, ChainedBatchersSendEachStageInOneCall) {
  manual_scheduler sched;
  std::vector<std::size_t> prefs_calls;
  std::vector<std::size_t> send_calls;
  batcher<int, prefs> get_prefs([&](std::span<int> users) {
    prefs_calls.push_back(users.size());
    std::vector<prefs> out;
    for (int u : users) out.push_back(prefs{u % 2 == 0, 1000 + u});
    return out;
  });
  batcher<int, bool> send([&](std::span<int> addresses) {
    send_calls.push_back(addresses.size());
    return std::vector<bool>(addresses.size(), true);
  });
  std::vector<spawned<bool>> users;
  users.reserve(100);
  for (int u = 0; u < 100; ++u) users.push_back(sched.spawn(notify_user(get_prefs, send, u)));
  sched.run_all();
  while (sched.idle() > 0) {
  }
  EXPECT_EQ(prefs_calls, std::vector<std::size_t>(1, 100));
  EXPECT_EQ(send_calls, std::vector<std::size_t>(1, 50));
  int notified = 0;
  for (auto& u : users) notified += u.get() ? 1 : 0;
  EXPECT_EQ(notified, 50);
}

task<void> bound_caller(batcher<int, int>& b, int x, std::atomic<int>& wrong, std::latch& done) {
  shoal::executor* before = shoal::executor::current();
  std::optional<int> r = co_await b(x);
  if (!r || *r != x * 10 || shoal::executor::current() != before) wrong.fetch_add(1);
  done.count_down();
}

// Blocks its worker's thread until `go` opens: the callers queued behind it then join without
// their worker going idle in between, so batches fill to their size whatever the timing.
task<void> hold_worker(std::latch& go) {
  go.wait();
  co_return;
}

TEST(batcher, CallersOnSeveralWorkersEachResumeOnTheirOwnWithTheirOwnResult) {
  constexpr int callers = 2000;
  std::atomic<int> wrong{0};
  std::latch done(callers);
  std::mutex seen_mutex;
  std::vector<int> seen;
  auto slow = [&](std::span<int> args) -> task<std::vector<int>> {
    co_await shoal::sleep_for(100us);  // a bulk call that awaits, as I/O would
    {
      const std::lock_guard lock(seen_mutex);
      seen.insert(seen.end(), args.begin(), args.end());
    }
    std::vector<int> out;
    for (int a : args) out.push_back(a * 10);
    co_return out;
  };
  {
    shoal::testing::running_pool p(4);
    batcher<int, int> b(slow, {.max_size = 64});
    std::latch go(1);
    for (std::size_t w = 0; w < 4; ++w) p.pool.spawn_on(w, hold_worker(go));
    for (int i = 0; i < callers; ++i) {
      p.pool.spawn_on(static_cast<std::size_t>(i) % 4, bound_caller(b, i, wrong, done));
    }
    go.count_down();
    done.wait();
    EXPECT_EQ(b.stats().items, static_cast<std::uint64_t>(callers));
    EXPECT_GT(b.stats().by_size, 0U);
  }
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(callers));
}

// Callers on 3 workers, flushed by size, while another thread stops some of them: each
// token covers `per_token` consecutive callers (so shared stop callbacks race flushes too).
void race_cancellations_with_flushes(int per_token) {
  constexpr int callers = 1000;
  std::atomic<int> got{0};
  std::atomic<int> none{0};
  std::atomic<int> sent{0};
  std::latch done(callers);
  std::vector<std::stop_source> stops(callers);
  {
    shoal::testing::running_pool p(3);
    batcher<int, int> b(
        [&](std::span<int> args) {
          sent.fetch_add(static_cast<int>(args.size()));
          std::vector<int> out;
          for (int a : args) out.push_back(a * 10);
          return out;
        },
        {.max_size = 16});
    for (int i = 0; i < callers; ++i) {
      const std::stop_token token = stops[static_cast<std::size_t>(i / per_token)].get_token();
      p.pool.spawn(stoppable_caller(b, i, token, got, none, done));
      if (i % 3 == 0) stops[static_cast<std::size_t>(i / 2 / per_token)].request_stop();
    }
    done.wait();
    EXPECT_EQ(static_cast<std::uint64_t>(sent.load()), b.stats().items);
    EXPECT_LE(b.stats().cancelled, static_cast<std::uint64_t>(none.load()));
  }
  EXPECT_EQ(got.load() + none.load(), callers);
  EXPECT_LE(got.load(), sent.load());  // every value came from a bulk call
  EXPECT_LT(got.load(), 1000000);      // and was the caller's own
}

TEST(batcher, CancellationsFromAnotherThreadRaceFlushesSafely) {
  race_cancellations_with_flushes(1);
}

TEST(batcher, SharedTokenCancellationsFromAnotherThreadRaceFlushesSafely) {
  race_cancellations_with_flushes(8);
}

}  // namespace
