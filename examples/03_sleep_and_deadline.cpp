// SPDX-License-Identifier: Apache-2.0
// 03_sleep_and_deadline: timers without a thread per sleep.
//
// Shows: `co_await shoal::sleep_for(d)` suspends only the calling coroutine, and works under
// plain sync_wait (its loop has timers of its own) as on a pool worker; a `shoal::deadline` is
// a value: pass it around, ask expired() / remaining(), co_await it. A sleep never wakes early.
// (How late sleeps wake under load: 04_terminals.)
#include <shoal/clock.hpp>
#include <shoal/sleep.hpp>
#include <shoal/sync_wait.hpp>
#include <shoal/task.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "support/check.hpp"

namespace {

using namespace std::chrono_literals;
using examples::check;
using shoal::duration;

shoal::task<duration> timed_sleep(duration d) {
  const shoal::time_point start = shoal::now();
  co_await shoal::sleep_for(d);
  co_return shoal::now() - start;
}

// Steps of 7 ms until a deadline has passed: the loop shape of a timed run.
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

}  // namespace

int main() {
  std::printf("03_sleep_and_deadline\n");
  const duration slept = shoal::sync_wait(timed_sleep(20ms));
  std::printf("  sleep_for(20 ms) under sync_wait took %.3f ms\n",
              std::chrono::duration<double, std::milli>(slept).count());
  check(slept >= 20ms, "a sleep lasts at least its duration");

  const shoal::deadline d = shoal::deadline::after(100ms);
  const int steps = shoal::sync_wait(steps_until(d));
  std::printf("  7 ms steps until a 100 ms deadline: %d steps\n", steps);
  check(d.expired() && d.remaining() == duration::zero(), "the deadline expired, nothing remains");
  check(steps >= 1 && steps <= 15, "at most 15 steps (7 ms each but the last) fit in 100 ms");
  check(shoal::sync_wait(await_deadline(shoal::deadline::after(10ms))) >= duration::zero(),
        "co_await on a deadline wakes no earlier than it");
  return examples::finish("03_sleep_and_deadline");
}
