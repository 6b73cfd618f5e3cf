// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/ch_effect.cpp: the with/without-streams ratios side by side (see
// ch_effect.hpp).
#include "compare/ch_effect.hpp"

#include "report/html_chart.hpp"
#include "report/text.hpp"

namespace tpcc::compare {
namespace {

ch_effect_side ch_effect_side_of(const run::run_result& r) {
  return {r.ch.ran(), report::ch_step_effect_of(r)};
}

// Why a side has no ratio.
const char* ch_effect_missing(const ch_effect_side& s) noexcept {
  return s.ran_streams ? "no complete step with streams and one without"
                       : "a TPC-C run (no analytic streams)";
}

// "0.80x (tpmC 4800.0 with streams over 1 step, 6000.0 without over 1; 3600.0 queries per hour
// with)" or why not measured.
std::string ch_effect_side_text(const ch_effect_side& s) {
  if (!s.effect) return std::string("not measured: ") + ch_effect_missing(s);
  const report::ch_step_effect& e = *s.effect;
  return report::format(
      "%.2fx (tpmC %.1f with streams over %zu step%s, %.1f without over %zu; %.1f queries per "
      "hour with)",
      e.ratio(), e.tpmc_with, e.steps_with, e.steps_with == 1 ? "" : "s", e.tpmc_without,
      e.steps_without, e.queries_per_hour_with);
}

// "+0.10 (0.90x against 0.80x)", or "-" unless both have a ratio.
std::string ch_effect_difference_text(const ch_effect_comparison& c) {
  if (!c.a.effect || !c.b.effect) return "-";
  const double a = c.a.effect->ratio();
  const double b = c.b.effect->ratio();
  return report::format("%+.2f (%.2fx against %.2fx)", b - a, b, a);
}

nlohmann::json ch_effect_side_json(const ch_effect_side& s) {
  if (!s.effect) return {{"not_measured", ch_effect_missing(s)}};
  return report::ch_step_effect_json(*s.effect);
}

}  // namespace

ch_effect_comparison compare_ch_effect(const run::run_result& a, const run::run_result& b) {
  return {ch_effect_side_of(a), ch_effect_side_of(b)};
}

std::string ch_effect_text(const ch_effect_comparison& c) {
  if (!c.shown()) return {};
  return "\n  tpmC with analytic streams against without (--schedule steps with streams=N and "
         "0; shown, not judged):\n    A: " +
         ch_effect_side_text(c.a) + "\n    B: " + ch_effect_side_text(c.b) +
         "\n    B's ratio - A's: " + ch_effect_difference_text(c) + "\n";
}

nlohmann::json ch_effect_json(const ch_effect_comparison& c) {
  if (!c.shown()) return nullptr;
  const bool both = c.a.effect && c.b.effect;
  return {{"a", ch_effect_side_json(c.a)},
          {"b", ch_effect_side_json(c.b)},
          {"ratio_difference",
           both ? nlohmann::json(c.b.effect->ratio() - c.a.effect->ratio()) : nlohmann::json()}};
}

std::string ch_effect_html(const ch_effect_comparison& c) {
  if (!c.shown()) return {};
  return "<h3 id=\"ch-effect\">tpmC with analytic streams against without (shown, not "
         "judged)</h3><table class=\"compare\"><tbody><tr><td>A</td><td>" +
         report::html::escape(ch_effect_side_text(c.a)) + "</td></tr><tr><td>B</td><td>" +
         report::html::escape(ch_effect_side_text(c.b)) +
         "</td></tr><tr><td>B's ratio - A's</td><td>" +
         report::html::escape(ch_effect_difference_text(c)) + "</td></tr></tbody></table>";
}

}  // namespace tpcc::compare
