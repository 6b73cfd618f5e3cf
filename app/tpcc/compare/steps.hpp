// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/steps.hpp: the --schedule steps of two results side by side.
//
// What: when A and B ran the same schedule (the same steps: rates, durations, --knee-p90),
// one line per step both began: the offered rate, each run's achieved tpmTotal with its 95 %
// interval (report/steps.hpp: Student t over the step's intervals), its backlog (the step
// window's --rate figures, stats/pace.hpp: how many intended starts were behind at the
// window's end, how late the oldest, and whether the backlog grew: the database did not keep
// up) and its worst p90 (any type), and B's tpmTotal against A's in %. A step where one run
// kept up and the other did not is named (`kept_up_in_one`, kept_up_differences()). No judgement
// beyond that: a step's window holds a few intervals, not the per-group estimators of the figures
// above. When only one ran a schedule, or they ran different ones, `why_not` says so and there are
// no lines; neither: nothing. Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "run_result/result.hpp"
#include "stats/pace.hpp"

namespace tpcc::compare {

struct step_side {
  double tpm_total = 0;   // achieved: every transaction ended, per minute of the window
  double half_width = 0;  // 95 %; infinite when the window held fewer than two intervals
  double worst_p90_ms = 0;
  bool partial = false;                        // interrupted
  std::optional<stats::pace_totals> pacing{};  // the window's backlog; none when not recorded

  /// Whether the database kept up with the step's rate: nullopt when no backlog was recorded.
  [[nodiscard]] std::optional<bool> kept_up() const;
};

// Which run alone kept up with a step's rate; `neither_alone` when both did, neither did, either
// has no backlog recorded, or either step is partial.
enum class kept_up_alone { neither_alone, a, b };

struct step_line {
  std::size_t step = 0;  // 1-based
  double offered_tpm = 0;
  step_side a, b;
  double percent = 0;  // B's tpmTotal against A's; 0 when A's is 0
  kept_up_alone kept_up_in_one = kept_up_alone::neither_alone;
};

struct step_comparison {
  std::vector<step_line> lines;
  std::string why_not;  // empty when compared, or when neither ran a schedule
};

/// A step's tpmTotal with its 95 % interval's half-width: "61319 +-4512", "61319 +-?" with a
/// single interval, " (partial)" after it when interrupted.
[[nodiscard]] std::string step_tpm_text(const step_side& s);

/// A step's achieved tpmTotal in % of the offered rate: "96.7 %"; "-" when nothing was offered.
[[nodiscard]] std::string step_achieved_text(const step_side& s, double offered_tpm);

/// A step's backlog in a few words: "kept up, 3 behind" or "GREW: 1234 behind, 2.3 s late";
/// "-" when none was recorded.
[[nodiscard]] std::string step_backlog_cell(const step_side& s);

/// The steps where one run kept up and the other did not, one sentence each: "step 2 (60000
/// tpm offered): A kept up (kept up, 3 behind), B did not (GREW: 1234 behind, 2.3 s late)".
[[nodiscard]] std::vector<std::string> kept_up_differences(const step_comparison& s);

/// A's and B's steps side by side (see above).
[[nodiscard]] step_comparison compare_steps(const run::run_result& a, const run::run_result& b);

}  // namespace tpcc::compare
