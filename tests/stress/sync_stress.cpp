// SPDX-License-Identifier: Apache-2.0
// The synchronisation primitives on a real two-worker pool, with stops requested from another
// thread at random moments (run under TSan): no over-grant, mutual exclusion, every channel
// value delivered exactly once, no lost wake-up.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <latch>
#include <memory>
#include <optional>
#include <random>
#include <stop_token>
#include <thread>
#include <vector>

#include "shoal/async_event.hpp"
#include "shoal/async_mutex.hpp"
#include "shoal/async_semaphore.hpp"
#include "shoal/channel.hpp"
#include "shoal/gate.hpp"
#include "shoal/stop.hpp"
#include "shoal/yield.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using shoal::testing::running_pool;

// Stop sources for a set of chains, requested one by one from the test thread at random
// moments while the chains run.
class random_stops {
 public:
  random_stops(std::size_t count, unsigned seed) : sources_(count), rng_(seed) {}

  std::stop_token token(std::size_t i) const { return sources_[i].get_token(); }

  // Requests stop on about `fraction` of the sources, in random order, a few microseconds
  // apart.
  void request(double fraction) {
    std::vector<std::size_t> order(sources_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), rng_);
    order.resize(static_cast<std::size_t>(fraction * static_cast<double>(order.size())));
    std::uniform_int_distribution<int> pause_us(0, 50);
    for (std::size_t i : order) {
      sources_[i].request_stop();
      std::this_thread::sleep_for(std::chrono::microseconds(pause_us(rng_)));
    }
  }

 private:
  std::vector<std::stop_source> sources_;
  std::mt19937 rng_;
};

// Where chain i runs: even chains bound to a worker, odd chains free to migrate.
void spawn_chain(shoal::thread_pool& pool, std::size_t i, task<> t) {
  if (i % 2 == 0) {
    pool.spawn_on(i / 2 % pool.size(), std::move(t));
  } else {
    pool.spawn(std::move(t));
  }
}

TEST(SyncStress, ASemaphoreNeverGrantsMoreThanItsPermitsAndLosesNoneToCancellation) {
  constexpr std::size_t permits = 3;
  constexpr std::size_t chains = 64;
  constexpr int rounds = 300;
  shoal::async_semaphore sem(permits);
  std::atomic<int> holders{0};
  std::atomic<int> most_holders{0};
  std::atomic<long> granted{0};
  std::atomic<long> cancelled{0};
  std::atomic<long> attempts{0};
  // The chains go on past their rounds until a cancelled acquire has been seen, so the stops
  // always land while they run, however the machine schedules the test thread.
  std::atomic<bool> stops_landed{false};
  random_stops stops(chains, 7);
  std::latch all(chains);
  auto chain = [&]() -> task<> {
    for (int r = 0; r < rounds || !stops_landed.load(std::memory_order_acquire); ++r) {
      attempts.fetch_add(1, std::memory_order_relaxed);
      if (!co_await sem.acquire()) {
        cancelled.fetch_add(1, std::memory_order_relaxed);
        continue;
      }
      const int now = holders.fetch_add(1, std::memory_order_acq_rel) + 1;
      int seen = most_holders.load(std::memory_order_relaxed);
      while (now > seen && !most_holders.compare_exchange_weak(seen, now)) {
      }
      if (r % 4 == 0) co_await shoal::yield();  // hold it across a suspension
      holders.fetch_sub(1, std::memory_order_acq_rel);
      granted.fetch_add(1, std::memory_order_relaxed);
      sem.release();
    }
    all.count_down();
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < chains; ++i) {
      spawn_chain(p.pool, i, shoal::with_stop_token(stops.token(i), chain()));
    }
    stops.request(0.5);
    // A stopped chain's next acquire returns false at once, so this wait is short; it is
    // bounded so a semaphore that never reports a cancellation fails below instead of hanging.
    const auto give_up = std::chrono::steady_clock::now() + 30s;
    while (cancelled.load() == 0 && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(1ms);
    }
    stops_landed.store(true, std::memory_order_release);
    all.wait();
  }
  EXPECT_LE(most_holders.load(), static_cast<int>(permits));
  EXPECT_GE(attempts.load(), long{chains} * rounds);
  EXPECT_EQ(granted.load() + cancelled.load(), attempts.load());
  EXPECT_GT(cancelled.load(), 0) << "no stop landed: the test did not test cancellation";
  EXPECT_EQ(sem.available(), permits) << "a permit was lost or granted twice";
}

TEST(SyncStress, AMutexExcludesEveryOtherHolderAcrossSuspensionsAndWorkers) {
  constexpr std::size_t chains = 64;
  constexpr int rounds = 300;
  shoal::async_mutex m;
  long counter = 0;  // plain: only the lock orders its accesses (TSan checks it)
  std::atomic<bool> overlap{false};
  std::atomic<bool> inside{false};
  std::latch all(chains);
  auto chain = [&]() -> task<> {
    for (int r = 0; r < rounds; ++r) {
      const shoal::mutex_guard guard = co_await m.scoped_lock();
      if (inside.exchange(true)) overlap.store(true);
      const long before = counter;
      if (r % 8 == 0) co_await shoal::yield();  // may resume on the other worker
      counter = before + 1;
      inside.store(false);
    }
    all.count_down();
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < chains; ++i) spawn_chain(p.pool, i, chain());
    all.wait();
  }
  EXPECT_FALSE(overlap.load());
  EXPECT_EQ(counter, long{chains} * rounds);
  EXPECT_TRUE(m.try_lock());
  m.unlock();
}

// Producers send ids p * per_producer + k; consumers mark what they receive. Some producers
// and consumers are stopped at random. Every id whose send returned true is received exactly
// once, and no other id is.
void check_channel_exactly_once(std::size_t capacity) {
  constexpr std::size_t producers = 8;
  constexpr std::size_t consumers = 8;
  constexpr std::size_t per_producer = 2000;
  constexpr std::size_t ids = producers * per_producer;
  shoal::channel<std::size_t> ch(capacity);
  std::vector<std::atomic<int>> delivered(ids);
  std::vector<std::atomic<int>> received(ids);
  std::atomic<std::size_t> producers_left{producers};
  std::latch all(producers + consumers);
  random_stops stops(producers + consumers, static_cast<unsigned>(capacity) + 11);
  auto producer = [&](std::size_t p) -> task<> {
    for (std::size_t k = 0; k < per_producer; ++k) {
      const std::size_t id = p * per_producer + k;
      if (co_await ch.send(id)) delivered[id].fetch_add(1, std::memory_order_relaxed);
    }
    // acq_rel: the last producer to finish closes the channel.
    if (producers_left.fetch_sub(1, std::memory_order_acq_rel) == 1) ch.close();
    all.count_down();
  };
  auto consumer = [&]() -> task<> {
    while (std::optional<std::size_t> id = co_await ch.receive()) {
      received[*id].fetch_add(1, std::memory_order_relaxed);
    }
    all.count_down();
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < producers; ++i) {
      spawn_chain(p.pool, i, shoal::with_stop_token(stops.token(i), producer(i)));
    }
    for (std::size_t i = 0; i < consumers; ++i) {
      // The first consumer is never stopped, so the channel is always drained.
      std::stop_token token = i == 0 ? std::stop_token{} : stops.token(producers + i);
      spawn_chain(p.pool, producers + i, shoal::with_stop_token(token, consumer()));
    }
    stops.request(0.3);
    all.wait();
  }
  std::size_t sent = 0;
  for (std::size_t id = 0; id < ids; ++id) {
    ASSERT_EQ(received[id].load(), delivered[id].load()) << "id " << id;
    ASSERT_LE(delivered[id].load(), 1);
    sent += static_cast<std::size_t>(delivered[id].load());
  }
  EXPECT_GT(sent, 0u);
  EXPECT_EQ(ch.size(), 0u);
}

TEST(SyncStress, ARendezvousChannelDeliversEveryValueExactlyOnce) { check_channel_exactly_once(0); }
TEST(SyncStress, AOneSlotChannelDeliversEveryValueExactlyOnce) { check_channel_exactly_once(1); }
TEST(SyncStress, ABufferedChannelDeliversEveryValueExactlyOnce) { check_channel_exactly_once(64); }

TEST(SyncStress, AnEventSetFromAnotherThreadWakesEveryWaiterNotStopped) {
  constexpr std::size_t waiters = 2000;
  shoal::async_event ev;
  std::atomic<int> woke_set{0};
  std::atomic<int> woke_stopped{0};
  std::latch all(waiters);
  random_stops stops(waiters, 3);
  auto waiter = [&]() -> task<> {
    if (co_await ev.wait()) {
      woke_set.fetch_add(1, std::memory_order_relaxed);
    } else {
      woke_stopped.fetch_add(1, std::memory_order_relaxed);
    }
    all.count_down();
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < waiters; ++i) {
      spawn_chain(p.pool, i, shoal::with_stop_token(stops.token(i), waiter()));
    }
    std::thread stopper([&] { stops.request(0.05); });
    std::this_thread::sleep_for(1ms);
    ev.set();  // races with the stops
    stopper.join();
    all.wait();
  }
  EXPECT_EQ(woke_set.load() + woke_stopped.load(), static_cast<int>(waiters));
  EXPECT_GT(woke_set.load(), 0);
}

TEST(SyncStress, AGateClosesOnlyOnceEveryAdmittedChainHasLeft) {
  constexpr std::size_t chains = 500;
  shoal::gate g;
  std::atomic<int> admitted{0};
  std::atomic<int> finished{0};
  std::atomic<int> refused{0};
  std::latch all(chains);
  auto work = [&]() -> task<> {
    if (shoal::gate_token inside = g.enter()) {
      admitted.fetch_add(1, std::memory_order_relaxed);
      for (int i = 0; i < 20; ++i) co_await shoal::yield();
      finished.fetch_add(1, std::memory_order_relaxed);
    } else {
      refused.fetch_add(1, std::memory_order_relaxed);
    }
    all.count_down();
  };
  int finished_at_close = -1;
  int admitted_at_close = -2;
  auto closer = [&]() -> task<> {
    co_await shoal::yield();
    if (co_await g.close()) {
      finished_at_close = finished.load();
      admitted_at_close = admitted.load();
    }
  };
  {
    running_pool p(2);
    for (std::size_t i = 0; i < chains / 2; ++i) spawn_chain(p.pool, i, work());
    p.pool.spawn(closer());
    for (std::size_t i = chains / 2; i < chains; ++i) spawn_chain(p.pool, i, work());
    all.wait();
  }
  EXPECT_EQ(finished_at_close, admitted_at_close) << "close returned with work inside";
  EXPECT_EQ(admitted.load() + refused.load(), static_cast<int>(chains));
  EXPECT_EQ(g.in_flight(), 0u);
}

}  // namespace
