// SPDX-License-Identifier: Apache-2.0
// bench/actor_bench.cpp: actors against async_mutex and std::mutex, ports of coroactors'
// ping-pong (benchmark_actor_latency) and its uncontended call (benchmark_actor).
//
// ping/<case>/<system>: one iteration is a batch of round trips: each pinger calls ping() on its
// pingable `round_trips / pingers` times in a row, and ping() increments the pingable's counter
// and returns it. A pingable is state isolated three ways:
//   shoal_actor  an actor (its own actor_context); the pinger is an actor too, so each round trip
//                leaves the pinger's context, enters the pingable's and comes back;
//   async_mutex  a task<int64_t> that takes an async_mutex around the increment; the pinger is
//                a task awaiting it;
//   std_mutex    a plain function under std::mutex, called by a pinger task (no await at all).
// Pingers are spawned on a thread_pool per batch. Cases: pair1_workers1 (one pinger, its own
// pingable, 1 worker), pairs2048_workers2 (2048 such pairs, 2 workers), contendedN (N pingers
// sharing one pingable, 2 workers; N = 1, 2, 4, 16, 64).
// Counters: rps, round trips per second of wall time; max_latency_us, the longest any pinger
// took over 16 consecutive round trips (each pinger reads the clock every 16th call, so the
// figure bounds the slowest single call from above, overstating it by at most 15 ordinary round
// trips); rps_cpu, round trips per second of CPU time of the whole process (every worker,
// spinning included: on a shared machine where the pool gets a fraction of the cores, this is
// the steadier figure); allocs/op per round trip.
//
// call/uncontended/<system>: one iteration is one call from a task run by sync_wait, nothing
// else running: `co_await pingable.ping()` on an actor whose context is free, the same through
// the async_mutex task, and a plain call under std::mutex.
#include <benchmark/benchmark.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "shoal/actor.hpp"
#include "shoal/async_mutex.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "support/alloc_counter.hpp"
#include "support/join_counter.hpp"
#include "support/running.hpp"
#include "support/smoke.hpp"

namespace {

using shoal::actor_task;
using shoal::task;
using shoal::bench::alloc_meter;
using shoal::bench::join_counter;
using shoal::bench::report_allocs;
using shoal::bench::running_pool;
using steady = std::chrono::steady_clock;

const std::int64_t round_trips = shoal::bench::full_or_smoke<std::int64_t>(2'000'000, 4'096);
constexpr std::int64_t probe_every = 16;

// The slowest stretch of `probe_every` round trips one pinger saw. Touched by its pinger only.
class latency_probe {
 public:
  void start() noexcept {
    last_ = steady::now();
    worst_ = {};
  }
  void tick(std::int64_t i) noexcept {
    if (i % probe_every != 0) return;
    const steady::time_point now = steady::now();
    worst_ = std::max(worst_, now - last_);
    last_ = now;
  }
  [[nodiscard]] steady::duration worst() const noexcept { return worst_; }

 private:
  steady::time_point last_;
  steady::duration worst_{};
};

// CPU time used so far by every thread of this process.
std::chrono::duration<double> process_cpu_time() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return std::chrono::seconds(ts.tv_sec) + std::chrono::nanoseconds(ts.tv_nsec);
}

// --- The three systems --------------------------------------------------------------------

struct shoal_actor {
  class pingable {
   public:
    actor_task<std::int64_t> ping() {
      co_await ctx_();
      co_return ++count_;
    }

   private:
    shoal::actor_context ctx_;
    std::int64_t count_ = 0;
  };
  class pinger {
   public:
    actor_task<> run(pingable& target, std::int64_t calls) {
      co_await ctx_();
      probe.start();
      for (std::int64_t i = 1; i <= calls; ++i) {
        benchmark::DoNotOptimize(co_await target.ping());
        probe.tick(i);
      }
    }
    latency_probe probe;

   private:
    shoal::actor_context ctx_;
  };
  static task<> run(pinger& p, pingable& target, std::int64_t calls, join_counter& join) {
    co_await p.run(target, calls);
    join.arrive();
  }
};

struct async_mutex {
  class pingable {
   public:
    task<std::int64_t> ping() {
      co_await mutex_.lock();
      const std::int64_t value = ++count_;
      mutex_.unlock();
      co_return value;
    }

   private:
    shoal::async_mutex mutex_;
    std::int64_t count_ = 0;
  };
  struct pinger {
    latency_probe probe;
  };
  static task<> run(pinger& p, pingable& target, std::int64_t calls, join_counter& join) {
    p.probe.start();
    for (std::int64_t i = 1; i <= calls; ++i) {
      benchmark::DoNotOptimize(co_await target.ping());
      p.probe.tick(i);
    }
    join.arrive();
  }
};

struct std_mutex {
  class pingable {
   public:
    std::int64_t ping() {
      const std::lock_guard lock(mutex_);
      return ++count_;
    }

   private:
    std::mutex mutex_;
    std::int64_t count_ = 0;
  };
  struct pinger {
    latency_probe probe;
  };
  static task<> run(pinger& p, pingable& target, std::int64_t calls, join_counter& join) {
    p.probe.start();
    for (std::int64_t i = 1; i <= calls; ++i) {
      benchmark::DoNotOptimize(target.ping());
      p.probe.tick(i);
    }
    join.arrive();
    co_return;
  }
};

// --- ping/<case>/<system> -----------------------------------------------------------------

// `pingers` pingers on `workers` workers; `shared`: all call one pingable, else one each.
template <class System>
void ping(benchmark::State& state, std::size_t workers, std::size_t pingers, bool shared) {
  running_pool pool(workers);
  std::vector<typename System::pingable> pingables(shared ? 1 : pingers);
  std::vector<typename System::pinger> senders(pingers);
  const std::int64_t calls = std::max<std::int64_t>(1, round_trips / std::int64_t(pingers));
  join_counter join;
  steady::duration worst{};
  const alloc_meter allocs;
  const auto cpu_start = process_cpu_time();
  for (auto _ : state) {
    join.reset(static_cast<std::int64_t>(pingers));
    for (std::size_t i = 0; i < pingers; ++i) {
      pool.get().spawn(System::run(senders[i], pingables[shared ? 0 : i], calls, join));
    }
    join.wait();
    for (const auto& s : senders) worst = std::max(worst, s.probe.worst());
  }
  const double cpu_seconds = (process_cpu_time() - cpu_start).count();
  const auto total = static_cast<double>(calls * std::int64_t(pingers));
  state.counters["rps"] = benchmark::Counter(total, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["rps_cpu"] = total * static_cast<double>(state.iterations()) / cpu_seconds;
  state.counters["max_latency_us"] = std::chrono::duration<double, std::micro>(worst).count();
  report_allocs(state, allocs, total * static_cast<double>(state.iterations()));
}

struct ping_case {
  const char* name;
  std::size_t workers;
  std::size_t pingers;
  bool shared;
};

template <class System>
void register_ping(const ping_case& c, const char* system) {
  const std::string name = std::string("ping/") + c.name + "/" + system;
  benchmark::RegisterBenchmark(name.c_str(), [c](benchmark::State& state) {
    ping<System>(state, c.workers, c.pingers, c.shared);
  })->UseRealTime();
}

void register_pings() {
  const ping_case cases[] = {
      {"pair1_workers1", 1, 1, false}, {"pairs2048_workers2", 2, 2048, false},
      {"contended1", 2, 1, true},      {"contended2", 2, 2, true},
      {"contended4", 2, 4, true},      {"contended16", 2, 16, true},
      {"contended64", 2, 64, true},
  };
  for (const ping_case& c : cases) {
    register_ping<shoal_actor>(c, "shoal_actor");
    register_ping<async_mutex>(c, "async_mutex");
    register_ping<std_mutex>(c, "std_mutex");
  }
}

// --- call/uncontended/<system> ------------------------------------------------------------

task<> call_actor_loop(benchmark::State& state, shoal_actor::pingable& target) {
  const alloc_meter allocs;
  for (auto _ : state) benchmark::DoNotOptimize(co_await target.ping());
  report_allocs(state, allocs);
}

task<> call_mutex_loop(benchmark::State& state, async_mutex::pingable& target) {
  const alloc_meter allocs;
  for (auto _ : state) benchmark::DoNotOptimize(co_await target.ping());
  report_allocs(state, allocs);
}

void register_calls() {
  benchmark::RegisterBenchmark("call/uncontended/shoal_actor", [](benchmark::State& state) {
    shoal_actor::pingable target;
    shoal::sync_wait(call_actor_loop(state, target));
  });
  benchmark::RegisterBenchmark("call/uncontended/async_mutex", [](benchmark::State& state) {
    async_mutex::pingable target;
    shoal::sync_wait(call_mutex_loop(state, target));
  });
  benchmark::RegisterBenchmark("call/uncontended/std_mutex", [](benchmark::State& state) {
    std_mutex::pingable target;
    const alloc_meter allocs;
    for (auto _ : state) benchmark::DoNotOptimize(target.ping());
    report_allocs(state, allocs);
  });
}

}  // namespace

int main(int argc, char** argv) {
  register_pings();
  register_calls();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
