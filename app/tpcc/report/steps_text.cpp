// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/steps_text.cpp: the steps block of the summary (see steps_text.hpp).
#include "report/steps_text.hpp"

#include <algorithm>
#include <cmath>

#include "report/steps.hpp"
#include "report/text.hpp"

namespace tpcc::report {
namespace {

double worst_p99(const step_figures& f) {
  double most = 0;
  for (const step_kind& k : f.kinds) most = std::max(most, k.p99_seconds);
  return most;
}

// "p90 ok", "p90 OVER", with "N failed" when any did.
std::string step_verdict(const step_figures& f) {
  std::string out = f.p90_within_limits ? "p90 ok" : "p90 OVER";
  if (f.failed > 0) out += format(", %llu failed", static_cast<unsigned long long>(f.failed));
  const std::string backlog = step_backlog_text(f);
  if (!backlog.empty()) out += ", " + backlog;
  return out;
}

std::string step_row(std::size_t i, const step_figures& f) {
  const std::string spread = std::isfinite(f.tpm_total_half_width)
                                 ? format("+-%.0f", f.tpm_total_half_width)
                                 : std::string("+-?");
  const double no_p90 = f.kinds[txn::index(txn::kind::new_order)].p90_seconds;
  return format("  %4zu %10.0f %10.0f %8s %9.0f %8.3f %8.3f %8.3f %6.1f  %s%s\n", i + 1,
                f.window.rate_tpm, f.tpm_total, spread.c_str(), f.tpmc, no_p90, f.worst_p90_seconds,
                worst_p99(f), f.window_seconds, step_verdict(f).c_str(),
                f.window.partial ? ", PARTIAL (interrupted)" : "");
}

}  // namespace

std::string steps_summary_lines(const run::run_result& r) {
  if (r.steps.empty()) return {};
  const std::vector<step_figures> steps = step_figures_of(r);
  std::string out = format(
      "\n  schedule    %zu of %zu rate steps run, each measured after a settle time (a quarter "
      "of the step, at most 5 s); NOT TPC-C\n",
      r.steps.size(), r.config.schedule.size());
  out +=
      "  step    offered   tpmTotal   95%-ci      tpmC  NO p90 s  worst90  worst99  win s  "
      "verdict\n";
  for (std::size_t i = 0; i < steps.size(); ++i) out += step_row(i, steps[i]);
  const knee_finding knee = knee_of(r, steps);
  out += "  knee        " + knee.why + "\n";
  return out;
}

}  // namespace tpcc::report
