// SPDX-License-Identifier: Apache-2.0
// 12_task_group: a group of concurrent tasks, results taken as they come, bounded in time.
//
// Shows: with_task_group gives a scope whose spawned children cannot outlive it;
// next_result() hands back each result as it completes; with_timeout around the scope
// cancels the stragglers at the deadline (their sleeps end early), and the scope returns only
// once every child has ended. A scan of 12 shards, 4 of them far too slow, under 40 ms.
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/task_group.hpp>
#include <shoal/thread_pool.hpp>
#include <shoal/timeout.hpp>

#include <chrono>
#include <cstdio>

#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;

struct scan_outcome {
  int answered = 0;
  int cancelled = 0;
};

// A simulated query: 1 when it answered, 0 when the deadline cancelled its sleep first.
shoal::task<int> query(shoal::duration latency) {
  const bool reached = co_await shoal::sleep_for(latency);
  co_return reached ? 1 : 0;
}

shoal::task<scan_outcome> scan(shoal::task_group<int>& group) {
  for (int s = 0; s < 12; ++s) group.spawn(query(s % 3 == 2 ? 5s : 5ms + 1ms * s));
  scan_outcome out;
  while (auto r = co_await group.next_result()) {  // in completion order, until all ended
    if (r->take_value() == 1)
      ++out.answered;
    else
      ++out.cancelled;
  }
  co_return out;
}

shoal::task<scan_outcome> scan_under_deadline(shoal::thread_pool& pool) {
  co_await pool.schedule();
  co_return co_await shoal::with_timeout(40ms, shoal::with_task_group<int>(scan));
}

}  // namespace

int main() {
  std::printf("12_task_group\n");
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  const auto start = std::chrono::steady_clock::now();
  const scan_outcome out = shoal::sync_wait(scan_under_deadline(pool));
  const auto took = std::chrono::steady_clock::now() - start;
  shoal::sync_wait(pool.stop());
  std::printf("  12 shards under a 40 ms timeout: %d answered, %d cancelled, %.1f ms\n",
              out.answered, out.cancelled, std::chrono::duration<double, std::milli>(took).count());
  examples::check(out.answered == 8, "the 8 fast shards answered before the deadline");
  examples::check(out.cancelled == 4, "the 4 slow shards were cancelled by the deadline");
  // Not before its deadline; and not after the slow shards' 5 s: they were cancelled (above).
  examples::check(took >= 40ms, "the group ran until its deadline");
  return examples::finish("12_task_group");
}
