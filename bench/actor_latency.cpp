// SPDX-License-Identifier: Apache-2.0
// bench/actor_latency.cpp: coroactors' actor latency program
// (github snaury/coroactors, src/benchmarks/benchmark_actor_latency.cpp) written with shoal, so
// that scripts/actors-peers.sh runs both on the same command line and reads the same last line.
//
// What one run is: P pingers and P pingables (or --pingers / --pingables apart; pinger i calls
// pingable i % pingables), each an actor with its own context. A pingable's ping() enters its
// context, increments its counter and returns it; a pinger's run() enters its own context and
// calls ping() `count / pingers` times in a row, checking that every answer is larger than the
// one before. First a warm-up: pinger 0 alone, count / pingers / 100 calls. Then every pinger is
// started at once on a thread_pool of T workers and the program waits for all of them.
// Latency: each pinger reads the clock after every call; the longest single call of any pinger
// (the first one measured from the common start, as coroactors does) is "max latency".
// Printed: coroactors' line, "Finished in <ms>ms (<round trips per second>/s), max latency =
// <us>us", then the process's CPU time and round trips per CPU-second (this machine is shared;
// that figure is the steadier one), and the max latency split in two: the longest wait from the
// start to a pinger's first call, and the longest single call after that.
//
// --std-mutex runs the same loop with the pingable a plain function under std::mutex and the
// pinger a plain task (no actor, no suspension at all): its max latency is what the operating
// system's time slices alone give on this machine. --stats prints each worker's counters.
//
// Usage: actor_latency [-t threads] [-p pairs] [--pingers N] [--pingables N] [-c count]
//                      [--without-latencies] [--std-mutex] [--stats]
//   (issue 30's row: -t 2 -p 2048 -c 10000000)
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "shoal/actor.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"
#include "support/join_counter.hpp"

namespace {

using clock_type = std::chrono::steady_clock;
using std::chrono::microseconds;

struct options {
  std::size_t threads = 1;
  std::size_t pingers = 1;
  std::size_t pingables = 1;
  long long count = 10'000'000;
  bool latencies = true;
  bool std_mutex = false;
  bool stats = false;
};

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "ERROR: %s\n", what);
  std::exit(1);
}

// The answers of one pingable must grow: anything else is a lost or repeated call.
void check_order(int value, int& last) {
  if (value <= last) fail("a ping answered out of order");
  last = value;
}

microseconds since(clock_type::time_point from, clock_type::time_point to) {
  return std::chrono::duration_cast<microseconds>(to - from);
}

// What one pinger measured: the wait from the common start to its first call, and its longest
// call after that (coroactors reports the larger of the two).
struct run_result {
  microseconds start_wait{};
  microseconds worst_call{};
  [[nodiscard]] microseconds worst() const { return std::max(start_wait, worst_call); }
};

class pingable {
 public:
  shoal::actor_task<int> ping() {
    co_await ctx_();
    co_return ++counter_;
  }
  int ping_locked() {
    const std::lock_guard lock(mutex_);
    return ++counter_;
  }

 private:
  shoal::actor_context ctx_;
  std::mutex mutex_;
  int counter_ = 0;
};

class pinger {
 public:
  explicit pinger(pingable& target) : target_(&target) {}

  // `count` calls and what they took (nothing measured without latencies).
  shoal::actor_task<run_result> run(long long count, clock_type::time_point start, bool latencies) {
    co_await ctx_();
    int last = 0;
    if (!latencies) {
      for (long long i = 0; i < count; ++i) check_order(co_await target_->ping(), last);
      co_return run_result{};
    }
    clock_type::time_point end = clock_type::now();
    run_result r{.start_wait = since(start, end)};
    for (long long i = 0; i < count; ++i) {
      const clock_type::time_point call_start = end;
      check_order(co_await target_->ping(), last);
      end = clock_type::now();
      r.worst_call = std::max(r.worst_call, since(call_start, end));
    }
    co_return r;
  }

  // The same loop without actors: a plain call under the pingable's std::mutex.
  shoal::task<run_result> run_locked(long long count, clock_type::time_point start) {
    int last = 0;
    clock_type::time_point end = clock_type::now();
    run_result r{.start_wait = since(start, end)};
    for (long long i = 0; i < count; ++i) {
      const clock_type::time_point call_start = end;
      check_order(target_->ping_locked(), last);
      end = clock_type::now();
      r.worst_call = std::max(r.worst_call, since(call_start, end));
    }
    co_return r;
  }

 private:
  shoal::actor_context ctx_;
  pingable* target_;
};

// One pinger's run, its result stored and its end counted: what coroactors' run_sync detaches.
shoal::task<> run_one(pinger& p, long long count, clock_type::time_point start, const options& opt,
                      run_result& result, shoal::bench::join_counter& join) {
  if (opt.std_mutex) {
    result = co_await p.run_locked(count, start);
  } else {
    result = co_await p.run(count, start, opt.latencies);
  }
  join.arrive();
}

// Starts the first `n` pingers with `count` calls each and waits for all; what each measured.
std::vector<run_result> run_all(shoal::thread_pool& pool, std::deque<pinger>& pingers,
                                std::size_t n, long long count, const options& opt,
                                clock_type::time_point start) {
  std::vector<run_result> results(n);
  shoal::bench::join_counter join;
  join.reset(static_cast<std::int64_t>(n));
  for (std::size_t i = 0; i < n; ++i) {
    pool.spawn(run_one(pingers[i], count, start, opt, results[i], join));
  }
  join.wait();
  return results;
}

double process_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

void print_stats(shoal::thread_pool& pool) {
  for (std::size_t k = 0; k < pool.size(); ++k) {
    const shoal::worker_stats s = pool.stats(k);
    std::printf("worker %zu: resumed %llu, stolen %llu, parked %llu\n", k,
                static_cast<unsigned long long>(s.resumed),
                static_cast<unsigned long long>(s.stolen),
                static_cast<unsigned long long>(s.parked));
  }
}

std::size_t positive(const char* text, const char* flag) {
  const long long v = std::atoll(text);
  if (v <= 0) {
    std::fprintf(stderr, "ERROR: %s expects a positive number, got '%s'\n", flag, text);
    std::exit(2);
  }
  return static_cast<std::size_t>(v);
}

options parse(int argc, char** argv) {
  options opt;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if ((arg == "-t" || arg == "--threads") && has_value) {
      opt.threads = positive(argv[++i], "--threads");
    } else if (arg == "-p" && has_value) {
      opt.pingers = opt.pingables = positive(argv[++i], "-p");
    } else if (arg == "--pingers" && has_value) {
      opt.pingers = positive(argv[++i], "--pingers");
    } else if (arg == "--pingables" && has_value) {
      opt.pingables = positive(argv[++i], "--pingables");
    } else if ((arg == "-c" || arg == "--count") && has_value) {
      opt.count = static_cast<long long>(positive(argv[++i], "--count"));
    } else if (arg == "--without-latencies") {
      opt.latencies = false;
    } else if (arg == "--std-mutex") {
      opt.std_mutex = true;
    } else if (arg == "--stats") {
      opt.stats = true;
    } else {
      std::fprintf(stderr, "ERROR: unexpected argument: %s (see the program's header)\n", argv[i]);
      std::exit(2);
    }
  }
  return opt;
}

}  // namespace

int main(int argc, char** argv) {
  const options opt = parse(argc, argv);
  shoal::thread_pool pool({.workers = opt.threads});
  pool.start();
  std::deque<pingable> pingables(opt.pingables);
  std::deque<pinger> pingers;
  for (std::size_t i = 0; i < opt.pingers; ++i) pingers.emplace_back(pingables[i % opt.pingables]);
  const auto n = static_cast<long long>(opt.pingers);

  std::printf("Warming up...\n");
  run_all(pool, pingers, 1, std::max(1LL, opt.count / n / 100), opt, clock_type::now());

  std::printf("Starting...\n");
  const double cpu_start = process_cpu_seconds();
  const clock_type::time_point start = clock_type::now();
  const std::vector<run_result> runs =
      run_all(pool, pingers, opt.pingers, opt.count / n, opt, start);
  const microseconds elapsed = since(start, clock_type::now());
  const double cpu = process_cpu_seconds() - cpu_start;

  microseconds max_latency{};
  microseconds max_start_wait{};
  microseconds max_call{};
  for (const run_result& r : runs) {
    max_latency = std::max(max_latency, r.worst());
    max_start_wait = std::max(max_start_wait, r.start_wait);
    max_call = std::max(max_call, r.worst_call);
  }
  const long long total = opt.count / n * n;
  std::printf("Finished in %lldms (%lld/s), max latency = %lldus\n",
              static_cast<long long>(elapsed.count() / 1000),
              total * 1'000'000LL / std::max<long long>(1, elapsed.count()),
              static_cast<long long>(max_latency.count()));
  std::printf(
      "CPU %.0fms (%.0f/s per CPU-second); longest wait to start %lldus, longest call "
      "after it %lldus\n",
      cpu * 1e3, static_cast<double>(total) / cpu, static_cast<long long>(max_start_wait.count()),
      static_cast<long long>(max_call.count()));
  if (opt.stats) print_stats(pool);
  shoal::sync_wait(pool.stop());
  return 0;
}
