// SPDX-License-Identifier: Apache-2.0
// bench/post_bench.cpp: posting work to a worker and resuming it, on one worker and across two.
//
// Round trip on one worker: one iteration is `co_await shoal::yield()` by the only task on a
// 1-worker pool: post the coroutine to the worker's ready queue, return to the worker loop, take
// it back and resume it. Measured unbound (`schedule()`: the stealable ring) and bound
// (`schedule_on(0)`: the worker's pinned queue).
// Baselines: a handler that asio::post()s itself again on an io_context run by one thread (the
// lightest Asio round trip), and an asio::awaitable looping on `co_await asio::post(...)`.
//
// Cross-worker wake-up: one iteration is a round trip worker 0 -> 1 -> 0 of a task moving with
// `co_await pool.schedule_on(k)` on a 2-worker pool; each hop's latency (clock before the
// co_await to clock after resuming on the other worker) is a sample, reported as p50_ns and
// p99_ns. The other worker is idle between hops, so this includes waking it (spin or futex).
// Baseline: a handler bouncing between two io_contexts, each run by its own thread, by
// asio::post, with the same samples.
//
// Counters: allocs/op (after warm-up), and the latency percentiles.
#include <benchmark/benchmark.h>
#include <asio.hpp>

#include <cstdint>
#include <semaphore>
#include <vector>

#include "shoal/clock.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/yield.hpp"
#include "support/alloc_counter.hpp"
#include "support/percentiles.hpp"
#include "support/running.hpp"

namespace {

using shoal::clock;
using shoal::bench::alloc_meter;
using shoal::bench::report_allocs;
using shoal::bench::running_io_context;
using shoal::bench::running_pool;

constexpr int warm_up_rounds = 100;

std::int64_t ns_between(clock::time_point from, clock::time_point to) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(to - from).count();
}

// --- Round trip on one worker -------------------------------------------------------------

shoal::task<> shoal_yield_loop(shoal::thread_pool& pool, benchmark::State& state, bool bound) {
  if (bound) {
    co_await pool.schedule_on(0);
  } else {
    co_await pool.schedule();
  }
  for (int i = 0; i < warm_up_rounds; ++i) co_await shoal::yield();
  const alloc_meter allocs;
  for (auto _ : state) co_await shoal::yield();
  report_allocs(state, allocs);
}

void post_shoal_yield(benchmark::State& state) {
  running_pool pool(1);
  shoal::sync_wait(shoal_yield_loop(pool.get(), state, state.range(0) != 0));
}
BENCHMARK(post_shoal_yield)->ArgName("bound")->Arg(0)->Arg(1)->UseRealTime();

// Re-posts itself while the benchmark runs; meters allocations once warmed up.
struct reposting_handler {
  asio::io_context* io;
  benchmark::State* state;
  alloc_meter* allocs;
  int warm_up;

  void operator()() {
    if (warm_up > 0) {
      if (--warm_up == 0) allocs->restart();
      asio::post(*io, *this);
    } else if (state->KeepRunning()) {
      asio::post(*io, *this);
    }
  }
};

void post_asio_handler(benchmark::State& state) {
  asio::io_context io(1);
  alloc_meter allocs;
  asio::post(io, reposting_handler{&io, &state, &allocs, warm_up_rounds});
  io.run();
  report_allocs(state, allocs);
}
BENCHMARK(post_asio_handler)->UseRealTime();

asio::awaitable<void> asio_post_loop(benchmark::State& state) {
  const auto ex = co_await asio::this_coro::executor;
  for (int i = 0; i < warm_up_rounds; ++i) co_await asio::post(ex, asio::use_awaitable);
  const alloc_meter allocs;
  for (auto _ : state) co_await asio::post(ex, asio::use_awaitable);
  report_allocs(state, allocs);
}

void post_asio_awaitable(benchmark::State& state) {
  asio::io_context io(1);
  asio::co_spawn(io, asio_post_loop(state), asio::detached);
  io.run();
}
BENCHMARK(post_asio_awaitable)->UseRealTime();

// --- Cross-worker wake-up latency ---------------------------------------------------------

shoal::task<> shoal_bounce(shoal::thread_pool& pool, benchmark::State& state,
                           std::vector<std::int64_t>& hops) {
  co_await pool.schedule_on(0);
  for (int i = 0; i < warm_up_rounds; ++i) {
    co_await pool.schedule_on(1);
    co_await pool.schedule_on(0);
  }
  const alloc_meter allocs;
  for (auto _ : state) {
    const auto t0 = clock::now();
    co_await pool.schedule_on(1);
    const auto t1 = clock::now();
    co_await pool.schedule_on(0);
    const auto t2 = clock::now();
    hops.push_back(ns_between(t0, t1));
    hops.push_back(ns_between(t1, t2));
  }
  report_allocs(state, allocs, 2.0 * static_cast<double>(state.iterations()));
}

void hop_shoal_schedule_on(benchmark::State& state) {
  std::vector<std::int64_t> hops;
  hops.reserve(2 * static_cast<std::size_t>(state.max_iterations));
  {
    running_pool pool(2);
    shoal::sync_wait(shoal_bounce(pool.get(), state, hops));
  }
  shoal::bench::report_percentiles(state, hops, "ns", 1.0);
}
BENCHMARK(hop_shoal_schedule_on)->UseRealTime();

// Bounces a handler between io_context a (which runs the benchmark loop) and b, recording the
// latency of every hop made while the loop runs.
class asio_bouncer {
 public:
  asio_bouncer(asio::io_context& a, asio::io_context& b, benchmark::State& state)
      : a_(&a), b_(&b), state_(&state) {
    hops_.reserve(2 * static_cast<std::size_t>(state.max_iterations));
  }

  // Starts on a; returns once the benchmark loop has finished.
  void run() {
    asio::post(*a_, [this] { on_a(clock::time_point{}); });
    done_.acquire();
  }

  std::vector<std::int64_t>& hops() noexcept { return hops_; }
  const alloc_meter& allocs() const noexcept { return allocs_; }

 private:
  // On a: record the hop from b, then start the next round trip or finish.
  void on_a(clock::time_point sent_from_b) {
    if (measuring_) hops_.push_back(ns_between(sent_from_b, clock::now()));
    if (!next_round()) {
      done_.release();
      return;
    }
    asio::post(*b_, [this, sent = clock::now()] { on_b(sent); });
  }
  void on_b(clock::time_point sent_from_a) {
    if (measuring_) hops_.push_back(ns_between(sent_from_a, clock::now()));
    asio::post(*a_, [this, sent = clock::now()] { on_a(sent); });
  }
  bool next_round() {
    if (warm_up_ > 0) {
      --warm_up_;
      return true;
    }
    if (!measuring_) {
      measuring_ = true;
      allocs_.restart();
    }
    measuring_ = state_->KeepRunning();
    return measuring_;
  }

  asio::io_context* a_;
  asio::io_context* b_;
  benchmark::State* state_;
  std::vector<std::int64_t> hops_;
  alloc_meter allocs_;
  int warm_up_ = warm_up_rounds;
  bool measuring_ = false;  // touched by a and b in turn, ordered by the posts
  std::binary_semaphore done_{0};
};

void hop_asio_post(benchmark::State& state) {
  running_io_context a(1);
  running_io_context b(1);
  asio_bouncer bouncer(a.get(), b.get(), state);
  bouncer.run();
  report_allocs(state, bouncer.allocs(), 2.0 * static_cast<double>(state.iterations()));
  shoal::bench::report_percentiles(state, bouncer.hops(), "ns", 1.0);
}
BENCHMARK(hop_asio_post)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
