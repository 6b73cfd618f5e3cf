// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/pool/reconnect_pacing.hpp: when a pool may try to open a session again.
//
// What: the pool-wide pacing of connection attempts, so that losing the database does not turn
// into a storm of connects (every broken session retrying on its own clock). While attempts
// succeed, any number may run at once (the initial fill, a single replacement). Once one fails,
// the pool is "failing": one attempt at a time (the probe), each probe starting no sooner than
// the previous failure plus a delay drawn in [backoff/2, backoff] (jitter: pools of several
// client processes do not fall into step), where backoff starts at `min` and doubles after each
// failed probe up to `max`. While a probe is in flight the others are told to ask again after
// a jittered back-off. A success ends the failing state: each waiting replacement then goes the
// next time it asks (within one back-off).
// Time is passed in, never read: the caller gives shoal::now(), a test a fake clock.
//
// Thread-safety: none; the session pool calls it under its mutex.
#pragma once

#include <chrono>
#include <cstdint>
#include <random>

#include "shoal/clock.hpp"

namespace tpcc::driver::pool {

class reconnect_pacing {
 public:
  using duration = std::chrono::nanoseconds;

  reconnect_pacing(std::chrono::milliseconds min, std::chrono::milliseconds max,
                   std::uint64_t seed) noexcept;

  // Zero: start an attempt now (it is the probe when failing() is true right after). Otherwise
  // how long to wait before asking again.
  [[nodiscard]] duration admit(shoal::time_point now);
  // The outcome of an attempt that admit() let start; `probe`: it was admitted as the probe.
  // Only the probe's failure doubles the back-off and lets the next probe out: an attempt that
  // was already running when the failing state began (one of a fill) only pushes the next probe
  // later, so a probe never has company.
  void succeeded() noexcept;
  void failed(shoal::time_point now, bool probe);

  [[nodiscard]] bool failing() const noexcept { return backoff_ != duration::zero(); }
  // The current back-off ceiling (zero when not failing).
  [[nodiscard]] duration backoff() const noexcept { return backoff_; }

 private:
  [[nodiscard]] duration jittered() noexcept;

  duration min_;
  duration max_;
  duration backoff_{0};
  shoal::time_point next_{};
  bool probing_ = false;
  std::minstd_rand random_;
};

}  // namespace tpcc::driver::pool
