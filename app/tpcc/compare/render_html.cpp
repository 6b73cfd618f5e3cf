// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/render_html.cpp: comparisons as a self-contained HTML page (see render.hpp),
// in the result report's style (report/html_assets.hpp).
#include "compare/render.hpp"
#include "report/html_assets.hpp"
#include "report/html_chart.hpp"
#include "report/text.hpp"
#include "report/text_file.hpp"

namespace tpcc::compare {
namespace {

using report::format;
using report::put;
using report::html::escape;

std::string cell(const row& r, const estimate& e) {
  if (!e.known) return "<td>-</td>";
  const int d = decimals(r, e.value);
  return format("<td>%.*f <small>[%.*f-%.*f]</small></td>", d, e.value, d, e.ci.low, d, e.ci.high);
}

std::string row_html(const row& r) {
  std::string out = "<tr><td>" + escape(r.figure) + " <small>" + escape(r.unit) + "</small></td>";
  out += cell(r, r.a) + cell(r, r.b);
  out += r.judged == change::unknown
             ? std::string("<td>-</td>")
             : format("<td>%+.*f (%+.1f %%)</td>", decimals(r, r.a.value), r.difference, r.percent);
  put(out, {"<td", r.judged == change::slower ? " class=\"fail\"" : "", ">", describe(r.judged),
            "</td></tr>"});
  return out;
}

std::string config_html(const comparison& c) {
  if (c.config.empty()) return "<p>Configuration: the same in every setting compared.</p>";
  std::string out =
      "<table class=\"settings\"><thead><tr><th>setting</th><th>A</th><th>B</th>"
      "<th>weight</th></tr></thead><tbody>";
  for (const config_difference& d : c.config) {
    put(out,
        {"<tr><td>", escape(d.setting), "</td><td>", escape(d.a), "</td><td>", escape(d.b),
         "</td><td>", d.likely_cause ? "likely cause" : "precision or draws only", "</td></tr>"});
  }
  return out + "</tbody></table>";
}

std::string gate_html(const comparison& c, const std::optional<double>& fail_if_slower) {
  if (!fail_if_slower) return {};
  const auto slower = gate(c, *fail_if_slower);
  if (slower.empty()) return format("<p>Gate: passed (--fail-if-slower %g).</p>", *fail_if_slower);
  std::string names;
  for (const row* r : slower) names += (names.empty() ? "" : ", ") + r->figure;
  return format(
             "<div class=\"banner bad\">Gate FAILED (--fail-if-slower %g): slower beyond noise: ",
             *fail_if_slower) +
         escape(names) + "</div>";
}

// A step's backlog cell, marked as a failure when it grew.
std::string backlog_td(const step_side& s) {
  const bool grew = s.pacing && s.pacing->grew();
  return std::string(grew ? "<td class=\"fail\">" : "<td>") + escape(step_backlog_cell(s)) +
         "</td>";
}

// A step's achieved tpmTotal with its interval and its share of the offered rate.
std::string achieved_td(const step_side& s, double offered_tpm) {
  return "<td>" + escape(step_tpm_text(s)) + " <small>(" +
         escape(step_achieved_text(s, offered_tpm)) + ")</small></td>";
}

// The steps where one run kept up and the other did not (steps.hpp), as a banner.
std::string kept_up_html(const step_comparison& s) {
  const auto differences = kept_up_differences(s);
  if (differences.empty()) return {};
  std::string out = "<div class=\"banner bad\">Kept up in one run only:<ul>";
  for (const std::string& d : differences) out += "<li>" + escape(d) + "</li>";
  return out + "</ul></div>";
}

// --schedule: each step's offered rate, A's and B's achieved tpmTotal, backlog and worst p90
// (steps.hpp), or why not compared.
std::string steps_html(const step_comparison& s) {
  if (!s.why_not.empty()) return "<p>Steps: not compared: " + escape(s.why_not) + ".</p>";
  if (s.lines.empty()) return {};
  std::string out =
      "<h3>Steps (shown, not judged; 95 % intervals)</h3>" + kept_up_html(s) +
      "<table class=\"compare\"><thead><tr><th>step</th><th>offered tpm</th>"
      "<th>A achieved tpm</th><th>B achieved tpm</th><th>B - A</th><th>A backlog</th>"
      "<th>B backlog</th><th>A worst p90</th><th>B worst p90</th></tr></thead><tbody>";
  for (const step_line& l : s.lines) {
    put(out, {format("<tr><td>%zu</td><td>%.0f</td>", l.step, l.offered_tpm),
              achieved_td(l.a, l.offered_tpm), achieved_td(l.b, l.offered_tpm),
              format("<td>%+.1f %%</td>", l.percent), backlog_td(l.a), backlog_td(l.b),
              format("<td>%.1f ms</td><td>%.1f ms</td></tr>", l.a.worst_p90_ms, l.b.worst_p90_ms)});
  }
  return out + "</tbody></table>";
}

std::string section(const comparison& c, const std::optional<double>& fail_if_slower) {
  std::string out = "<section class=\"card\"><h2>B = " + escape(c.file_b) +
                    " against A = " + escape(c.file_a) + "</h2>";
  put(out, {"<h3>Configuration differences (named first: the likely cause)</h3>", config_html(c),
            gate_html(c, fail_if_slower),
            "<h3>Figures</h3><table class=\"compare\"><thead><tr><th>figure</th>"
            "<th>A [interval]</th><th>B [interval]</th><th>B - A (%)</th><th>judgement</th>"
            "</tr></thead><tbody>"});
  for (const row& r : c.rows) out += row_html(r);
  return out + "</tbody></table>" + steps_html(c.steps) + ch_effect_html(c.ch_effect) +
         "</section>\n";
}

}  // namespace

std::string format_html(const compare_report& r) {
  std::string out =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>shoal-tpcc comparison</title><style>";
  put(out, {report::html::style,
            "</style></head>\n<body><main><header class=\"card\">"
            "<h1>shoal-tpcc comparison</h1><p class=\"sub\">Intervals: the "
            "verdict's simultaneous 99.999 % ones; two that overlap are no "
            "difference beyond noise.</p></header>\n"});
  for (const comparison& c : r.comparisons) out += section(c, r.fail_if_slower);
  return out +
         "<footer>Generated by shoal-tpcc compare. Definitions: docs/tpcc/compare.md."
         "</footer></main></body></html>\n";
}

std::optional<std::string> write_html(const compare_report& r, const std::string& path) {
  return report::write_text_file(path, format_html(r), "the comparison HTML");
}

}  // namespace tpcc::compare
