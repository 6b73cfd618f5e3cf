// 05_sync_primitives: coroutines coordinating on a two-worker pool without blocking a thread.
//
// Shows:
//   - a channel<T> as a bounded work queue: producers wait while it is full, consumers drain
//     it until it is closed;
//   - an async_semaphore capping how many consumers use a scarce resource at once;
//   - an async_mutex guarding a shared tally across suspensions;
//   - an async_event as a start signal;
//   - a gate draining the consumers on shutdown: stop admitting, wait for what is in flight;
//   - cancellation: a consumer stopped from outside leaves its wait at once and says so.
//
// Exits 0 when every order was processed exactly once and the limits held, 1 (naming what
// failed) otherwise.
#include <shoal/async_event.hpp>
#include <shoal/async_mutex.hpp>
#include <shoal/async_semaphore.hpp>
#include <shoal/channel.hpp>
#include <shoal/gate.hpp>
#include <shoal/stop.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>
#include <shoal/yield.hpp>

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <latch>
#include <optional>
#include <stop_token>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
  std::printf("  [%s] %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) ++failures;
}

constexpr int producers = 4;
constexpr int consumers = 6;
constexpr int orders_per_producer = 500;
constexpr int total_orders = producers * orders_per_producer;
constexpr std::size_t connections = 2;  // the scarce resource

struct shop {
  shoal::channel<int> orders{16};
  shoal::async_semaphore connection_pool{connections};
  shoal::async_mutex tally_lock;
  shoal::async_event open;
  shoal::gate workers;

  std::vector<int> processed = std::vector<int>(total_orders, 0);  // guarded by tally_lock
  std::atomic<int> using_connection{0};
  std::atomic<int> most_using_connection{0};
  std::atomic<int> producers_left{producers};
};

shoal::task<void> produce(shop& s, int p, std::latch& done) {
  co_await s.open.wait();
  for (int k = 0; k < orders_per_producer; ++k) co_await s.orders.send(p * orders_per_producer + k);
  if (s.producers_left.fetch_sub(1) == 1) s.orders.close();  // the last one out closes
  done.count_down();
}

// Takes orders until the channel is closed and drained (or the consumer is stopped).
shoal::task<void> consume(shop& s, std::latch& done) {
  const shoal::gate_token inside = s.workers.enter();
  if (inside) {
    while (std::optional<int> order = co_await s.orders.receive()) {
      {
        const shoal::semaphore_permit connection = co_await s.connection_pool.scoped_acquire();
        const int now = s.using_connection.fetch_add(1) + 1;
        int most = s.most_using_connection.load();
        while (now > most && !s.most_using_connection.compare_exchange_weak(most, now)) {
        }
        co_await shoal::yield();  // "the query": other coroutines run meanwhile
        s.using_connection.fetch_sub(1);
      }
      const shoal::mutex_guard tally = co_await s.tally_lock.scoped_lock();
      ++s.processed[static_cast<std::size_t>(*order)];
    }
  }
  done.count_down();
}

shoal::task<bool> drain(shop& s) { co_return co_await s.workers.close(); }

void run_the_shop() {
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

  int once = 0;
  for (int n : s.processed) once += n == 1 ? 1 : 0;
  std::printf("  %d orders from %d producers, %d consumers, at most %d of %zu connections used\n",
              total_orders, producers, consumers, s.most_using_connection.load(), connections);
  check(once == total_orders, "every order was processed exactly once");
  check(s.most_using_connection.load() <= static_cast<int>(connections),
        "the semaphore never let more consumers in than it had permits");
  check(drained && s.workers.in_flight() == 0, "the gate closed with nothing in flight");
}

shoal::task<std::optional<int>> receive_one(shoal::channel<int>& ch) {
  co_return co_await ch.receive();
}

void stop_a_waiting_consumer() {
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  shoal::channel<int> empty(1);
  std::stop_source source;
  std::latch done(1);
  std::optional<int> got = 0;
  auto consumer = [&]() -> shoal::task<void> {
    got = co_await shoal::with_stop_token(source.get_token(), receive_one(empty));
    done.count_down();
  };
  pool.spawn(consumer());
  source.request_stop();  // from main, while it waits (or before it starts: same outcome)
  done.wait();
  shoal::sync_wait(pool.stop());
  check(!got.has_value(), "a stopped receive returned nullopt instead of waiting forever");
}

}  // namespace

int main() {
  std::printf("05_sync_primitives\n");
  run_the_shop();
  stop_a_waiting_consumer();
  if (failures != 0) {
    std::printf("05_sync_primitives: %d check(s) FAILED\n", failures);
    return 1;
  }
  std::printf("05_sync_primitives: all checks passed\n");
  return 0;
}
