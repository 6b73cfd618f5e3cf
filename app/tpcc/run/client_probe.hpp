// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/client_probe.hpp: one probe coroutine per worker, measuring how well the client
// itself keeps time.
//
// What: the probe bound to worker k wakes every `period`: it sleeps to a deadline and records
// how late it woke (timer lateness), then yields and records how long it waited in the ready
// queue behind other work (ready-queue delay), then reads its thread's CPU clock (how busy
// worker k has been). take(k) hands over what worker k's probe saw since the previous take;
// samples taken inside the recorder's measurement window are also kept for the whole window.
// Lifetime: start() spawns the probes; each holds a token of the given gate and ends promptly
// once the given stop is requested (its sleep wakes): request it, then close the gate, before
// destroying the client_probes or stopping the pool. The recorder must outlive the probes.
// Thread-safety: take() and the window readers from any thread, concurrently with the probes
// (one mutex per worker).
#pragma once

#include <chrono>
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <vector>

#include "shoal/gate.hpp"
#include "shoal/thread_pool.hpp"
#include "stats/histogram.hpp"
#include "stats/recorder.hpp"

namespace tpcc::run {

// What one worker's probe saw since the previous take().
struct probe_interval {
  stats::histogram lateness, queue_delay;  // us
  // The worker thread's CPU time at the probe's latest wake before this interval, and at its
  // latest wake in it (the same when it did not wake): busy = cpu growth / wall time between.
  std::chrono::nanoseconds cpu_from{0}, cpu{0};
  stats::clock::time_point from_at, cpu_at;

  // The fraction of the wall time between the two readings the worker spent on the CPU;
  // nullopt when the probe did not wake in the interval.
  [[nodiscard]] std::optional<double> busy() const;
};

class client_probes {
 public:
  static constexpr std::chrono::milliseconds period{100};

  client_probes(std::size_t workers, const stats::recorder& window);

  // Starts the probe of every worker of `pool` (bound to it with spawn_on).
  void start(shoal::thread_pool& pool, shoal::gate& g, const std::stop_token& stop);
  [[nodiscard]] probe_interval take(std::size_t k);
  [[nodiscard]] std::size_t size() const noexcept { return slots_.size(); }
  // Every worker's samples inside the measurement window, merged.
  [[nodiscard]] stats::histogram window_lateness() const;
  [[nodiscard]] stats::histogram window_queue_delay() const;

  // One worker's samples; public for the probe coroutine only.
  struct slot {
    void begin(std::chrono::nanoseconds cpu, stats::clock::time_point at);
    void add(std::chrono::nanoseconds late, std::chrono::nanoseconds queued,
             std::chrono::nanoseconds cpu, stats::clock::time_point at, bool in_window);

    mutable std::mutex mutex;
    probe_interval now;  // since the last take
    stats::histogram window_lateness, window_queue_delay;
  };

 private:
  std::vector<std::unique_ptr<slot>> slots_;
  const stats::recorder& window_;
};

}  // namespace tpcc::run
