// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/sim/server_clock.hpp: `sim:...,capacity=N`: the simulated database's one
// shared server, so that it can fail to keep up.
//
// What: one virtual server per simulated database serving N transactions per second: each
// transaction's end (its commit or rollback) takes the next 1/N s of the server's time,
// queued behind every other transaction's (a single FIFO server of constant service time,
// M/D/1-like under Poisson arrivals). The session answers that end no sooner than its round
// trip's latency and no sooner than its slot on the server ends: below N per second the
// latency is the configured one, above it the queue, and with it the latency, grows without
// bound. Statements before the end cost only their latency. The model: docs/tpcc/usage.md.
// Thread-safety: take() from any thread (one compare-and-swap loop on the server's free time).
#pragma once

#include <atomic>
#include <chrono>

namespace tpcc::driver::sim {

class server_clock {
 public:
  /// A server of `per_second` transactions a second (> 0).
  explicit server_clock(double per_second) noexcept;

  /// Reserves the next slot for a transaction ending at `now`: when its service ends.
  [[nodiscard]] std::chrono::steady_clock::time_point take(
      std::chrono::steady_clock::time_point now) noexcept;

 private:
  const std::chrono::nanoseconds service_;
  std::atomic<std::chrono::steady_clock::rep> free_at_{0};  // when the server is next idle
};

}  // namespace tpcc::driver::sim
