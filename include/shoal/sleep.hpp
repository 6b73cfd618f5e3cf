// SPDX-License-Identifier: Apache-2.0
// shoal/sleep.hpp: suspend a coroutine until a time, and deadlines as values.
//
// What: `co_await sleep_for(d)` and `co_await sleep_until(t)` suspend the calling coroutine on the
// current executor's timer structure (no thread per sleep, no allocation: the timer lives in the
// awaiting frame). A `deadline` is a point in time you can pass around, ask `expired()` or
// `remaining()`, and `co_await` to sleep until it.
//
// Awaiting sleep_for / sleep_until / a deadline:
//   Result: bool, true when the time was reached, false when the sleep was cancelled.
//   Errors: std::logic_error when awaited with no executor running on this thread.
//   Cancellation: the chain's stop token (shoal/stop.hpp): a stop requested before the sleep
//                 returns false at once; one requested during it wakes it promptly.
//   Resumes on: the executor it was awaited on (pinned there when the chain is bound).
//   Thread-safety: each awaiter is used by its own coroutine only.
//   Accuracy: a sleep resumes no earlier than its deadline and, on an executor that is not
//             overloaded, within about a millisecond of it (see docs/benchmarks.md).
//   Example:
//     co_await shoal::sleep_for(std::chrono::milliseconds(18));   // keying time
//     auto d = shoal::deadline::after(std::chrono::seconds(5));
//     while (!d.expired()) co_await step();
#pragma once

#include "shoal/clock.hpp"
#include "shoal/detail/sleep.hpp"

namespace shoal {

// What sleep_for, sleep_until and `co_await deadline` return: an awaitable (see above).
using sleep_awaiter = detail::sleep_awaiter;

[[nodiscard]] inline sleep_awaiter sleep_until(time_point t) noexcept {
  return detail::sleep_awaiter(t);
}

[[nodiscard]] inline sleep_awaiter sleep_for(duration d) noexcept {
  return detail::sleep_awaiter(now() + d);
}

class deadline {
 public:
  [[nodiscard]] static deadline at(time_point t) noexcept { return deadline(t); }
  [[nodiscard]] static deadline after(duration d) noexcept { return deadline(now() + d); }

  [[nodiscard]] time_point when() const noexcept { return at_; }
  [[nodiscard]] bool expired() const noexcept { return now() >= at_; }
  [[nodiscard]] duration remaining() const noexcept {
    const duration left = at_ - now();
    return left > duration::zero() ? left : duration::zero();
  }

  friend sleep_awaiter operator co_await(deadline d) noexcept { return sleep_until(d.at_); }

 private:
  explicit deadline(time_point t) noexcept : at_(t) {}
  time_point at_;
};

}  // namespace shoal
