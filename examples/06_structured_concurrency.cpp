// SPDX-License-Identifier: Apache-2.0
// 06_structured_concurrency: fan out with when_all, race replicas with when_any.
//
// Shows, on a two-worker pool: a query fanned out to 8 simulated shards at once with when_all
// takes as long as the slowest shard, not the sum; each shard asks its 3 replicas with
// when_any: the fastest answers, the other two are cancelled (their sleeps end early) and
// awaited before the shard returns. Children inherit the caller's coroutine-local values.
// (A group bounded in time, results taken as they come: 12_task_group.)
#include <shoal/coroutine_local.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>
#include <shoal/when_all.hpp>
#include <shoal/when_any.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <vector>

#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;
using examples::check;

const shoal::coroutine_local<int> request_id{0};
std::atomic<int> cancelled{0};
std::atomic<int> wrong_request_id{0};

// A simulated query: the shard's row count, or -1 when it was cancelled before it answered.
shoal::task<int> query(int shard, std::chrono::milliseconds latency) {
  if (request_id.get() != 42) wrong_request_id.fetch_add(1);
  // Not `if (!co_await ...)`: g++ 12 miscompiles a co_await in an if condition.
  const bool reached = co_await shoal::sleep_for(latency);
  if (!reached) cancelled.fetch_add(1);
  co_return reached ? 100 + shard : -1;
}

// Replica (shard % 3) answers in 10-17 ms, the other two in an hour: the fan-out ends only
// because they were cancelled.
shoal::task<int> read_shard(int shard) {
  std::vector<shoal::task<int>> reads;
  reads.reserve(3);
  for (int r = 0; r < 3; ++r)
    reads.push_back(query(shard, r == shard % 3 ? std::chrono::milliseconds(10 + shard) : 1h));
  co_return (co_await shoal::when_any(std::move(reads))).value;
}

shoal::task<int> fan_out(shoal::thread_pool& pool) {
  co_await pool.schedule();
  auto scope = co_await request_id.bind(42);
  std::vector<shoal::task<int>> shards;
  shards.reserve(8);
  for (int s = 0; s < 8; ++s) shards.push_back(read_shard(s));
  const std::vector<int> rows = co_await shoal::when_all(std::move(shards));
  co_return std::accumulate(rows.begin(), rows.end(), 0);
}

}  // namespace

int main() {
  std::printf("06_structured_concurrency\n");
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  const auto start = std::chrono::steady_clock::now();
  const int total = shoal::sync_wait(fan_out(pool));
  const auto took = std::chrono::steady_clock::now() - start;
  shoal::sync_wait(pool.stop());
  std::printf("  8 shards x 3 replicas: %d rows in %.1f ms\n", total,
              std::chrono::duration<double, std::milli>(took).count());
  check(total == 8 * 100 + 28, "every shard answered with its rows (100 + shard)");
  check(cancelled.load() == 16, "the two slower replicas of every shard were cancelled");
  check(took >= 17ms, "the fan-out waited for the slowest fast replica (17 ms)");
  check(wrong_request_id.load() == 0, "every child saw the caller's request id");
  return examples::finish("06_structured_concurrency");
}
