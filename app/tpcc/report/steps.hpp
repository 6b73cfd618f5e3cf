// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/steps.hpp: the figures of each step of `run --schedule`, and the knee.
//
// What: a step's figures come from the interval series: the intervals inside the step's window
// (run_result/steps.hpp: its span without the settle time), to a quarter of an interval, are added
// up (outcome counts, response histograms: buckets add, percentiles are never averaged); a settle
// time ending inside an interval leaves that interval out. Per step: per type
// the counts and p90/p99, tpmC (completed New-Orders) and tpmTotal (every transaction ended) per
// minute of the window, tpmTotal's 95 % interval from how the intervals' own rates vary (Student
// t over the intervals, as independent samples), and the verdict's subset a step can have: every
// type's p90 within its clause 5.2.5.4 limit, and no failed transaction.
// The knee is the first step past which throughput stops growing: step k-1 for the first k whose
// tpmTotal is not above step k-1's by more than the two intervals' half-widths together; or, with
// --knee-p90, the first step whose worst p90 (any type) is over it; or the first step whose
// backlog grew (stats::pace_totals::grew: the database did not keep up with its rate, so what it
// achieved there is the most it takes, and no higher rate can raise it); the earliest of these.
// Partial steps (an interrupt) are shown but never judged for the knee.
// Thread-safety: pure functions.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "run_result/result.hpp"
#include "txn/kind.hpp"

namespace tpcc::report {

struct step_kind {
  std::uint64_t ended = 0, completed = 0, failed = 0;  // failed: every outcome not completed
  double p90_seconds = 0, p99_seconds = 0;             // of completed ones; 0 when none
};

struct step_figures {
  run::step_window window;
  double window_seconds = 0;  // the intervals' length added up
  std::size_t intervals = 0;  // of the series, inside the window
  std::array<step_kind, txn::kind_count> kinds{};
  double tpmc = 0, tpm_total = 0;
  double tpm_total_half_width = 0;  // 95 %; infinite with fewer than 2 intervals
  double worst_p90_seconds = 0;     // the highest p90 of any type
  bool p90_within_limits = true;    // every type's p90 within its limit
  std::uint64_t failed = 0;         // transactions of every type not completed
};

struct knee_finding {
  std::optional<std::size_t> step;  // 0-based; nullopt: no knee within the schedule
  std::string why;                  // one sentence
};

/// Each step's figures, in order; empty without a schedule.
[[nodiscard]] std::vector<step_figures> step_figures_of(const run::run_result& r);

/// The knee of `steps` (step_figures_of), with --knee-p90 `p90_limit_seconds` (0: none).
[[nodiscard]] knee_finding find_knee(const std::vector<step_figures>& steps,
                                     double p90_limit_seconds);

/// The knee of a result's steps, with its own --knee-p90.
[[nodiscard]] knee_finding knee_of(const run::run_result& r,
                                   const std::vector<step_figures>& steps);

/// Whether the database kept up with the step's rate, in a few words: "kept up (3 behind at
/// the end)" or "BACKLOG grew to 1234 behind, the oldest 2.3 s late (0.0 s at the start)";
/// empty when the step has no --rate figures.
[[nodiscard]] std::string step_backlog_text(const step_figures& f);

/// The two-sided 95 % Student t quantile for `df` >= 1 degrees of freedom (1.96 beyond 30).
[[nodiscard]] double t95(std::size_t df) noexcept;

}  // namespace tpcc::report
