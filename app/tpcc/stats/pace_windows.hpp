// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/pace_windows.hpp: the --rate figures of the measurement window and of each
// --schedule step's window, from one stream of paced starts.
//
// What: a pace_recorder (pace.hpp) per window: the measurement interval's, and one per step,
// over the step's settled span (its start plus the settle time, to its end: the span the step's
// figures are of, run_result/steps.hpp). Each start a paced terminal reports goes to every
// recorder, which counts it only where it falls, so a step's figures are those of its own
// window: its intended starts, how many began, and the backlog at its start and end (whether
// the database kept up with that step's rate). A run without a schedule has no step windows.
// Cost: each start is offered to every window (a few compares each, an atomic add where it
// counts): O(steps), at most 100 (cli/schedule.hpp), per paced transaction.
// Lifetime: built before the terminals start, read (take) after they have left.
// Thread-safety: began() and never_began() from any thread, as pace_recorder's; close_window()
// from one thread.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "stats/pace.hpp"
#include "stats/recorder.hpp"

namespace tpcc::stats {

struct pace_span {
  clock::time_point start, end;
};

class pace_windows {
 public:
  /// `whole`: the measurement window; `steps`: each step's settled span, in order.
  pace_windows(pace_span whole, const std::vector<pace_span>& steps);

  /// A transaction intended to start at `intended` began at `actual`: told to every window.
  void began(clock::time_point intended, clock::time_point actual) noexcept;
  /// A terminal left with the start intended at `intended` due and never begun.
  void never_began(clock::time_point intended) noexcept;
  /// Ends every window early (an interrupt) at `t` if t is earlier.
  void close_window(clock::time_point t) noexcept;
  /// The measurement window's end (close_window may have moved it).
  [[nodiscard]] clock::time_point window_end() const noexcept;
  /// The measurement window's figures, `offered_tpm` as asked.
  [[nodiscard]] pace_totals take(double offered_tpm) const;
  /// Step `i`'s figures (i < steps()), `offered_tpm` its rate.
  [[nodiscard]] pace_totals take_step(std::size_t i, double offered_tpm) const;
  [[nodiscard]] std::size_t steps() const noexcept { return steps_.size(); }

 private:
  pace_recorder whole_;
  std::vector<std::unique_ptr<pace_recorder>> steps_;  // a recorder's atomics do not move
};

}  // namespace tpcc::stats
