// SPDX-License-Identifier: Apache-2.0
// bench/fanout_bench.cpp: spawning and joining a million tasks (skynet-style), 1 and 2 workers.
//
// Flat: one task on the pool spawns N detached children with pool.spawn(); each child counts
// down a shared atomic and the last one releases a semaphore the benchmark thread waits on.
// Tree: the skynet shape: a root task spawns 10 children, each of which spawns 10 more, down to
// N leaves (N a power of 10); leaves count down the same join. Spawning is then spread over
// the workers. Every spawned task is a coroutine (a root frame and a task frame).
// Baselines: the same on an io_context run by 1 and 2 threads, with asio::post() of a handler
// per child and the same join.
//
// Counters: tasks/s (every spawned task or posted handler), allocs/op (per task, whole run:
// with 2 workers, frames freed on another thread than the one that allocated them can only be
// recycled there).
#include <benchmark/benchmark.h>
#include <asio.hpp>

#include <cstdint>

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
using shoal::bench::running_io_context;
using shoal::bench::running_pool;

constexpr int tree_fanout = 10;

const std::int64_t children = shoal::bench::full_or_smoke<std::int64_t>(1'000'000, 10'000);

// A `tree_fanout`-ary tree with `leaves` leaves: its depth, and how many nodes it has.
int tree_depth(std::int64_t leaves) {
  int depth = 0;
  for (std::int64_t n = 1; n < leaves; n *= tree_fanout) ++depth;
  return depth;
}
std::int64_t tree_nodes(int depth) {
  std::int64_t nodes = 0;
  for (std::int64_t level = 1; depth >= 0; --depth, level *= tree_fanout) nodes += level;
  return nodes;
}

// Runs `one_fanout(join)` once per benchmark iteration, expecting `arrivals` arrivals, and
// reports tasks/s and allocs/op for `tasks` tasks per iteration.
template <class Fanout>
void run_fanouts(benchmark::State& state, std::int64_t arrivals, std::int64_t tasks,
                 Fanout one_fanout) {
  join_counter join;
  const alloc_meter allocs;
  for (auto _ : state) {
    join.reset(arrivals);
    one_fanout(join);
    join.wait();
  }
  shoal::bench::report_allocs(state, allocs,
                              static_cast<double>(tasks) * static_cast<double>(state.iterations()));
  state.counters["tasks/s"] =
      benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsIterationInvariantRate);
}

// --- shoal --------------------------------------------------------------------------------

shoal::task<> shoal_leaf(join_counter& join) {
  join.arrive();
  co_return;
}

shoal::task<> shoal_flat_root(shoal::thread_pool& pool, std::int64_t n, join_counter& join) {
  for (std::int64_t i = 0; i < n; ++i) pool.spawn(shoal_leaf(join));
  co_return;
}

shoal::task<> shoal_tree_node(shoal::thread_pool& pool, int depth, join_counter& join) {
  if (depth == 0) {
    join.arrive();
    co_return;
  }
  for (int i = 0; i < tree_fanout; ++i) pool.spawn(shoal_tree_node(pool, depth - 1, join));
}

void fanout_flat_shoal(benchmark::State& state) {
  running_pool pool(static_cast<std::size_t>(state.range(0)));
  run_fanouts(state, children, children + 1, [&](join_counter& join) {
    pool.get().spawn(shoal_flat_root(pool.get(), children, join));
  });
}

void fanout_tree_shoal(benchmark::State& state) {
  running_pool pool(static_cast<std::size_t>(state.range(0)));
  const int depth = tree_depth(children);
  run_fanouts(state, children, tree_nodes(depth), [&](join_counter& join) {
    pool.get().spawn(shoal_tree_node(pool.get(), depth, join));
  });
}

// --- Asio ---------------------------------------------------------------------------------

void asio_tree_node(asio::io_context& io, int depth, join_counter& join) {
  if (depth == 0) {
    join.arrive();
    return;
  }
  for (int i = 0; i < tree_fanout; ++i) {
    asio::post(io, [&io, depth, &join] { asio_tree_node(io, depth - 1, join); });
  }
}

void fanout_flat_asio(benchmark::State& state) {
  running_io_context io(static_cast<int>(state.range(0)));
  run_fanouts(state, children, children + 1, [&](join_counter& join) {
    asio::post(io.get(), [&io, &join] {
      for (std::int64_t i = 0; i < children; ++i) asio::post(io.get(), [&join] { join.arrive(); });
    });
  });
}

void fanout_tree_asio(benchmark::State& state) {
  running_io_context io(static_cast<int>(state.range(0)));
  const int depth = tree_depth(children);
  run_fanouts(state, children, tree_nodes(depth), [&](join_counter& join) {
    asio::post(io.get(), [&io, depth, &join] { asio_tree_node(io.get(), depth, join); });
  });
}

void worker_counts(benchmark::internal::Benchmark* b) {
  b->ArgName("workers")->Arg(1)->Arg(2)->UseRealTime()->Unit(benchmark::kMillisecond);
}
BENCHMARK(fanout_flat_shoal)->Apply(worker_counts);
BENCHMARK(fanout_flat_asio)->Apply(worker_counts);
BENCHMARK(fanout_tree_shoal)->Apply(worker_counts);
BENCHMARK(fanout_tree_asio)->Apply(worker_counts);

}  // namespace

BENCHMARK_MAIN();
