// SPDX-License-Identifier: Apache-2.0
// bench/await_bench.cpp: the cost of `co_await` on a child task that completes at once.
//
// Measures: one iteration is `v = co_await child(v)` in a loop inside one task run by
// sync_wait: allocate the child's frame (recycled), transfer into it, store the result, transfer
// back, free the frame.
// Baselines, same run: a call to a [[gnu::noinline]] function (the floor), and the Asio
// equivalent: an asio::awaitable<int> child co_awaited in an asio::awaitable loop that co_spawn
// runs on an io_context.
// Counters: allocs/op, calls to operator new per await after one warm-up await (shoal's target
// is 0 in steady state: the frame allocator recycles the child's frame).
#include <benchmark/benchmark.h>
#include <asio.hpp>

#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "support/alloc_counter.hpp"

namespace {

using shoal::bench::alloc_meter;
using shoal::bench::report_allocs;

[[gnu::noinline]] int plain_child(int x) { return x + 1; }

void await_plain_call(benchmark::State& state) {
  int v = 0;
  const alloc_meter allocs;
  for (auto _ : state) {
    v = plain_child(v);
    benchmark::DoNotOptimize(v);
  }
  report_allocs(state, allocs);
}
BENCHMARK(await_plain_call);

shoal::task<int> shoal_child(int x) { co_return x + 1; }

shoal::task<> shoal_await_loop(benchmark::State& state) {
  int v = co_await shoal_child(0);  // warm-up: the frame allocator now has a frame to recycle
  const alloc_meter allocs;
  for (auto _ : state) {
    v = co_await shoal_child(v);
    benchmark::DoNotOptimize(v);
  }
  report_allocs(state, allocs);
}

void await_shoal_task(benchmark::State& state) { shoal::sync_wait(shoal_await_loop(state)); }
BENCHMARK(await_shoal_task);

asio::awaitable<int> asio_child(int x) { co_return x + 1; }

asio::awaitable<void> asio_await_loop(benchmark::State& state) {
  int v = co_await asio_child(0);  // warm-up, as for shoal
  const alloc_meter allocs;
  for (auto _ : state) {
    v = co_await asio_child(v);
    benchmark::DoNotOptimize(v);
  }
  report_allocs(state, allocs);
}

void await_asio_awaitable(benchmark::State& state) {
  asio::io_context io(1);
  asio::co_spawn(io, asio_await_loop(state), asio::detached);
  io.run();
}
BENCHMARK(await_asio_awaitable);

}  // namespace

BENCHMARK_MAIN();
