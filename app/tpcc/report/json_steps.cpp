// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_steps.cpp: the "steps" array and the "knee" (see json_steps.hpp).
#include "report/json_steps.hpp"

#include <chrono>
#include <cmath>

#include "report/json_pace.hpp"
#include "report/steps.hpp"

namespace tpcc::report::detail {
namespace {

using nlohmann::json;

json step_kinds_json(const step_figures& f) {
  json out = json::array();
  for (std::size_t k = 0; k < txn::kind_count; ++k) {
    const step_kind& s = f.kinds[k];
    out.push_back({{"type", txn::name(static_cast<txn::kind>(k))},
                   {"ended", s.ended},
                   {"completed", s.completed},
                   {"failed", s.failed},
                   {"p90_seconds", s.p90_seconds},
                   {"p99_seconds", s.p99_seconds}});
  }
  return out;
}

json step_json(std::size_t i, const step_figures& f) {
  const bool known = std::isfinite(f.tpm_total_half_width);
  json out = {{"index", i + 1},
              {"offered_tpm", f.window.rate_tpm},
              {"start_seconds", f.window.start_seconds},
              {"window_start_seconds", f.window.window_start},
              {"end_seconds", f.window.end_seconds},
              {"window_seconds", f.window_seconds},
              {"intervals", f.intervals},
              {"partial", f.window.partial},
              {"tpmc", f.tpmc},
              {"tpm_total", f.tpm_total},
              {"tpm_total_ci95", known ? json::array({f.tpm_total - f.tpm_total_half_width,
                                                      f.tpm_total + f.tpm_total_half_width})
                                       : json(nullptr)},
              {"worst_p90_seconds", f.worst_p90_seconds},
              {"p90_within_limits", f.p90_within_limits},
              {"failed", f.failed},
              {"transactions", step_kinds_json(f)}};
  if (f.window.pacing) out["pacing"] = pace_json(*f.window.pacing);
  return out;
}

}  // namespace

void add_steps_json(nlohmann::json& doc, const run::run_result& r) {
  if (r.steps.empty()) return;
  const std::vector<step_figures> steps = step_figures_of(r);
  json list = json::array();
  for (std::size_t i = 0; i < steps.size(); ++i) {
    list.push_back(step_json(i, steps[i]));
    // CH-benCHmark: the streams each step ran (a step's streams=N).
    if (r.ch.ran()) list.back()["analytic_streams"] = steps[i].window.analytic_streams;
  }
  doc["steps"] = std::move(list);
  const knee_finding knee = knee_of(r, steps);
  doc["knee"] = {{"step", knee.step ? json(*knee.step + 1) : json(nullptr)}, {"why", knee.why}};
  json asked = json::array();
  for (const run::rate_step& s : r.config.schedule) {
    asked.push_back({{"rate_tpm", s.rate_tpm},
                     {"duration_seconds", std::chrono::duration<double>(s.duration).count()}});
    if (r.ch.ran()) asked.back()["analytic_streams"] = s.analytic_streams;
  }
  doc["config"]["schedule"] = std::move(asked);
  doc["config"]["knee_p90_seconds"] = std::chrono::duration<double>(r.config.knee_p90).count();
}

}  // namespace tpcc::report::detail
