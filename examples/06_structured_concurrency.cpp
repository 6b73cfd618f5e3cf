// 06_structured_concurrency: fan out, race, and bound a group of concurrent tasks in time.
//
// Shows, on a two-worker thread_pool:
//   - when_all: a query fanned out to 8 simulated shards at once; the answer takes as long as the
//     slowest shard, not the sum of them all;
//   - when_any: each shard has 3 replicas with different latencies; the fastest answers, the
//     other two are cancelled (their sleeps end early) and awaited before the shard returns;
//   - task_group under with_timeout: a scan of 12 shards of which 4 are far too slow; results
//     are taken as they come, the deadline cancels the stragglers, and with_task_group returns
//     only once every one of them has ended;
//   - children inherit the caller's coroutine-local values (a request id) and its stop token.
//
// Exits 0 when every check held, 1 (naming what failed) otherwise. Timings are printed; the
// checks on them are loose (this machine may be shared).
#include <shoal/coroutine_local.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/task_group.hpp>
#include <shoal/thread_pool.hpp>
#include <shoal/timeout.hpp>
#include <shoal/when_all.hpp>
#include <shoal/when_any.hpp>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <vector>

namespace {

using namespace std::chrono_literals;
using shoal::duration;

int failures = 0;

void check(bool ok, const char* what) {
  std::printf("  [%s] %s\n", ok ? "ok" : "FAILED", what);
  if (!ok) ++failures;
}

double to_ms(duration d) { return std::chrono::duration<double, std::milli>(d).count(); }

const shoal::coroutine_local<int> request_id{0};

std::atomic<int> cancelled_queries{0};
std::atomic<int> wrong_request_id{0};

constexpr int shards = 8;
constexpr int replicas = 3;

// Rows held by a shard (what every replica of it answers).
int rows_of(int shard) { return 100 + shard; }

// One replica's latency: replica (shard % 3) is the fast one, at 10-17 ms; the others take
// 200 ms and more, so a shard's answer is the fast replica's, and the whole fan-out ~17 ms.
duration latency_of(int shard, int replica) {
  if (replica == shard % replicas) return std::chrono::milliseconds(10 + shard);
  return std::chrono::milliseconds(200 + 10 * replica + shard);
}

// A simulated query: -1 when it was cancelled before it answered.
shoal::task<int> query(int shard, duration latency) {
  if (request_id.get() != 42) wrong_request_id.fetch_add(1);
  // Not `if (!co_await ...)`: g++ 12 miscompiles a co_await in an if condition (SIGILL at run
  // time, even at -O0 without sanitizers).
  const bool reached = co_await shoal::sleep_for(latency);
  if (!reached) {
    cancelled_queries.fetch_add(1);
    co_return -1;
  }
  co_return rows_of(shard);
}

// A shard answers with its fastest replica.
shoal::task<int> read_shard(int shard) {
  std::vector<shoal::task<int>> reads;
  reads.reserve(replicas);
  for (int r = 0; r < replicas; ++r) reads.push_back(query(shard, latency_of(shard, r)));
  const shoal::when_any_result<int> fastest = co_await shoal::when_any(std::move(reads));
  if (fastest.index != static_cast<std::size_t>(shard % replicas)) {
    std::printf("  shard %d: replica %zu answered first, expected %d\n", shard, fastest.index,
                shard % replicas);
  }
  co_return fastest.value;
}

shoal::task<int> fan_out() {
  auto scope = co_await request_id.bind(42);
  std::vector<shoal::task<int>> reads;
  reads.reserve(shards);
  for (int s = 0; s < shards; ++s) reads.push_back(read_shard(s));
  const std::vector<int> rows = co_await shoal::when_all(std::move(reads));
  int total = 0;
  for (int n : rows) total += n;
  co_return total;
}

struct scan_outcome {
  int answered = 0;
  int rows = 0;
};

// Scans 12 shards, of which every third is hopelessly slow, under a 40 ms timeout.
shoal::task<scan_outcome> scan_with_deadline() {
  auto scope = co_await request_id.bind(42);
  auto scan = [](shoal::task_group<int>& group) -> shoal::task<scan_outcome> {
    for (int s = 0; s < 12; ++s) group.spawn(query(s, s % 3 == 2 ? 5s : duration(5ms + s * 1ms)));
    scan_outcome out;
    while (auto r = co_await group.next_result()) {
      const int rows = r->take_value();
      if (rows < 0) continue;  // cancelled by the deadline
      ++out.answered;
      out.rows += rows;
    }
    co_return out;
  };
  co_return co_await shoal::with_timeout(40ms, shoal::with_task_group<int>(scan));
}

// Runs `t` on the pool and returns its result with how long it took.
template <class T>
T timed(shoal::thread_pool& pool, shoal::task<T> t, duration& took) {
  auto on_pool = [](shoal::thread_pool& p, shoal::task<T> inner) -> shoal::task<T> {
    co_await p.schedule();
    co_return co_await std::move(inner);
  };
  const auto start = shoal::now();
  T result = shoal::sync_wait(on_pool(pool, std::move(t)));
  took = shoal::now() - start;
  return result;
}

}  // namespace

int main() {
  std::printf("06_structured_concurrency\n");
  shoal::thread_pool pool({.workers = 2});
  pool.start();

  duration took{};
  const int total = timed(pool, fan_out(), took);
  int expected = 0;
  for (int s = 0; s < shards; ++s) expected += rows_of(s);
  std::printf("  fan-out to %d shards x %d replicas: %d rows in %.1f ms\n", shards, replicas, total,
              to_ms(took));
  check(total == expected, "every shard answered with its rows");
  check(cancelled_queries.load() == shards * (replicas - 1),
        "the two slower replicas of every shard were cancelled");
  check(took < 150ms, "the fan-out took about the slowest fast replica, not a slow one");

  cancelled_queries.store(0);
  const scan_outcome scanned = timed(pool, scan_with_deadline(), took);
  int expected_rows = 0;
  for (int s = 0; s < 12; ++s) expected_rows += s % 3 == 2 ? 0 : rows_of(s);
  std::printf("  scan of 12 shards under a 40 ms timeout: %d answered, %d rows, %.1f ms\n",
              scanned.answered, scanned.rows, to_ms(took));
  check(scanned.answered == 8 && scanned.rows == expected_rows,
        "the 8 fast shards answered before the deadline");
  check(cancelled_queries.load() == 4, "the 4 slow shards were cancelled by the deadline");
  check(took >= 40ms && took < 2s, "the group ended at its deadline, not the slow shards' 5 s");
  check(wrong_request_id.load() == 0, "every child saw the caller's request id");

  shoal::sync_wait(pool.stop());
  if (failures != 0) {
    std::printf("06_structured_concurrency: %d check(s) FAILED\n", failures);
    return 1;
  }
  std::printf("06_structured_concurrency: all checks passed\n");
  return 0;
}
