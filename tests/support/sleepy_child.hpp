// SPDX-License-Identifier: Apache-2.0
// sleepy_child.hpp: the child tasks the structured-concurrency tests race against each other.
//
// `after(d, v)` sleeps d and returns v, or -1 when its sleep was cancelled. `probed_after` does
// the same, counting its cancellations and carrying a frame_probe, so a test can tell when its
// frame was destroyed. `fail_after(d, what)` sleeps d, then throws std::runtime_error(what).
#pragma once

#include <stdexcept>

#include "shoal/clock.hpp"
#include "shoal/sleep.hpp"
#include "shoal/task.hpp"
#include "support/frame_probe.hpp"

namespace shoal::testing {

inline task<int> after(duration d, int value) {
  const bool reached = co_await sleep_for(d);  // not in an if or ?: (g++ 12 miscompiles it)
  co_return reached ? value : -1;
}

inline task<int> probed_after(duration d, int value, int* cancelled, frame_probe probe) {
  static_cast<void>(probe);
  const bool reached = co_await sleep_for(d);
  if (!reached) {
    ++*cancelled;
    co_return -1;
  }
  co_return value;
}

inline task<int> fail_after(duration d, const char* what) {
  co_await sleep_for(d);
  throw std::runtime_error(what);
}

}  // namespace shoal::testing
