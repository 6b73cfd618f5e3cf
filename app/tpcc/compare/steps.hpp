// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/steps.hpp: the --schedule steps of two results side by side.
//
// What: when A and B ran the same schedule (the same steps: rates, durations, --knee-p90),
// one line per step both began: the offered rate, each run's tpmTotal with its 95 % interval
// (report/steps.hpp: Student t over the step's intervals) and each run's worst p90 (any
// type), and B's tpmTotal against A's in %. No judgement: a step's window holds a few
// intervals, not the per-group estimators of the figures above. When only one ran a schedule,
// or they ran different ones, `why_not` says so and there are no lines; neither: nothing.
// Thread-safety: pure function.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "run_result/result.hpp"

namespace tpcc::compare {

struct step_side {
  double tpm_total = 0;
  double half_width = 0;  // 95 %; infinite when the window held fewer than two intervals
  double worst_p90_ms = 0;
  bool partial = false;  // interrupted
};

struct step_line {
  std::size_t step = 0;  // 1-based
  double offered_tpm = 0;
  step_side a, b;
  double percent = 0;  // B's tpmTotal against A's; 0 when A's is 0
};

struct step_comparison {
  std::vector<step_line> lines;
  std::string why_not;  // empty when compared, or when neither ran a schedule
};

/// A step's tpmTotal with its 95 % interval's half-width: "61319 +-4512", "61319 +-?" with a
/// single interval, " (partial)" after it when interrupted.
[[nodiscard]] std::string step_tpm_text(const step_side& s);

/// A's and B's steps side by side (see above).
[[nodiscard]] step_comparison compare_steps(const run::run_result& a, const run::run_result& b);

}  // namespace tpcc::compare
