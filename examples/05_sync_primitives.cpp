// SPDX-License-Identifier: Apache-2.0
// 05_sync_primitives: coroutines coordinating on a two-worker pool without blocking a thread.
//
// Shows: a channel<T> as a bounded work queue (producers wait while it is full, consumers drain
// it until it is closed); an async_semaphore capping how many consumers use a scarce resource
// at once; an async_mutex guarding a tally across suspensions; an async_event as a start
// signal; a gate draining the consumers on shutdown (stop admitting, wait for what is in flight).
#include <shoal/async_event.hpp>
#include <shoal/async_mutex.hpp>
#include <shoal/async_semaphore.hpp>
#include <shoal/channel.hpp>
#include <shoal/gate.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>
#include <shoal/yield.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdio>
#include <latch>
#include <optional>

#include "support/check.hpp"

namespace {

constexpr int producers = 4, consumers = 6, orders_each = 500, connections = 2;
constexpr int total_orders = producers * orders_each;

struct shop {
  shoal::channel<int> orders{16};
  shoal::async_semaphore connection_pool{connections};  // the scarce resource
  shoal::async_mutex tally_lock;
  shoal::async_event open;
  shoal::gate workers;
  std::array<int, total_orders> processed{};  // guarded by tally_lock
  std::atomic<int> in_use{0}, producers_left{producers};
  std::atomic<bool> over_limit{false};
};

shoal::task<void> produce(shop& s, int p, std::latch& done) {
  co_await s.open.wait();
  for (int k = 0; k < orders_each; ++k) co_await s.orders.send(p * orders_each + k);
  if (s.producers_left.fetch_sub(1) == 1) s.orders.close();  // the last one out closes
  done.count_down();
}

shoal::task<void> consume(shop& s, std::latch& done) {
  if (const shoal::gate_token inside = s.workers.enter()) {
    while (std::optional<int> order = co_await s.orders.receive()) {  // until closed and drained
      {
        const shoal::semaphore_permit connection = co_await s.connection_pool.scoped_acquire();
        if (s.in_use.fetch_add(1) + 1 > connections) s.over_limit.store(true);
        co_await shoal::yield();  // "the query": other coroutines run meanwhile
        s.in_use.fetch_sub(1);
      }
      const shoal::mutex_guard tally = co_await s.tally_lock.scoped_lock();
      ++s.processed[static_cast<std::size_t>(*order)];
    }
  }
  done.count_down();
}

shoal::task<bool> drain(shop& s) { co_return co_await s.workers.close(); }

}  // namespace

int main() {
  std::printf("05_sync_primitives\n");
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  shop s;
  std::latch done(producers + consumers);
  for (int c = 0; c < consumers; ++c) pool.spawn(consume(s, done));
  for (int p = 0; p < producers; ++p) pool.spawn(produce(s, p, done));
  s.open.set();
  done.wait();
  const bool drained = shoal::sync_wait(drain(s));
  shoal::sync_wait(pool.stop());

  examples::check(std::ranges::all_of(s.processed, [](int n) { return n == 1; }),
                  "every order was processed exactly once");
  examples::check(!s.over_limit.load(), "the semaphore's 2 permits were never exceeded");
  examples::check(drained && s.workers.in_flight() == 0, "the gate closed with nothing in flight");
  return examples::finish("05_sync_primitives");
}
