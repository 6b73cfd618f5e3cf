// 03_sleep_and_deadline: timers without a thread per sleep.
//
// Shows:
//   - `co_await shoal::sleep_for(d)` suspends only the calling coroutine; it works under plain
//     sync_wait (its loop has timers of its own) and on a thread_pool worker;
//   - a `shoal::deadline` is a value: pass it around, ask expired() / remaining(), co_await it;
//   - how late sleeps wake: many coroutines sleep at once on a pool, each measuring
//     (actual wake - deadline). A sleep never wakes early; how late it wakes is the executor's
//     timer resolution plus whatever queueing the load causes. Printed as p50 / p99 / max.
//
// Exits 0 when no sleep woke early and the deadline logic held, 1 (naming what failed) otherwise.
// The lateness figures are printed, not asserted: this machine may be shared.
#include <shoal/clock.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>
#include <shoal/thread_pool.hpp>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <latch>
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

shoal::task<duration> timed_sleep(duration d) {
  const shoal::time_point start = shoal::now();
  const bool reached = co_await shoal::sleep_for(d);
  if (!reached) co_return duration::zero();
  co_return shoal::now() - start;
}

// Steps of 7 ms until a 100 ms deadline has passed: the loop shape of a timed run.
shoal::task<int> steps_until(shoal::deadline d) {
  int steps = 0;
  while (!d.expired()) {
    co_await shoal::sleep_for(std::min<duration>(7ms, d.remaining()));
    ++steps;
  }
  co_return steps;
}

shoal::task<duration> await_deadline(shoal::deadline d) {
  co_await d;  // a deadline is awaitable: sleep until it
  co_return shoal::now() - d.when();
}

// Sleeps until `due` on worker k and stores how late it woke.
shoal::task<void> late_sleeper(shoal::thread_pool& pool, std::size_t k, duration delay,
                               duration& lateness, std::latch& finished) {
  co_await pool.schedule_on(k);
  const shoal::time_point due = shoal::now() + delay;
  co_await shoal::sleep_until(due);
  lateness = shoal::now() - due;
  finished.count_down();  // release: pairs with finished.wait() in measure_lateness
}

void under_sync_wait() {
  const duration slept = shoal::sync_wait(timed_sleep(20ms));
  std::printf("  sleep_for(20 ms) under sync_wait took %.3f ms\n", to_ms(slept));
  check(slept >= 20ms, "a sleep under sync_wait lasts at least its duration");

  const shoal::deadline d = shoal::deadline::after(100ms);
  const int steps = shoal::sync_wait(steps_until(d));
  std::printf("  7 ms steps until a 100 ms deadline: %d steps\n", steps);
  check(d.expired() && d.remaining() == duration::zero(), "the deadline expired, nothing remains");
  check(steps >= 1 && steps <= 15, "at most 15 steps (7 ms each but the last) fit in 100 ms");

  const duration late = shoal::sync_wait(await_deadline(shoal::deadline::after(10ms)));
  check(late >= duration::zero(), "co_await on a deadline wakes no earlier than it");
}

struct percentiles {
  duration min, p50, p99, max;
};

percentiles summarize(std::vector<duration> samples) {
  std::sort(samples.begin(), samples.end());
  const auto at = [&](double q) {
    return samples[static_cast<std::size_t>(q * static_cast<double>(samples.size() - 1))];
  };
  return {samples.front(), at(0.50), at(0.99), samples.back()};
}

void measure_lateness() {
  constexpr std::size_t sleepers = 2000;
  shoal::thread_pool pool({.workers = 2});
  pool.start();
  std::vector<duration> lateness(sleepers);
  std::latch finished(sleepers);
  for (std::size_t i = 0; i < sleepers; ++i) {
    const duration delay = 1ms + std::chrono::microseconds(static_cast<long>(i % 50) * 100);
    pool.spawn(late_sleeper(pool, i % pool.size(), delay, lateness[i], finished));
  }
  finished.wait();  // every sleeper has written its sample and is about to finish
  shoal::sync_wait(pool.stop());

  const percentiles p = summarize(std::move(lateness));
  std::printf(
      "  %zu concurrent sleeps of 1-5.9 ms on 2 workers, lateness (wake - deadline):\n"
      "    min %.3f ms  p50 %.3f ms  p99 %.3f ms  max %.3f ms\n",
      sleepers, to_ms(p.min), to_ms(p.p50), to_ms(p.p99), to_ms(p.max));
  check(p.min >= duration::zero(), "no sleep on the pool woke before its deadline");
}

}  // namespace

int main() {
  std::printf("03_sleep_and_deadline\n");
  under_sync_wait();
  measure_lateness();
  if (failures != 0) {
    std::printf("03_sleep_and_deadline: %d check(s) FAILED\n", failures);
    return 1;
  }
  std::printf("03_sleep_and_deadline: all checks passed\n");
  return 0;
}
