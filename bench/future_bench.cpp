// SPDX-License-Identifier: Apache-2.0
// bench/future_bench.cpp: the cost of a shoal future on one thread (no pool: the scheduler's
// cost of futures is measured by bench/sched_bench.cpp's shoal_future rows).
//
// Measures, one iteration each:
//   - future_fill_read_{shoal,std}: make a promise, take its future, fill it, read the value.
//     Baseline: std::promise<int> / std::future<int> (set_value, get).
//   - future_map_pending_shoal: a promise, one map() registered before the fill, the fill (which
//     runs the map), the mapped value read. (std::future has no continuation to compare with.)
//   - future_chain10_shoal: the same with ten maps chained before the fill.
//   - future_await_ready_shoal: co_await of a complete future inside a task run by sync_wait
//     (no suspension), against await_task_shoal: co_await of a task that completes at once.
// Counters: allocs/op (calls to operator new; shoal's states come from the frame allocator,
// so a steady state shows 0 where std::promise allocates its shared state each time).
#include <benchmark/benchmark.h>

#include <future>

#include "shoal/future.hpp"
#include "shoal/promise.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "support/alloc_counter.hpp"

namespace {

using shoal::bench::alloc_meter;
using shoal::bench::report_allocs;

void future_fill_read_shoal(benchmark::State& state) {
  const alloc_meter allocs;
  int v = 0;
  for (auto _ : state) {
    shoal::promise<int> p;
    shoal::future<int> f = p.get_future();
    p.success(v);
    v = f.value() + 1;
  }
  benchmark::DoNotOptimize(v);
  report_allocs(state, allocs);
}
BENCHMARK(future_fill_read_shoal);

void future_fill_read_std(benchmark::State& state) {
  const alloc_meter allocs;
  int v = 0;
  for (auto _ : state) {
    std::promise<int> p;
    std::future<int> f = p.get_future();
    p.set_value(v);
    v = f.get() + 1;
  }
  benchmark::DoNotOptimize(v);
  report_allocs(state, allocs);
}
BENCHMARK(future_fill_read_std);

void future_map_pending_shoal(benchmark::State& state) {
  const alloc_meter allocs;
  int v = 0;
  for (auto _ : state) {
    shoal::promise<int> p;
    shoal::future<int> f = p.get_future().map([](int x) { return x + 1; });
    p.success(v);
    v = f.value();
  }
  benchmark::DoNotOptimize(v);
  report_allocs(state, allocs);
}
BENCHMARK(future_map_pending_shoal);

void future_chain10_shoal(benchmark::State& state) {
  const alloc_meter allocs;
  int v = 0;
  for (auto _ : state) {
    shoal::promise<int> p;
    shoal::future<int> f = p.get_future();
    for (int i = 0; i < 10; ++i) f = f.map([](int x) { return x + 1; });
    p.success(v);
    v = f.value() - 9;
  }
  benchmark::DoNotOptimize(v);
  report_allocs(state, allocs, static_cast<double>(state.iterations()));
}
BENCHMARK(future_chain10_shoal);

shoal::task<> await_ready_loop(benchmark::State& state) {
  const auto ready = shoal::future<int>::successful(1);
  int v = co_await ready;  // warm-up
  const alloc_meter allocs;
  for (auto _ : state) {
    v += co_await ready;
    benchmark::DoNotOptimize(v);
  }
  report_allocs(state, allocs);
}
void future_await_ready_shoal(benchmark::State& state) {
  shoal::sync_wait(await_ready_loop(state));
}
BENCHMARK(future_await_ready_shoal);

shoal::task<int> ready_child(int x) { co_return x + 1; }
shoal::task<> await_task_loop(benchmark::State& state) {
  int v = co_await ready_child(0);  // warm-up: a frame to recycle
  const alloc_meter allocs;
  for (auto _ : state) {
    v = co_await ready_child(v);
    benchmark::DoNotOptimize(v);
  }
  report_allocs(state, allocs);
}
void await_task_shoal(benchmark::State& state) { shoal::sync_wait(await_task_loop(state)); }
BENCHMARK(await_task_shoal);

}  // namespace

BENCHMARK_MAIN();
