// SPDX-License-Identifier: Apache-2.0
// bench/sched_bench.cpp: the four task-scheduling benchmarks of asynqro (seed 003), over shoal,
// Boost.Asio's thread_pool and oneTBB, each system on the same jobs and the same number of worker
// threads (one per hardware thread), in one program.
//
// empty_avalanche/<system>/<jobs>: one iteration posts <jobs> empty jobs from the benchmark
//   thread (outside the pool) and waits until the last one has run. An empty job counts itself
//   down on a shared join (bench/support/join_counter.hpp), nothing else. Counter ns/job.
// timed_avalanche/<system>/<jobs>: the same, each job busy for ~0.1 ms (it spins on the clock).
//   Counter overhead_ns/job: (wall time - the sum of the payloads / workers) / jobs, asynqro's
//   "difference between total time and the payload divided by the cores".
// empty_repost/<system>/<chains>: one iteration starts <chains> chains from the benchmark thread;
//   each chain is a job that posts itself again from inside the pool until it has run
//   `repost_rounds` times, then arrives on the join. Counter ns/post (wall / all posts).
// timed_repost/<system>/<chains>: the same with the ~0.1 ms payload in each run, fewer rounds.
//   Counter overhead_ns/post as in timed_avalanche.
//
// What a job is, per system:
//   shoal: a coroutine. Avalanche: `pool.spawn(job())` (a task started detached: two frames,
//     the task, written by this thread, and its root, made by the worker that takes the task
//     from the global queue: docs/design/scheduler.md, "The entry path"). Repost: one coroutine
//     looping on `co_await shoal::yield()` (a re-post of the same coroutine to the pool, from its
//     worker).
//   asio: a lambda. `asio::post(pool, f)` on an asio::thread_pool; a reposting handler posts a
//     copy of itself.
//   tbb: a lambda in a tbb::task_arena with one slot per worker and none reserved for this
//     thread. Avalanche: `arena.enqueue(f)` (TBB's fire-and-forget from an outside thread).
//     Repost: `group.run(f)` from inside the arena (TBB's spawn into the worker's own deque,
//     its fastest path), the group waited on at the end of each iteration.
// shoal_future: the same jobs, each run by spawn_future (a job whose return fills a future,
//   dropped at once: asynqro's Tasks::run).
//
// Counters: ns/job or ns/post (wall time per job), cpu_ns/job or cpu_ns/post (CPU time of the
// whole process, every thread, per job: on a shared machine the steadier figure, since wall time
// also counts the moments other programs held the cores), allocs/op (operator new calls per
// job, all threads; TBB's own allocator is not counted, Asio's and shoal's are), and the
// overheads above.
#include <benchmark/benchmark.h>
#include <asio.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <string>
#include <thread>

#include "shoal/future_run.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "shoal/yield.hpp"
#include "support/alloc_counter.hpp"
#include "support/join_counter.hpp"
#include "support/running.hpp"
#include "support/smoke.hpp"

#if SHOAL_BENCH_HAVE_TBB
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/task_arena.h>
#include <oneapi/tbb/task_group.h>
#endif

namespace {

using shoal::bench::alloc_meter;
using shoal::bench::full_or_smoke;
using shoal::bench::join_counter;
using shoal::bench::running_pool;
using steady = std::chrono::steady_clock;

const std::int64_t repost_rounds = full_or_smoke<std::int64_t>(100'000, 200);
const std::int64_t timed_repost_rounds = full_or_smoke<std::int64_t>(1'000, 5);
const std::chrono::nanoseconds payload = full_or_smoke<std::chrono::nanoseconds>(
    std::chrono::microseconds(100), std::chrono::microseconds(10));

std::size_t workers() {
  const unsigned n = std::thread::hardware_concurrency();
  return n == 0 ? 1 : n;
}

// The ~0.1 ms payload: spins on the clock; adds the time it took to `total_ns`.
void run_payload(std::atomic<std::int64_t>& total_ns) {
  const auto start = steady::now();
  auto now = start;
  while (now - start < payload) now = steady::now();
  total_ns.fetch_add(std::chrono::duration_cast<std::chrono::nanoseconds>(now - start).count(),
                     std::memory_order_relaxed);
}

// CPU time consumed by every thread of this process so far.
std::int64_t process_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return std::int64_t{ts.tv_sec} * 1'000'000'000 + ts.tv_nsec;
}

// What one benchmark function measures: a join, the payload sum, the allocation meter.
struct run_context {
  join_counter join;
  std::atomic<std::int64_t> payload_ns{0};
  bool timed = false;
  std::int64_t rounds = 0;  // reposts per chain

  void job() {
    if (timed) run_payload(payload_ns);
  }
};

// Runs `one_iteration(ctx)` per iteration (posting and waiting for `arrivals`); reports the
// time per job and the allocations per job, and for timed runs the scheduling overhead.
template <class Iteration>
void measure(benchmark::State& state, run_context& ctx, std::int64_t arrivals, std::int64_t jobs,
             const char* per, Iteration one_iteration) {
  const alloc_meter allocs;
  const std::int64_t cpu_start = process_cpu_ns();
  std::int64_t wall_ns = 0;
  for (auto _ : state) {
    const auto start = steady::now();
    ctx.join.reset(arrivals);
    one_iteration(ctx);
    ctx.join.wait();
    wall_ns += std::chrono::duration_cast<std::chrono::nanoseconds>(steady::now() - start).count();
  }
  const double total_jobs = static_cast<double>(jobs) * static_cast<double>(state.iterations());
  shoal::bench::report_allocs(state, allocs, total_jobs);
  state.counters[std::string("ns/") + per] = static_cast<double>(wall_ns) / total_jobs;
  state.counters[std::string("cpu_ns/") + per] =
      static_cast<double>(process_cpu_ns() - cpu_start) / total_jobs;
  if (ctx.timed) {
    const double payload_per_worker =
        static_cast<double>(ctx.payload_ns.load()) / static_cast<double>(workers());
    state.counters[std::string("overhead_ns/") + per] =
        (static_cast<double>(wall_ns) - payload_per_worker) / total_jobs;
  }
}

// --- shoal ----------------------------------------------------------------------------------

shoal::task<> shoal_job(run_context& ctx) {
  ctx.job();
  ctx.join.arrive();
  co_return;
}

shoal::task<> shoal_chain(run_context& ctx) {
  for (std::int64_t i = 1; i < ctx.rounds; ++i) {
    ctx.job();
    co_await shoal::yield();
  }
  ctx.job();
  ctx.join.arrive();
}

void avalanche_shoal(benchmark::State& state, bool timed) {
  running_pool pool(workers());
  run_context ctx;
  ctx.timed = timed;
  const std::int64_t jobs = state.range(0);
  measure(state, ctx, jobs, jobs, "job", [&](run_context& c) {
    for (std::int64_t i = 0; i < jobs; ++i) pool.get().spawn(shoal_job(c));
  });
}

void repost_shoal(benchmark::State& state, bool timed) {
  running_pool pool(workers());
  run_context ctx;
  ctx.timed = timed;
  ctx.rounds = timed ? timed_repost_rounds : repost_rounds;
  const std::int64_t chains = state.range(0);
  measure(state, ctx, chains, chains * ctx.rounds, "post", [&](run_context& c) {
    for (std::int64_t i = 0; i < chains; ++i) pool.get().spawn(shoal_chain(c));
  });
}

// --- shoal_future ---------------------------------------------------------------------------
// The same jobs, each run by spawn_future: a job whose return fills a future (asynqro's
// Tasks::run). The futures are dropped at once, as asynqro's benchmark drops them.

void avalanche_shoal_future(benchmark::State& state, bool timed) {
  running_pool pool(workers());
  run_context ctx;
  ctx.timed = timed;
  const std::int64_t jobs = state.range(0);
  measure(state, ctx, jobs, jobs, "job", [&](run_context& c) {
    for (std::int64_t i = 0; i < jobs; ++i) {
      static_cast<void>(shoal::spawn_future(pool.get(), [&c] {
        c.job();
        c.join.arrive();
        return 0;
      }));
    }
  });
}

// One round of a chain: the job, then the next round as a new future job.
void future_round(shoal::thread_pool& pool, run_context& c, std::int64_t left) {
  c.job();
  if (left == 1) {
    c.join.arrive();
    return;
  }
  static_cast<void>(shoal::spawn_future(pool, [&pool, &c, left] {
    future_round(pool, c, left - 1);
    return 0;
  }));
}

void repost_shoal_future(benchmark::State& state, bool timed) {
  running_pool pool(workers());
  run_context ctx;
  ctx.timed = timed;
  ctx.rounds = timed ? timed_repost_rounds : repost_rounds;
  const std::int64_t chains = state.range(0);
  measure(state, ctx, chains, chains * ctx.rounds, "post", [&](run_context& c) {
    for (std::int64_t i = 0; i < chains; ++i) {
      static_cast<void>(shoal::spawn_future(pool.get(), [&pool, &c] {
        future_round(pool.get(), c, c.rounds);
        return 0;
      }));
    }
  });
}

// --- end of shoal_future --------------------------------------------------------------------

// --- Asio -----------------------------------------------------------------------------------

struct asio_reposter {
  asio::thread_pool* pool;
  run_context* ctx;
  std::int64_t left;

  void operator()() {
    ctx->job();
    if (--left == 0) {
      ctx->join.arrive();
      return;
    }
    asio::post(*pool, *this);
  }
};

void avalanche_asio(benchmark::State& state, bool timed) {
  asio::thread_pool pool(workers());
  run_context ctx;
  ctx.timed = timed;
  const std::int64_t jobs = state.range(0);
  measure(state, ctx, jobs, jobs, "job", [&](run_context& c) {
    for (std::int64_t i = 0; i < jobs; ++i) {
      asio::post(pool, [&c] {
        c.job();
        c.join.arrive();
      });
    }
  });
  pool.join();
}

void repost_asio(benchmark::State& state, bool timed) {
  asio::thread_pool pool(workers());
  run_context ctx;
  ctx.timed = timed;
  ctx.rounds = timed ? timed_repost_rounds : repost_rounds;
  const std::int64_t chains = state.range(0);
  measure(state, ctx, chains, chains * ctx.rounds, "post", [&](run_context& c) {
    for (std::int64_t i = 0; i < chains; ++i) asio::post(pool, asio_reposter{&pool, &c, c.rounds});
  });
  pool.join();
}

// --- oneTBB ---------------------------------------------------------------------------------

#if SHOAL_BENCH_HAVE_TBB

// `workers()` worker threads in an arena none of whose slots is reserved for this thread: TBB
// creates hardware_concurrency - 1 workers unless told otherwise, so it is told.
class tbb_pool {
 public:
  tbb_pool()
      : limit_(tbb::global_control::max_allowed_parallelism, workers() + 1),
        arena_(static_cast<int>(workers()), 0) {}
  tbb::task_arena& arena() noexcept { return arena_; }

 private:
  tbb::global_control limit_;
  tbb::task_arena arena_;
};

struct tbb_reposter {
  tbb::task_group* group;
  run_context* ctx;
  std::int64_t left;

  void operator()() const {
    ctx->job();
    if (left == 1) {
      ctx->join.arrive();
      return;
    }
    group->run(tbb_reposter{group, ctx, left - 1});
  }
};

void avalanche_tbb(benchmark::State& state, bool timed) {
  tbb_pool pool;
  run_context ctx;
  ctx.timed = timed;
  const std::int64_t jobs = state.range(0);
  measure(state, ctx, jobs, jobs, "job", [&](run_context& c) {
    for (std::int64_t i = 0; i < jobs; ++i) {
      pool.arena().enqueue([&c] {
        c.job();
        c.join.arrive();
      });
    }
  });
}

void repost_tbb(benchmark::State& state, bool timed) {
  tbb_pool pool;
  run_context ctx;
  ctx.timed = timed;
  ctx.rounds = timed ? timed_repost_rounds : repost_rounds;
  const std::int64_t chains = state.range(0);
  tbb::task_group group;
  measure(state, ctx, chains, chains * ctx.rounds, "post", [&](run_context& c) {
    for (std::int64_t i = 0; i < chains; ++i) {
      pool.arena().enqueue([&group, &c] { group.run(tbb_reposter{&group, &c, c.rounds}); });
    }
  });
  pool.arena().execute([&group] { group.wait(); });  // every job has run: returns at once
}

#endif

// --- registration ---------------------------------------------------------------------------

void avalanche_sizes(benchmark::internal::Benchmark* b) {
  b->UseRealTime()->Unit(benchmark::kMillisecond);
  if (shoal::bench::smoke_mode()) {
    b->Arg(1'000);
  } else {
    b->Arg(10'000)->Arg(100'000)->Arg(1'000'000);
  }
}
void timed_avalanche_sizes(benchmark::internal::Benchmark* b) {
  b->UseRealTime()->Unit(benchmark::kMillisecond);
  if (shoal::bench::smoke_mode()) {
    b->Arg(50);
  } else {
    b->Arg(10'000)->Arg(100'000);
  }
}
void chain_counts(benchmark::internal::Benchmark* b) {
  b->UseRealTime()->Unit(benchmark::kMillisecond);
  for (const int chains : {1, 2, 4, 8, 16}) b->Arg(chains);
}

template <class Run>
void register_four(const char* system, Run avalanche, Run repost) {
  const std::string s(system);
  benchmark::RegisterBenchmark(("empty_avalanche/" + s).c_str(), [avalanche](benchmark::State& st) {
    avalanche(st, false);
  })->Apply(avalanche_sizes);
  benchmark::RegisterBenchmark(("timed_avalanche/" + s).c_str(), [avalanche](benchmark::State& st) {
    avalanche(st, true);
  })->Apply(timed_avalanche_sizes);
  benchmark::RegisterBenchmark(("empty_repost/" + s).c_str(), [repost](benchmark::State& st) {
    repost(st, false);
  })->Apply(chain_counts);
  benchmark::RegisterBenchmark(("timed_repost/" + s).c_str(), [repost](benchmark::State& st) {
    repost(st, true);
  })->Apply(chain_counts);
}

}  // namespace

int main(int argc, char** argv) {
  using run = void (*)(benchmark::State&, bool);
  register_four<run>("shoal", avalanche_shoal, repost_shoal);
  register_four<run>("shoal_future", avalanche_shoal_future, repost_shoal_future);
  register_four<run>("asio", avalanche_asio, repost_asio);
#if SHOAL_BENCH_HAVE_TBB
  register_four<run>("tbb", avalanche_tbb, repost_tbb);
#endif
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
