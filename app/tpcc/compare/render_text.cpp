// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/render_text.cpp: comparisons as text (see render.hpp).
#include "compare/render.hpp"

#include "report/text.hpp"

namespace tpcc::compare {
namespace {

using report::format;

std::string value_text(const row& r, const estimate& e) {
  if (!e.known) return "-";
  const int d = decimals(r, e.value);
  return format("%.*f [%.*f-%.*f]", d, e.value, d, e.ci.low, d, e.ci.high);
}

std::string difference_text(const row& r) {
  if (r.judged == change::unknown) return "-";
  return format("%+.*f (%+.1f %%)", decimals(r, r.a.value), r.difference, r.percent);
}

std::string config_lines(const comparison& c) {
  if (c.config.empty()) return "  configuration: the same in every setting compared\n";
  std::string likely, other;
  for (const config_difference& d : c.config) {
    (d.likely_cause ? likely : other) +=
        format("    %-24s ", d.setting.c_str()) + d.a + "  ->  " + d.b + "\n";
  }
  std::string out;
  if (!likely.empty()) {
    out += "  configuration differs: the likely cause of any difference below\n" + likely;
  }
  if (!other.empty())
    out += "  also different (the precision or the draws, not the system)\n" + other;
  return out;
}

std::string row_line(const row& r) {
  std::string line =
      format("  %-22s %-30s %-30s %-22s ", r.figure.c_str(), value_text(r, r.a).c_str(),
             value_text(r, r.b).c_str(), difference_text(r).c_str());
  return line + describe(r.judged) + "\n";
}

// "tpmC slower (-40.0 %), New-Order p90 slower (+1900.0 %)".
std::string row_names(const std::vector<const row*>& rows) {
  std::string out;
  for (const row* r : rows) {
    if (!out.empty()) out += ", ";
    out += r->figure + (r->judged == change::faster ? " faster" : " slower") +
           format(" (%+.1f %%)", r->percent);
  }
  return out;
}

std::string summary_lines(const comparison& c, const std::optional<double>& fail_if_slower) {
  const auto changed = beyond_noise(c);
  std::string out = changed.empty() ? "  result: no difference beyond noise in any figure\n"
                                    : "  result: beyond noise: " + row_names(changed) + "\n";
  if (!fail_if_slower) return out;
  const auto slower = gate(c, *fail_if_slower);
  if (slower.empty()) {
    return out + format("  gate: passed (nothing slower by more than %g %% beyond noise)\n",
                        *fail_if_slower);
  }
  return out + "  gate: FAILED: " + c.file_b + " is slower than " + c.file_a +
         format(" by more than %g %% beyond noise: ", *fail_if_slower) + row_names(slower) + "\n";
}

// A step's achieved tpmTotal, its interval and its share of the offered rate.
std::string achieved_cell(const step_side& s, double offered_tpm) {
  return step_tpm_text(s) + " (" + step_achieved_text(s, offered_tpm) + ")";
}

// The steps where one run kept up and the other did not (steps.hpp), one line each.
std::string kept_up_lines(const step_comparison& s) {
  std::string out;
  for (const std::string& d : kept_up_differences(s))
    out += "  kept up in one run only: " + d + "\n";
  return out;
}

// --schedule: each step's offered rate, A's and B's achieved tpmTotal, backlog and worst p90
// (steps.hpp), or why not compared.
std::string steps_text(const step_comparison& s) {
  if (!s.why_not.empty()) return "\n  steps: not compared: " + s.why_not + "\n";
  if (s.lines.empty()) return {};
  std::string out =
      format("\n  %-5s %-10s %-32s %-32s %-10s %-30s %-30s %-12s %s\n", "step", "offered",
             "A achieved (95 %, of offered)", "B achieved (95 %, of offered)", "B - A", "A backlog",
             "B backlog", "A worst p90", "B worst p90");
  for (const step_line& l : s.lines) {
    out +=
        format("  %-5zu %-10.0f %-32s %-32s %-10s %-30s %-30s %-12s %s\n", l.step, l.offered_tpm,
               achieved_cell(l.a, l.offered_tpm).c_str(), achieved_cell(l.b, l.offered_tpm).c_str(),
               format("%+.1f %%", l.percent).c_str(), step_backlog_cell(l.a).c_str(),
               step_backlog_cell(l.b).c_str(), format("%.1f ms", l.a.worst_p90_ms).c_str(),
               format("%.1f ms", l.b.worst_p90_ms).c_str());
  }
  return out + kept_up_lines(s) +
         "  (per step: shown, not judged; the steps' intervals are 95 % ones; a backlog GREW "
         "when the database did not keep up with the step's rate)\n";
}

std::string comparison_text(const comparison& c, const std::optional<double>& fail_if_slower) {
  std::string out = "compare: B = " + c.file_b + " against A = " + c.file_a + " (the base)\n";
  out += config_lines(c);
  out += format("\n  %-22s %-30s %-30s %-22s %s\n", "figure", "A [interval]", "B [interval]",
                "B - A (%)", "judgement");
  for (const row& r : c.rows) out += row_line(r);
  out += steps_text(c.steps);
  out += ch_effect_text(c.ch_effect);
  return out + "\n" + summary_lines(c, fail_if_slower);
}

}  // namespace

int decimals(const row& r, double value) {
  if (r.unit != "ms" || value >= 100) return 1;
  return value >= 1 ? 2 : 3;
}

bool compare_report::gate_failed() const {
  if (!fail_if_slower) return false;
  for (const comparison& c : comparisons) {
    if (!gate(c, *fail_if_slower).empty()) return true;
  }
  return false;
}

std::string format_text(const compare_report& r) {
  std::string out;
  for (std::size_t i = 0; i < r.comparisons.size(); ++i) {
    if (i > 0) out += "\n";
    out += comparison_text(r.comparisons[i], r.fail_if_slower);
  }
  out +=
      "\nIntervals: the verdict's simultaneous 99.999 % ones; two that overlap are no difference "
      "beyond noise (docs/tpcc/compare.md).\n";
  return out;
}

}  // namespace tpcc::compare
