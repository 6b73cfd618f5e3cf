// SPDX-License-Identifier: Apache-2.0
// 04_terminals: ten thousand TPC-C-shaped terminals, each a coroutine bound to its worker.
//
// Shows: `pool.spawn_on(k, terminal(...))` binds each terminal to worker k for its whole life;
// each loops keying time (sleep) -> transaction (here a counter: NO DATABASE) -> think time
// (negative exponential, truncated at 10x its mean, TPC-C 5.2.5.4), with TPC-C's New-Order
// times divided by 1000. No thread blocks in a sleep. Prints how late the sleeps woke
// (p50/p99/max); checks that none woke early and none resumed off its worker. The client's
// cost at full size, with the real transactions on a simulated database: scripts/capacity.sh.
#include <shoal/clock.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <latch>
#include <random>
#include <vector>

#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::duration;

struct worker_log {  // one per worker, written only by the terminals bound to it
  std::vector<duration> lateness;
  int off_home = 0;
};

// Sleeps for `d` on worker k, noting how late it woke and whether it is still on worker k.
shoal::task<void> sleep(shoal::thread_pool& pool, std::size_t k, worker_log& log, duration d) {
  const shoal::time_point due = shoal::now() + d;
  co_await shoal::sleep_until(due);
  log.lateness.push_back(shoal::now() - due);
  if (shoal::executor::current() != &pool.worker(k)) ++log.off_home;
}

shoal::task<void> terminal(shoal::thread_pool& pool, std::size_t i, worker_log& log,
                           std::latch& finished) {
  const std::size_t k = i % pool.size();
  std::mt19937_64 rng(i);
  std::exponential_distribution<double> think_ms(1.0 / 12.0);  // mean 12 ms (12 s / 1000)
  for (int cycle = 0; cycle < 5; ++cycle) {
    co_await sleep(pool, k, log, 18ms);  // keying time (18 s / 1000); then the transaction
    const std::chrono::duration<double, std::milli> think(std::min(think_ms(rng), 120.0));
    co_await sleep(pool, k, log, std::chrono::duration_cast<duration>(think));
  }
  finished.count_down();  // release: pairs with main's wait()
}

double ms(duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

}  // namespace

int main() {
  std::printf("04_terminals: NO DATABASE; 10,000 terminals, 5 cycles each, 2 workers\n");
  constexpr std::size_t terminals = 10'000;
  std::vector<worker_log> logs(2);
  std::latch finished(terminals);
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  for (std::size_t i = 0; i < terminals; ++i)
    pool.spawn_on(i % 2, terminal(pool, i, logs[i % 2], finished));
  finished.wait();
  shoal::sync_wait(pool.stop());  // every terminal has finished: nothing is left sleeping

  std::vector<duration> all = logs[0].lateness;
  all.insert(all.end(), logs[1].lateness.begin(), logs[1].lateness.end());
  std::sort(all.begin(), all.end());
  std::printf("  %zu sleeps, lateness p50 %.3f ms, p99 %.3f ms, max %.3f ms\n", all.size(),
              ms(all[all.size() / 2]), ms(all[all.size() * 99 / 100]), ms(all.back()));
  examples::check(all.size() == terminals * 10, "every terminal slept 10 times");
  examples::check(all.front() >= duration::zero(), "no sleep woke before its deadline");
  examples::check(logs[0].off_home + logs[1].off_home == 0, "every terminal stayed on its worker");
  return examples::finish("04_terminals");
}
