// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run_result/steps.hpp: `run --schedule` / `--sweep` as data: the rate steps asked for
// and the window each one was measured over.
//
// What: a schedule is a list of rate steps (an offered rate in transactions per minute and a
// duration each) run one after another over the measurement interval; the warm-up runs at the
// first step's rate. Each step is measured over its own window: its span without a settle time
// at its start (settle_seconds: a quarter of the step, at most 5 s), during which the load
// adapts to the new rate. Steps are rate steps only: the terminal set is fixed for a run; a step
// may also set how many of CH-benCHmark's analytic streams run in it (streams=N: 0 pauses them),
// so that one schedule measures tpmC with and without them.
// The backlog of each step is taken over the same window.
// Thread-safety: plain values and pure functions.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "stats/pace.hpp"

namespace tpcc::run {

struct rate_step {
  double rate_tpm = 0;                  // offered, every type, per minute
  std::chrono::nanoseconds duration{};  // > 0
  std::int64_t analytic_streams = 0;    // CH-benCHmark streams running in it (0: none)
};

// One step as it ran: seconds since the terminals started (as the interval series counts).
struct step_window {
  double rate_tpm = 0;
  double start_seconds = 0;           // the step began (its rate set)
  double window_start = 0;            // start_seconds plus the settle time
  double end_seconds = 0;             // the step ended: as planned, or at an interrupt
  bool partial = false;               // interrupted before its planned end
  std::int64_t analytic_streams = 0;  // CH-benCHmark streams running in it (rate_step's)
  // Paced: the step window's intended starts and its backlog at the window's start and end
  // (stats/pace.hpp; grew(): the database did not keep up with this step's rate).
  std::optional<stats::pace_totals> pacing{};
};

/// The settle time excluded at the start of a step of `step_seconds`: a quarter of it, at most
/// 5 s.
[[nodiscard]] inline double settle_seconds(double step_seconds) noexcept {
  return std::min(5.0, step_seconds / 4.0);
}

/// The whole schedule's length.
[[nodiscard]] inline std::chrono::nanoseconds schedule_length(
    const std::vector<rate_step>& steps) noexcept {
  std::chrono::nanoseconds sum{};
  for (const rate_step& s : steps) sum += s.duration;
  return sum;
}

/// The highest rate a step offers; 0 for no steps.
[[nodiscard]] inline double peak_rate(const std::vector<rate_step>& steps) noexcept {
  double most = 0;
  for (const rate_step& s : steps) most = std::max(most, s.rate_tpm);
  return most;
}

/// The step (0-based) running `seconds` into the measurement interval: the first during the
/// warm-up (`seconds` < 0, which runs at its rate), the last from the schedule's end on; 0 for no
/// steps.
[[nodiscard]] inline std::size_t step_at(const std::vector<rate_step>& steps,
                                         double seconds) noexcept {
  std::size_t i = 0;
  for (double end = 0; i + 1 < steps.size(); ++i) {
    end += std::chrono::duration<double>(steps[i].duration).count();
    if (seconds < end) break;
  }
  return i;
}

/// The rate the whole schedule offers on average, weighted by the steps' durations (what its
/// intended starts over the measurement interval are of); 0 for no steps.
[[nodiscard]] inline double mean_rate(const std::vector<rate_step>& steps) noexcept {
  const double total = std::chrono::duration<double>(schedule_length(steps)).count();
  if (total <= 0) return 0;
  double sum = 0;
  for (const rate_step& s : steps) {
    sum += s.rate_tpm * std::chrono::duration<double>(s.duration).count();
  }
  return sum / total;
}

}  // namespace tpcc::run
