// SPDX-License-Identifier: Apache-2.0
// bench/timer_bench.cpp: timers: schedule+cancel throughput, and lateness under a million sleepers.
//
// Schedule+cancel: one iteration arms a timer and disarms it, with `pending` other timers
// already queued (10^4 and 10^6). shoal: timer_heap::push then erase on the per-worker heap,
// deadline now() + d as sleep_for computes it. Baseline: asio::steady_timer expires_after(d) +
// async_wait + cancel on an io_context that is not run; poll() every 256 iterations completes
// the cancelled handlers (with operation_aborted), as a running io_context would, so they do not
// pile up. Deadlines of every timer are uniform over an hour starting an hour from now, so none
// fires and the new timer lands anywhere in the heap.
//
// Lateness: `sleepers` coroutines (10^6; 10^4 in the smoke run) spawned on a 2-worker pool from
// the benchmark thread, each sleeping until a random deadline; lateness = time it resumed -
// deadline, reported as p50_us, p99_us and max_us over all sleepers, plus "early" (sleepers
// resumed before their deadline: must be 0) and spawn_ms (the spawning loop). after_spawn:0 is
// the plain case: each deadline is [0, 2 s) after the sleeper starts, so the first ones fall due
// while the rest are still being spawned. after_spawn:1 counts every deadline from one time 1 s
// after spawning began ([1 s, 3 s)), so timers fire once all are armed (if spawn_ms < 1000): it
// measures the timers alone. One iteration each: they take seconds.
// Baseline: the same with asio::awaitable sleepers (steady_timer + async_wait(use_awaitable))
// on an io_context run by 2 threads.
#include <benchmark/benchmark.h>
#include <asio.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <vector>

#include "shoal/clock.hpp"
#include "shoal/detail/timer_heap.hpp"
#include "shoal/detail/timer_node.hpp"
#include "shoal/sleep.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "support/alloc_counter.hpp"
#include "support/join_counter.hpp"
#include "support/percentiles.hpp"
#include "support/running.hpp"
#include "support/smoke.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::clock;
using shoal::bench::alloc_meter;
using shoal::bench::join_counter;
using shoal::bench::report_allocs;
using shoal::bench::running_io_context;
using shoal::bench::running_pool;

const std::int64_t sleepers = shoal::bench::full_or_smoke<std::int64_t>(1'000'000, 10'000);
const shoal::duration sleep_window = shoal::bench::full_or_smoke<shoal::duration>(2s, 200ms);
const shoal::duration spawn_head_start = shoal::bench::full_or_smoke<shoal::duration>(1s, 100ms);

// `n` durations uniform in [0, window), the same on every run.
std::vector<shoal::duration> random_durations(std::size_t n, shoal::duration window) {
  std::mt19937_64 rng(20261120);
  std::uniform_int_distribution<shoal::duration::rep> pick(0, window.count() - 1);
  std::vector<shoal::duration> out(n);
  for (shoal::duration& d : out) d = shoal::duration(pick(rng));
  return out;
}

std::int64_t ns_between(clock::time_point from, clock::time_point to) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count();
}

// --- Schedule + cancel --------------------------------------------------------------------

constexpr shoal::duration far_away = 1h;       // no timer of these benchmarks ever fires
constexpr std::size_t fresh_deadlines = 4096;  // deadlines the measured timer cycles through
constexpr std::size_t asio_poll_interval = 256;

void timer_shoal_push_erase(benchmark::State& state) {
  const auto pending = static_cast<std::size_t>(state.range(0));
  const auto offsets = random_durations(pending + fresh_deadlines, 1h);
  const auto base = clock::now() + far_away;
  std::vector<shoal::detail::timer_node> others(pending);
  shoal::detail::timer_heap heap;
  for (std::size_t i = 0; i < pending; ++i) {
    others[i].deadline = base + offsets[i];
    heap.push(others[i]);
  }
  shoal::detail::timer_node timer;
  const alloc_meter allocs;
  std::size_t i = 0;
  for (auto _ : state) {
    timer.deadline = clock::now() + far_away + offsets[pending + i++ % fresh_deadlines];
    heap.push(timer);
    benchmark::DoNotOptimize(heap.erase(timer));
  }
  report_allocs(state, allocs);
}

void timer_asio_wait_cancel(benchmark::State& state) {
  const auto pending = static_cast<std::size_t>(state.range(0));
  const auto offsets = random_durations(pending + fresh_deadlines, 1h);
  const auto base = clock::now() + far_away;
  const auto ignore = [](const std::error_code&) {};
  asio::io_context io(1);
  const auto guard = asio::make_work_guard(io);
  std::vector<asio::steady_timer> others;
  others.reserve(pending);
  for (std::size_t i = 0; i < pending; ++i) {
    others.emplace_back(io, base + offsets[i]);
    others.back().async_wait(ignore);
  }
  asio::steady_timer timer(io);
  const alloc_meter allocs;
  std::size_t i = 0;
  for (auto _ : state) {
    timer.expires_after(far_away + offsets[pending + i % fresh_deadlines]);
    timer.async_wait(ignore);
    timer.cancel();
    if (++i % asio_poll_interval == 0) io.poll();
  }
  io.poll();
  report_allocs(state, allocs);
}

void pending_timers(benchmark::internal::Benchmark* b) {
  b->ArgName("pending");
  for (std::int64_t n :
       shoal::bench::full_or_smoke<std::vector<std::int64_t>>({10'000, 1'000'000}, {100, 10'000})) {
    b->Arg(n);
  }
}
BENCHMARK(timer_shoal_push_erase)->Apply(pending_timers);
BENCHMARK(timer_asio_wait_cancel)->Apply(pending_timers);

// --- Lateness -----------------------------------------------------------------------------

// Where a sleeper's deadline is counted from: its own start (`common_start` unset), or one time
// shared by all sleepers, far enough ahead that every sleeper is armed before the first is due.
struct deadline_origin {
  clock::time_point common_start{};

  [[nodiscard]] clock::time_point deadline_after(shoal::duration d) const {
    return (common_start == clock::time_point{} ? clock::now() : common_start) + d;
  }
};

// Runs `spawn_all(origin, join)` once per iteration; reports the lateness percentiles (us),
// early wake-ups, how long spawning took (spawn_ms), and allocations per sleeper.
template <class SpawnAll>
void run_sleepers(benchmark::State& state, std::vector<std::int64_t>& lateness,
                  SpawnAll spawn_all) {
  const bool after_spawn = state.range(1) != 0;
  join_counter join;
  const alloc_meter allocs;
  for (auto _ : state) {
    join.reset(state.range(0));
    const auto start = clock::now();
    spawn_all(deadline_origin{after_spawn ? start + spawn_head_start : clock::time_point{}}, join);
    state.counters["spawn_ms"] = static_cast<double>(ns_between(start, clock::now())) / 1e6;
    join.wait();
  }
  const auto early =
      std::count_if(lateness.begin(), lateness.end(), [](auto ns) { return ns < 0; });
  state.counters["early"] = static_cast<double>(early);
  report_allocs(state, allocs,
                static_cast<double>(lateness.size()) * static_cast<double>(state.iterations()));
  shoal::bench::report_percentiles(state, lateness, "us", 1000.0);
}

shoal::task<> shoal_sleeper(deadline_origin origin, shoal::duration d, std::int64_t& lateness,
                            join_counter& join) {
  const shoal::time_point deadline = origin.deadline_after(d);
  co_await shoal::sleep_until(deadline);
  lateness = ns_between(deadline, clock::now());
  join.arrive();
}

void lateness_shoal_sleep(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto durations = random_durations(n, sleep_window);
  std::vector<std::int64_t> lateness(n);
  running_pool pool(2);
  run_sleepers(state, lateness, [&](deadline_origin origin, join_counter& join) {
    for (std::size_t i = 0; i < n; ++i) {
      pool.get().spawn(shoal_sleeper(origin, durations[i], lateness[i], join));
    }
  });
}

asio::awaitable<void> asio_sleeper(deadline_origin origin, shoal::duration d,
                                   std::int64_t& lateness, join_counter& join) {
  const clock::time_point deadline = origin.deadline_after(d);
  asio::steady_timer timer(co_await asio::this_coro::executor, deadline);
  co_await timer.async_wait(asio::use_awaitable);
  lateness = ns_between(deadline, clock::now());
  join.arrive();
}

void lateness_asio_timer(benchmark::State& state) {
  const auto n = static_cast<std::size_t>(state.range(0));
  const auto durations = random_durations(n, sleep_window);
  std::vector<std::int64_t> lateness(n);
  running_io_context io(2);
  run_sleepers(state, lateness, [&](deadline_origin origin, join_counter& join) {
    for (std::size_t i = 0; i < n; ++i) {
      asio::co_spawn(io.get(), asio_sleeper(origin, durations[i], lateness[i], join),
                     asio::detached);
    }
  });
}

void sleeper_count(benchmark::internal::Benchmark* b) {
  b->ArgNames({"sleepers", "after_spawn"})
      ->Args({sleepers, 0})
      ->Args({sleepers, 1})
      ->Iterations(1)
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}
BENCHMARK(lateness_shoal_sleep)->Apply(sleeper_count);
BENCHMARK(lateness_asio_timer)->Apply(sleeper_count);

}  // namespace

BENCHMARK_MAIN();
