// SPDX-License-Identifier: Apache-2.0
// shoal/timeout.hpp: bound an await in time.
//
// What: `with_deadline(t, x)` awaits x under a stop token of its own, linked to the caller's
// token and requested by a timer at t. `with_timeout(d, x)` is with_deadline(now() + d, x).
// What comes back is x's own result: an operation that honours cancellation ends early and says
// so in its result (a sleep returns false); one that ignores it simply completes. Either way the
// timer is disarmed and the link to the caller's token removed before the call returns: nothing
// is leaked, nothing fires later.
//
// Awaiting with_deadline / with_timeout:
//   Result: what `co_await x` gives. Errors: what x throws; std::logic_error outside an executor.
//   Cancellation: a stop request to the caller reaches x too; expiry reaches only x.
//   Resumes on: the executor it was awaited on (it returns there to disarm its timer).
//   Thread-safety: the timer lives on the awaiting executor; stop may come from any thread.
//   Example:
//     bool slept = co_await shoal::with_timeout(50ms, shoal::sleep_for(1s));  // false
#pragma once

#include <exception>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <type_traits>
#include <utility>

#include "shoal/clock.hpp"
#include "shoal/detail/timeout.hpp"
#include "shoal/detail/with_env.hpp"
#include "shoal/task.hpp"

namespace shoal {

template <class Awaitable>
[[nodiscard]] auto with_deadline(time_point at, Awaitable&& awaitable) {
  return detail::with_deadline_task<Awaitable>(at, std::forward<Awaitable>(awaitable));
}

template <class Awaitable>
[[nodiscard]] auto with_timeout(duration d, Awaitable&& awaitable) {
  return with_deadline(now() + d, std::forward<Awaitable>(awaitable));
}

}  // namespace shoal
