// SPDX-License-Identifier: Apache-2.0
// app/tpcc/figures/run_figures.hpp: the figures a run's displays derive from one live_view.
//
// A module of its own (below ui and metrics): the dashboard (ui/) and the Prometheus endpoint
// (metrics/) both read these snapshots, neither through the other.
//
// What: run_screen is everything a run display is drawn from: an immutable live_view (taken by
// run_control::live(), never the live counters) plus the run's settings the view does not
// carry. figures_of() derives what the dashboard and the plain line show: tpmC, tpmTotal and
// efficiency of the measurement interval so far (as report/summary.hpp defines them), the time
// elapsed, remaining and its fraction, the connection-pool wait p90 (the `queued` histograms), and
// whether the client itself is the bottleneck: timer lateness or ready-queue delay p99 of the
// latest interval beyond the run's client-lag limit, or the workers near saturation.
// Everything is computed from the view alone (no clock is read), so it is testable as is.
// Thread-safety: pure functions over plain values.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run/run.hpp"
#include "run_result/steps.hpp"
#include "stats/client.hpp"

namespace tpcc::figures {

// Mean worker busy fraction from which the client counts as saturated.
inline constexpr double saturated_busy = 0.95;

// CH-benCHmark's analytic streams so far (run_control::analytic()), for the displays: the
// completed queries are the measurement interval's, failed and cancelled every phase's.
struct ch_live {
  std::int64_t streams = 0;
  std::uint64_t completed = 0, failed = 0, cancelled = 0;
};

struct run_screen {
  run::live_view view;
  double wait_scale = 1.0;  // 1: the spec's waits; 0: --no-wait
  double rate_tpm = 0;      // --rate: paced arrivals instead of waits (not TPC-C); 0: none
  std::vector<run::rate_step> schedule;  // --schedule: its steps (rate_tpm is their mean)
  std::chrono::nanoseconds client_lag_limit = std::chrono::milliseconds(50);
  std::string target;         // the database as the user should see it (password redacted)
  std::string note;           // shown on the header and the plain line (e.g. a simulated database)
  std::optional<ch_live> ch;  // while analytic streams run; nullopt: none
};

struct client_verdict {
  bool bound = false;
  std::string reason;  // why, in words; empty unless bound
};

struct run_figures {
  double measured_seconds = 0;       // of the measurement interval, so far
  double tpmc = 0;                   // New-Orders committed per minute of it
  double tpm_total = 0;              // transactions of every type completed per minute of it
  std::optional<double> efficiency;  // fraction of the (scaled) maximum; nullopt without waits
  double planned_seconds = 0;        // warm-up + measurement
  double remaining_seconds = 0;      // until the planned end of the measurement
  double progress = 0;               // 0..1 of the planned time
  std::optional<std::uint64_t> pool_wait_p90_us;  // latest interval, else the window
  client_verdict client;
};

[[nodiscard]] client_verdict client_lag(const stats::client_sample& c,
                                        std::chrono::nanoseconds limit);
[[nodiscard]] run_figures figures_of(const run_screen& s);
// Transactions of type `kind` (committed or rolled back) per second of interval `s`.
[[nodiscard]] double interval_rate(const stats::interval_sample& s, std::size_t kind);

}  // namespace tpcc::figures
