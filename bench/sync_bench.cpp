// SPDX-License-Identifier: Apache-2.0
// bench/sync_bench.cpp: the synchronisation primitives, uncontended and contended.
//
// Uncontended: one iteration is `co_await sem.acquire()` + `sem.release()` on a semaphore with
// a free permit, in one task run by sync_wait: the lock, the attempt, no suspension.
// Baselines: std::mutex lock + unlock, std::counting_semaphore acquire + release, same thread.
//
// Contended: one iteration is a batch of `contended_ops` acquire/release pairs, split between
// 8 coroutines spawned unbound on a 2-worker pool, on a semaphore with 2 permits; each holder
// increments a counter. Every acquire that finds no permit queues (fair: no barging), so most
// operations are a suspension, a hand-over and a post to the waiter's worker.
// Baseline: the same batch split between 8 std::threads on a std::counting_semaphore<> with
// 2 permits (it lets the releasing thread barge, and blocks in the kernel when it must wait).
// There is no Asio baseline: Asio has no semaphore of the same shape.
//
// Channel: one iteration is a batch of `channel_items` values through a channel<int> of
// capacity 64, from P producer coroutines to P consumer coroutines (P = 1 and 4) on a 2-worker
// pool. Baseline: the same through a bounded queue of the same capacity guarded by std::mutex
// with two std::condition_variables, P producer and P consumer threads.
//
// Counters: allocs/op (per acquire/release pair or per value, over the whole run, including
// the frames of the coroutines spawned per batch), time/op on the contended and channel rows
// (wall time per operation).
#include <benchmark/benchmark.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <semaphore>
#include <thread>
#include <vector>

#include "shoal/async_semaphore.hpp"
#include "shoal/channel.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "support/alloc_counter.hpp"
#include "support/join_counter.hpp"
#include "support/running.hpp"
#include "support/smoke.hpp"

namespace {

using shoal::bench::alloc_meter;
using shoal::bench::join_counter;
using shoal::bench::report_allocs;
using shoal::bench::running_pool;

constexpr int contenders = 8;
constexpr std::ptrdiff_t contended_permits = 2;
constexpr std::size_t channel_capacity = 64;
const std::int64_t contended_ops = shoal::bench::full_or_smoke<std::int64_t>(200'000, 2'000);
const std::int64_t channel_items = shoal::bench::full_or_smoke<std::int64_t>(400'000, 4'000);

// Reports wall time per operation for `ops` operations per iteration.
void report_ns_per_op(benchmark::State& state, std::int64_t ops) {
  state.counters["time/op"] =
      benchmark::Counter(static_cast<double>(ops), benchmark::Counter::kIsIterationInvariantRate |
                                                       benchmark::Counter::kInvert);
}

// --- Uncontended --------------------------------------------------------------------------

shoal::task<> shoal_uncontended_loop(benchmark::State& state) {
  shoal::async_semaphore sem(1);
  co_await sem.acquire();  // warm-up
  sem.release();
  const alloc_meter allocs;
  for (auto _ : state) {
    const bool acquired = co_await sem.acquire();
    benchmark::DoNotOptimize(acquired);
    sem.release();
  }
  report_allocs(state, allocs);
}

void uncontended_shoal_semaphore(benchmark::State& state) {
  shoal::sync_wait(shoal_uncontended_loop(state));
}
BENCHMARK(uncontended_shoal_semaphore);

void uncontended_std_mutex(benchmark::State& state) {
  std::mutex m;
  const alloc_meter allocs;
  for (auto _ : state) {
    m.lock();
    benchmark::ClobberMemory();
    m.unlock();
  }
  report_allocs(state, allocs);
}
BENCHMARK(uncontended_std_mutex);

void uncontended_std_counting_semaphore(benchmark::State& state) {
  std::counting_semaphore<> sem(1);
  const alloc_meter allocs;
  for (auto _ : state) {
    sem.acquire();
    benchmark::ClobberMemory();
    sem.release();
  }
  report_allocs(state, allocs);
}
BENCHMARK(uncontended_std_counting_semaphore);

// --- Contended ----------------------------------------------------------------------------

// The holders' work: a relaxed increment (two permits: two holders may count at once).
void count_one(std::atomic<std::int64_t>& counter) {
  counter.fetch_add(1, std::memory_order_relaxed);
}

shoal::task<> shoal_contender(shoal::async_semaphore& sem, std::int64_t ops,
                              std::atomic<std::int64_t>& counter, join_counter& join) {
  for (std::int64_t i = 0; i < ops; ++i) {
    co_await sem.acquire();
    count_one(counter);
    sem.release();
  }
  join.arrive();
}

void contended_shoal_semaphore(benchmark::State& state) {
  running_pool pool(2);
  shoal::async_semaphore sem(contended_permits);
  std::atomic<std::int64_t> counter{0};
  join_counter join;
  const alloc_meter allocs;
  for (auto _ : state) {
    join.reset(contenders);
    for (int c = 0; c < contenders; ++c) {
      pool.get().spawn(shoal_contender(sem, contended_ops / contenders, counter, join));
    }
    join.wait();
  }
  report_allocs(state, allocs, static_cast<double>(contended_ops * state.iterations()));
  report_ns_per_op(state, contended_ops);
}
BENCHMARK(contended_shoal_semaphore)->UseRealTime();

void contended_std_counting_semaphore(benchmark::State& state) {
  std::counting_semaphore<> sem(contended_permits);
  std::atomic<std::int64_t> counter{0};
  const alloc_meter allocs;
  for (auto _ : state) {
    std::vector<std::thread> threads;
    threads.reserve(contenders);
    for (int c = 0; c < contenders; ++c) {
      threads.emplace_back([&] {
        for (std::int64_t i = 0; i < contended_ops / contenders; ++i) {
          sem.acquire();
          count_one(counter);
          sem.release();
        }
      });
    }
    for (std::thread& t : threads) t.join();
  }
  report_allocs(state, allocs, static_cast<double>(contended_ops * state.iterations()));
  report_ns_per_op(state, contended_ops);
}
BENCHMARK(contended_std_counting_semaphore)->UseRealTime();

// --- Channel ------------------------------------------------------------------------------

shoal::task<> shoal_producer(shoal::channel<int>& ch, std::int64_t items, join_counter& join) {
  for (std::int64_t i = 0; i < items; ++i) co_await ch.send(static_cast<int>(i));
  join.arrive();
}

shoal::task<> shoal_consumer(shoal::channel<int>& ch, std::int64_t items, join_counter& join) {
  std::int64_t sum = 0;
  for (std::int64_t i = 0; i < items; ++i) sum += (co_await ch.receive()).value_or(0);
  benchmark::DoNotOptimize(sum);
  join.arrive();
}

void channel_shoal(benchmark::State& state) {
  const auto pairs = static_cast<int>(state.range(0));
  const std::int64_t per_side = channel_items / pairs;
  running_pool pool(2);
  shoal::channel<int> ch(channel_capacity);
  join_counter join;
  const alloc_meter allocs;
  for (auto _ : state) {
    join.reset(std::int64_t{2} * pairs);
    for (int p = 0; p < pairs; ++p) {
      pool.get().spawn(shoal_consumer(ch, per_side, join));
      pool.get().spawn(shoal_producer(ch, per_side, join));
    }
    join.wait();
  }
  report_allocs(state, allocs, static_cast<double>(channel_items * state.iterations()));
  report_ns_per_op(state, channel_items);
}
BENCHMARK(channel_shoal)->ArgName("pairs")->Arg(1)->Arg(4)->UseRealTime();

// The baseline's channel: a bounded queue behind a mutex and two condition variables.
class blocking_queue {
 public:
  void push(int v) {
    std::unique_lock lock(mutex_);
    not_full_.wait(lock, [&] { return items_.size() < channel_capacity; });
    items_.push_back(v);
    not_empty_.notify_one();
  }
  int pop() {
    std::unique_lock lock(mutex_);
    not_empty_.wait(lock, [&] { return !items_.empty(); });
    const int v = items_.front();
    items_.pop_front();
    not_full_.notify_one();
    return v;
  }

 private:
  std::mutex mutex_;
  std::condition_variable not_full_;
  std::condition_variable not_empty_;
  std::deque<int> items_;  // guarded by mutex_
};

void channel_std_threads(benchmark::State& state) {
  const auto pairs = static_cast<int>(state.range(0));
  const std::int64_t per_side = channel_items / pairs;
  blocking_queue queue;
  const alloc_meter allocs;
  for (auto _ : state) {
    std::vector<std::thread> threads;
    threads.reserve(2 * static_cast<std::size_t>(pairs));
    for (int p = 0; p < pairs; ++p) {
      threads.emplace_back([&] {
        std::int64_t sum = 0;
        for (std::int64_t i = 0; i < per_side; ++i) sum += queue.pop();
        benchmark::DoNotOptimize(sum);
      });
      threads.emplace_back([&] {
        for (std::int64_t i = 0; i < per_side; ++i) queue.push(static_cast<int>(i));
      });
    }
    for (std::thread& t : threads) t.join();
  }
  report_allocs(state, allocs, static_cast<double>(channel_items * state.iterations()));
  report_ns_per_op(state, channel_items);
}
BENCHMARK(channel_std_threads)->ArgName("pairs")->Arg(1)->Arg(4)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
