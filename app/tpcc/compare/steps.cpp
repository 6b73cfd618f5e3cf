// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/steps.cpp: two results' schedule steps side by side (see steps.hpp).
#include "compare/steps.hpp"

#include <algorithm>
#include <cmath>

#include "report/merge_steps.hpp"
#include "report/steps.hpp"
#include "report/text.hpp"

namespace tpcc::compare {
namespace {

step_side side_of(const report::step_figures& f) {
  return {f.tpm_total, f.tpm_total_half_width, f.worst_p90_seconds * 1000, f.window.partial};
}

}  // namespace

std::string step_tpm_text(const step_side& s) {
  std::string out = report::format("%.0f ", s.tpm_total);
  out += std::isfinite(s.half_width) ? report::format("+-%.0f", s.half_width) : std::string("+-?");
  return out + (s.partial ? " (partial)" : "");
}

step_comparison compare_steps(const run::run_result& a, const run::run_result& b) {
  step_comparison out;
  const bool in_a = !a.config.schedule.empty();
  const bool in_b = !b.config.schedule.empty();
  if (!in_a && !in_b) return out;
  if (in_a != in_b) {
    out.why_not = std::string("only ") + (in_a ? "A" : "B") + " ran a --schedule";
    return out;
  }
  if (report::different_schedule(a.config, b.config)) {
    out.why_not = "A and B ran different schedules (steps, rates or durations)";
    return out;
  }
  const auto fa = report::step_figures_of(a);
  const auto fb = report::step_figures_of(b);
  for (std::size_t i = 0; i < std::min(fa.size(), fb.size()); ++i) {
    step_line line{i + 1, a.config.schedule[i].rate_tpm, side_of(fa[i]), side_of(fb[i]), 0};
    if (line.a.tpm_total > 0) line.percent = (line.b.tpm_total / line.a.tpm_total - 1) * 100;
    out.lines.push_back(line);
  }
  return out;
}

}  // namespace tpcc::compare
