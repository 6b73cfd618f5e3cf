// SPDX-License-Identifier: Apache-2.0
// bench/forkjoin/run.hpp: what the four fork/join programs share: a 2-worker (or argv) shoal
// thread_pool, one warm-up and one timed run of a task started from pool.schedule(), and the
// lines the runtime-benchmarks suite prints (duration in microseconds, peak RSS in KiB), so one
// script reads shoal's programs and the peers' alike. FORKJOIN_BOUND=1 runs both bound to worker
// 0 (schedule_on(0)): a bound chain's fork tree (docs/design/structured-concurrency.md).
#pragma once

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>

#include "shoal/frame_allocator.hpp"
#include "shoal/sync_wait.hpp"
#include "shoal/task.hpp"
#include "shoal/thread_pool.hpp"

namespace forkjoin {

inline long peak_rss_kib() {
  rusage usage{};
  return getrusage(RUSAGE_SELF, &usage) == 0 ? usage.ru_maxrss : -1;
}

// Runs `warmup` then `timed` (each a task factory) on a pool of `threads` workers; prints the
// suite's lines and returns 0.
template <class Warmup, class Timed>
int run(std::size_t threads, Warmup warmup, Timed timed) {
  std::printf("threads: %zu\n", threads);
  shoal::thread_pool pool({.workers = threads});
  pool.start();
  const bool bound = std::getenv("FORKJOIN_BOUND") != nullptr;
  auto body = [&]() -> shoal::task<long long> {
    if (bound) {
      co_await pool.schedule_on(0);
    } else {
      co_await pool.schedule();
    }
    co_await warmup();
    const auto start = std::chrono::steady_clock::now();
    co_await timed();
    co_return std::chrono::duration_cast<std::chrono::microseconds>(
        std::chrono::steady_clock::now() - start)
        .count();
  };
  const long long us = shoal::sync_wait(body());
  if (std::getenv("FORKJOIN_STATS") != nullptr) {  // the scheduler's and allocator's counters
    for (std::size_t k = 0; k < pool.size(); ++k) {
      const shoal::worker_stats s = pool.stats(k);
      auto frames = [&pool, k]() -> shoal::task<shoal::frame_allocator_stats> {
        co_await pool.schedule_on(k);
        co_return shoal::this_thread_frame_stats();
      };
      const shoal::frame_allocator_stats f = shoal::sync_wait(frames());
      std::printf(
          "worker %zu: resumed %llu, stolen %llu, parked %llu, frames %llu (%llu from "
          "the system)\n",
          k, static_cast<unsigned long long>(s.resumed), static_cast<unsigned long long>(s.stolen),
          static_cast<unsigned long long>(s.parked), static_cast<unsigned long long>(f.allocations),
          static_cast<unsigned long long>(f.system_allocations));
    }
  }
  shoal::sync_wait(pool.stop());
  std::printf("runs:\n  - iteration_count: 1\n    duration: %lld us\n    max_rss: %ld KiB\n", us,
              peak_rss_kib());
  return 0;
}

inline std::size_t threads_arg(int argc, char** argv, int index) {
  return argc > index ? static_cast<std::size_t>(std::atoi(argv[index])) : 2;
}

}  // namespace forkjoin
