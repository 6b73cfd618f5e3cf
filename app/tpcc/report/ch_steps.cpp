// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/ch_steps.cpp: tpmC with analytic streams against without (see ch_steps.hpp).
#include "report/ch_steps.hpp"

#include <vector>

#include "report/steps.hpp"
#include "report/text.hpp"

namespace tpcc::report {
namespace {

// New-Orders and minutes added up over one side's steps.
struct ch_side_sums {
  double new_orders = 0, minutes = 0, queries = 0, query_seconds = 0;
  std::size_t steps = 0;
};

// The analytic series' intervals inside the step's window (as report/steps.hpp takes the
// transactions' intervals: to a quarter of an interval) into `side`.
void add_step_queries(const run::run_result& r, const run::step_window& w, ch_side_sums& side) {
  for (const run::ch_interval& i : r.ch.series) {
    const double slack = (i.end_seconds - i.start_seconds) / 4.0;
    if (i.start_seconds < w.window_start - slack || i.end_seconds > w.end_seconds + slack) continue;
    side.queries += static_cast<double>(i.completed);
    side.query_seconds += i.end_seconds - i.start_seconds;
  }
}

}  // namespace

std::optional<ch_step_effect> ch_step_effect_of(const run::run_result& r) {
  if (!r.ch.ran() || r.steps.empty()) return std::nullopt;
  ch_side_sums with, without;
  for (const step_figures& f : step_figures_of(r)) {
    if (f.window.partial || f.window_seconds <= 0) continue;
    ch_side_sums& side = f.window.analytic_streams > 0 ? with : without;
    side.new_orders += f.tpmc * f.window_seconds / 60.0;
    side.minutes += f.window_seconds / 60.0;
    ++side.steps;
    if (f.window.analytic_streams > 0) add_step_queries(r, f.window, side);
  }
  if (with.steps == 0 || without.steps == 0) return std::nullopt;
  ch_step_effect e;
  e.tpmc_with = with.new_orders / with.minutes;
  e.tpmc_without = without.new_orders / without.minutes;
  e.steps_with = with.steps;
  e.steps_without = without.steps;
  e.queries_per_hour_with = with.query_seconds > 0 ? with.queries * 3600 / with.query_seconds : 0;
  return e;
}

std::string ch_step_effect_text(const run::run_result& r) {
  const auto e = ch_step_effect_of(r);
  if (!e) return {};
  return format(
      "  tpmC with streams %.1f (%zu step%s) against %.1f without (%zu step%s): %.2fx; "
      "%.1f queries per hour in the steps with streams\n",
      e->tpmc_with, e->steps_with, e->steps_with == 1 ? "" : "s", e->tpmc_without, e->steps_without,
      e->steps_without == 1 ? "" : "s", e->ratio(), e->queries_per_hour_with);
}

nlohmann::json ch_step_effect_json(const run::run_result& r) {
  const auto e = ch_step_effect_of(r);
  if (!e) return nullptr;
  return ch_step_effect_json(*e);
}

nlohmann::json ch_step_effect_json(const ch_step_effect& e) {
  return {{"tpmc_without_streams", e.tpmc_without},
          {"tpmc_with_streams", e.tpmc_with},
          {"ratio", e.ratio()},
          {"steps_without", e.steps_without},
          {"steps_with", e.steps_with},
          {"queries_per_hour_with_streams", e.queries_per_hour_with}};
}

}  // namespace tpcc::report
