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
  return {f.tpm_total, f.tpm_total_half_width, f.worst_p90_seconds * 1000, f.window.partial,
          f.window.pacing};
}

kept_up_alone which_kept_up(const step_side& a, const step_side& b) {
  const auto ka = a.kept_up();
  const auto kb = b.kept_up();
  if (!ka || !kb || *ka == *kb || a.partial || b.partial) return kept_up_alone::neither_alone;
  return *ka ? kept_up_alone::a : kept_up_alone::b;
}

}  // namespace

std::optional<bool> step_side::kept_up() const {
  if (!pacing) return std::nullopt;
  return !pacing->grew();
}

std::string step_tpm_text(const step_side& s) {
  std::string out = report::format("%.0f ", s.tpm_total);
  out += std::isfinite(s.half_width) ? report::format("+-%.0f", s.half_width) : std::string("+-?");
  return out + (s.partial ? " (partial)" : "");
}

std::string step_achieved_text(const step_side& s, double offered_tpm) {
  if (offered_tpm <= 0) return "-";
  return report::format("%.1f %%", s.tpm_total / offered_tpm * 100);
}

std::string step_backlog_cell(const step_side& s) {
  if (!s.pacing) return "-";
  const auto behind = static_cast<unsigned long long>(s.pacing->at_end.behind);
  if (!s.pacing->grew()) return report::format("kept up, %llu behind", behind);
  return report::format("GREW: %llu behind, %.1f s late", behind, s.pacing->at_end.oldest_seconds);
}

std::vector<std::string> kept_up_differences(const step_comparison& s) {
  std::vector<std::string> out;
  for (const step_line& l : s.lines) {
    if (l.kept_up_in_one == kept_up_alone::neither_alone) continue;
    const bool a_kept = l.kept_up_in_one == kept_up_alone::a;
    const step_side& kept = a_kept ? l.a : l.b;
    const step_side& behind = a_kept ? l.b : l.a;
    out.push_back(report::format("step %zu (%.0f tpm offered): ", l.step, l.offered_tpm) +
                  (a_kept ? "A" : "B") + " kept up (" + step_backlog_cell(kept) + "), " +
                  (a_kept ? "B" : "A") + " did not (" + step_backlog_cell(behind) + ")");
  }
  return out;
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
    step_line line{i + 1, a.config.schedule[i].rate_tpm, side_of(fa[i]), side_of(fb[i]),
                   0,     kept_up_alone::neither_alone};
    if (line.a.tpm_total > 0) line.percent = (line.b.tpm_total / line.a.tpm_total - 1) * 100;
    line.kept_up_in_one = which_kept_up(line.a, line.b);
    out.lines.push_back(line);
  }
  return out;
}

}  // namespace tpcc::compare
