// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/render_json.cpp: comparisons as JSON (see render.hpp).
#include <cmath>
#include <nlohmann/json.hpp>

#include "compare/render.hpp"
#include "report/json_pace.hpp"
#include "report/text_file.hpp"

namespace tpcc::compare {
namespace {

using nlohmann::json;

json estimate_json(const estimate& e) {
  if (!e.known) return nullptr;
  return {{"value", e.value}, {"low", e.ci.low}, {"high", e.ci.high}};
}

json row_json(const row& r) {
  return {{"figure", r.figure},
          {"unit", r.unit},
          {"higher_is_better", r.higher_is_better},
          {"gated", r.gated},
          {"a", estimate_json(r.a)},
          {"b", estimate_json(r.b)},
          {"difference", r.judged == change::unknown ? json(nullptr) : json(r.difference)},
          {"difference_percent", r.judged == change::unknown ? json(nullptr) : json(r.percent)},
          {"judgement", describe(r.judged)}};
}

json names(const std::vector<const row*>& rows) {
  json out = json::array();
  for (const row* r : rows) out.push_back(r->figure);
  return out;
}

json step_side_json(const step_side& s) {
  return {
      {"tpm_total", s.tpm_total},
      {"tpm_total_half_width", std::isfinite(s.half_width) ? json(s.half_width) : json(nullptr)},
      {"worst_p90_ms", s.worst_p90_ms},
      {"partial", s.partial},
      {"pacing", s.pacing ? report::detail::pace_json(*s.pacing) : json(nullptr)}};
}

// "A", "B" or null: which run alone kept up with the step's rate (steps.hpp).
json kept_up_alone_json(kept_up_alone k) {
  if (k == kept_up_alone::neither_alone) return nullptr;
  return k == kept_up_alone::a ? "A" : "B";
}

// --schedule: null when neither ran one; else the lines and why they were not compared.
json steps_json(const step_comparison& s) {
  if (s.why_not.empty() && s.lines.empty()) return nullptr;
  json lines = json::array();
  for (const step_line& l : s.lines) {
    lines.push_back({{"step", l.step},
                     {"offered_tpm", l.offered_tpm},
                     {"a", step_side_json(l.a)},
                     {"b", step_side_json(l.b)},
                     {"tpm_total_difference_percent", l.percent},
                     {"kept_up_alone", kept_up_alone_json(l.kept_up_in_one)}});
  }
  return {{"lines", lines},
          {"kept_up_in_one_only", kept_up_differences(s)},
          {"not_compared", s.why_not.empty() ? json(nullptr) : json(s.why_not)}};
}

json comparison_json(const comparison& c, const std::optional<double>& fail_if_slower) {
  json config = json::array();
  for (const config_difference& d : c.config) {
    config.push_back(
        {{"setting", d.setting}, {"a", d.a}, {"b", d.b}, {"likely_cause", d.likely_cause}});
  }
  json rows = json::array();
  for (const row& r : c.rows) rows.push_back(row_json(r));
  return {{"a", c.file_a},
          {"b", c.file_b},
          {"config_differences", config},
          {"rows", rows},
          {"steps", steps_json(c.steps)},
          {"with_and_without_streams", ch_effect_json(c.ch_effect)},
          {"beyond_noise", names(beyond_noise(c))},
          {"slower", fail_if_slower ? names(gate(c, *fail_if_slower)) : json(nullptr)}};
}

}  // namespace

std::string to_json_text(const compare_report& r) {
  json comparisons = json::array();
  for (const comparison& c : r.comparisons) {
    comparisons.push_back(comparison_json(c, r.fail_if_slower));
  }
  const json doc = {
      {"format", "shoal-tpcc-comparison"},
      {"version", 1},
      {"interval",
       "simultaneous 99.999 % (the verdict's); overlapping: no difference beyond noise"},
      {"fail_if_slower_percent", r.fail_if_slower ? json(*r.fail_if_slower) : json(nullptr)},
      {"gate_failed", r.gate_failed()},
      {"comparisons", comparisons}};
  return doc.dump(1) + "\n";
}

std::optional<std::string> write_json(const compare_report& r, const std::string& path) {
  return report::write_text_file(path, to_json_text(r), "the comparison JSON");
}

}  // namespace tpcc::compare
