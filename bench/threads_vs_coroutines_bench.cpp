// SPDX-License-Identifier: Apache-2.0
// bench/threads_vs_coroutines_bench.cpp: N workers doing ~1 us of CPU work, then yielding, as
// coroutines on a 2-worker pool and as std::threads (the experiment from the TPC-C talk).
//
// Coroutines: N tasks (10 .. 10^6) spawned on a 2-worker pool, each looping: spin ~1 us (a loop
// calibrated at start-up on thread CPU time), count the operation, `co_await shoal::yield()`.
// Baseline: N std::threads (10 .. 10^4) each looping: spin ~1 us, count, std::this_thread::yield().
// Both run until told to stop; after all N are started and a warm-up, the operations completed in
// a fixed window are counted (per-worker / per-thread counters, no shared hot cache line).
// Reference, measured just before each benchmark: one thread per core spinning and counting
// without ever yielding, i.e. what this machine, shared as it is at that moment, actually gives.
//
// Counters: ops/s; ideal_ratio = ops/s / (cores x 1 op per us), 1.0 being every core doing
// nothing but the work; vs_reference = ops/s / the reference's ops/s (on a shared machine the
// reference itself falls short of the ideal); allocs/op over the window. Time is the window.
// Targets: coroutine ops/s flat (within 20%) from 10^2 to 10^6, and within 10% of the ideal at
// 10^4.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <system_error>
#include <thread>
#include <vector>

#include <time.h>

#include "shoal/executor.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/yield.hpp"
#include "support/alloc_counter.hpp"
#include "support/join_counter.hpp"
#include "support/running.hpp"
#include "support/smoke.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::bench::alloc_meter;
using shoal::bench::full_or_smoke;
using shoal::bench::join_counter;
using steady = std::chrono::steady_clock;

constexpr std::size_t pool_workers = 2;
const auto warm_up = full_or_smoke<steady::duration>(200ms, 10ms);
const auto window = full_or_smoke<steady::duration>(1s, 30ms);

// --- The ~1 us of work --------------------------------------------------------------------

[[gnu::noinline]] void spin(std::uint64_t rounds) {
  for (std::uint64_t i = 0; i < rounds; ++i) benchmark::DoNotOptimize(i);
}

// This thread's CPU time: unlike wall time, it does not count time spent preempted.
std::chrono::nanoseconds thread_cpu_time() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

// Spin rounds that take about 1 us of CPU on this machine (the fastest of many short probes).
std::uint64_t rounds_per_us() {
  static const std::uint64_t rounds = [] {
    constexpr std::uint64_t probe = 100'000;
    auto best = std::chrono::nanoseconds::max();
    for (int i = 0; i < 50; ++i) {
      const auto start = thread_cpu_time();
      spin(probe);
      best = std::min(best, thread_cpu_time() - start);
    }
    const auto ns = static_cast<std::uint64_t>(std::max<std::int64_t>(1, best.count()));
    return std::max<std::uint64_t>(1, probe * 1000 / ns);
  }();
  return rounds;
}

// --- Counting -----------------------------------------------------------------------------

struct alignas(64) op_counter {
  std::atomic<std::uint64_t> ops{0};

  // Only the owning thread counts: a relaxed load + store, no read-modify-write.
  void count() noexcept {
    ops.store(ops.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }
};

std::uint64_t total_ops(const std::vector<op_counter>& counters) {
  std::uint64_t total = 0;
  for (const op_counter& c : counters) total += c.ops.load(std::memory_order_relaxed);
  return total;
}

// What one measured window gave.
struct window_result {
  double seconds = 0;
  double ops_per_second = 0;
  double allocs_per_op = 0;
};

// Lets the workers warm up, then counts the operations completed in `window`.
window_result measure_window(const std::vector<op_counter>& counters) {
  std::this_thread::sleep_for(warm_up);
  const alloc_meter allocs;
  const auto start = steady::now();
  const std::uint64_t ops_before = total_ops(counters);
  std::this_thread::sleep_for(window);
  const std::uint64_t ops = total_ops(counters) - ops_before;
  const std::chrono::duration<double> elapsed = steady::now() - start;
  const auto n = static_cast<double>(ops);
  return {elapsed.count(), n / elapsed.count(), allocs.per(n)};
}

// Reports `result` against the ideal and the `reference` ops/s; the window is the time.
void report(benchmark::State& state, const window_result& result, double reference) {
  const double ideal = static_cast<double>(std::thread::hardware_concurrency()) * 1e6;
  state.SetIterationTime(result.seconds);
  state.counters["ops/s"] = result.ops_per_second;
  state.counters["ideal_ratio"] = result.ops_per_second / ideal;
  state.counters["vs_reference"] = reference > 0 ? result.ops_per_second / reference : 0.0;
  if (shoal::bench::allocation_counting_enabled()) {
    state.counters["allocs/op"] = result.allocs_per_op;
  }
}

// --- Threads ------------------------------------------------------------------------------

// Runs `n` threads looping on spin + count (+ std::this_thread::yield() when `yield`) and
// measures them. Throws std::system_error when the machine will not start `n` threads.
window_result run_threads(std::size_t n, bool yield) {
  const std::uint64_t rounds = rounds_per_us();
  std::vector<op_counter> counters(n);
  std::atomic<bool> stop{false};
  std::vector<std::thread> threads;
  threads.reserve(n);
  auto stop_and_join = [&] {
    stop.store(true, std::memory_order_relaxed);
    for (std::thread& t : threads) t.join();
  };
  try {
    for (std::size_t i = 0; i < n; ++i) {
      threads.emplace_back([&stop, &counter = counters[i], rounds, yield] {
        while (!stop.load(std::memory_order_relaxed)) {
          spin(rounds);
          counter.count();
          if (yield) std::this_thread::yield();
        }
      });
    }
  } catch (...) {
    stop_and_join();
    throw;
  }
  const window_result result = measure_window(counters);
  stop_and_join();
  return result;
}

// The reference: one spinning thread per core, never yielding.
double reference_ops_per_second() {
  return run_threads(std::thread::hardware_concurrency(), false).ops_per_second;
}

void threads_yield(benchmark::State& state) {
  for (auto _ : state) {
    const double reference = reference_ops_per_second();
    try {
      report(state, run_threads(static_cast<std::size_t>(state.range(0)), true), reference);
    } catch (const std::system_error& e) {
      state.SkipWithError(e.what());  // the machine's thread limit: report, don't fail
    }
  }
}

// --- Coroutines ---------------------------------------------------------------------------

struct coroutine_run {
  explicit coroutine_run(shoal::thread_pool& p) : pool(&p), counters(p.size()) {}

  // The counter of the worker running the caller.
  op_counter& here() noexcept {
    const shoal::executor* ex = shoal::executor::current();
    for (std::size_t k = 0; k + 1 < counters.size(); ++k) {
      if (ex == &pool->worker(k)) return counters[k];
    }
    return counters.back();
  }

  shoal::thread_pool* pool;
  std::vector<op_counter> counters;
  std::atomic<bool> stop{false};
  join_counter finished;
};

shoal::task<> working_coroutine(coroutine_run& run, std::uint64_t rounds) {
  while (!run.stop.load(std::memory_order_relaxed)) {
    spin(rounds);
    run.here().count();
    co_await shoal::yield();
  }
  run.finished.arrive();
}

void coroutines_yield(benchmark::State& state) {
  const std::int64_t n = state.range(0);
  const std::uint64_t rounds = rounds_per_us();
  for (auto _ : state) {
    const double reference = reference_ops_per_second();
    shoal::bench::running_pool pool(pool_workers);
    coroutine_run run(pool.get());
    run.finished.reset(n);
    for (std::int64_t i = 0; i < n; ++i) pool.get().spawn(working_coroutine(run, rounds));
    report(state, measure_window(run.counters), reference);
    run.stop.store(true, std::memory_order_relaxed);
    run.finished.wait();
  }
}

BENCHMARK(coroutines_yield)
    ->ArgName("coroutines")
    ->Apply([](benchmark::internal::Benchmark* b) {
      for (std::int64_t n : full_or_smoke<std::vector<std::int64_t>>(
               {10, 100, 1'000, 10'000, 100'000, 1'000'000}, {10, 100, 1'000})) {
        b->Arg(n);
      }
    })
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK(threads_yield)
    ->ArgName("threads")
    ->Apply([](benchmark::internal::Benchmark* b) {
      for (std::int64_t n :
           full_or_smoke<std::vector<std::int64_t>>({10, 100, 1'000, 10'000}, {10, 100})) {
        b->Arg(n);
      }
    })
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
