// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_steps.cpp: the steps' curve and table (see html_steps.hpp).
#include "report/html_steps.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "report/html_chart.hpp"
#include "report/steps.hpp"
#include "report/text.hpp"

namespace tpcc::report::html {
namespace {

double worst_p99_of(const step_figures& f) {
  double most = 0;
  for (const step_kind& k : f.kinds) most = std::max(most, k.p99_seconds);
  return most;
}

axis offered_axis(const std::vector<step_figures>& steps) {
  double top = 1;
  for (const step_figures& f : steps) top = std::max(top, f.window.rate_tpm * 1.08);
  return {0, top, false, "offered per minute", linear_ticks(0, top, 6)};
}

// The knee's step as a narrow shaded band, labelled; none when there is no knee.
std::vector<band> knee_band(const std::vector<step_figures>& steps, const knee_finding& knee,
                            const axis& x) {
  if (!knee.step) return {};
  const double at = steps[*knee.step].window.rate_tpm;
  const double half = (x.max - x.min) / 100;
  return {{at - half, at + half, "drain", "knee"}};
}

std::string throughput_chart(const std::vector<step_figures>& steps, const knee_finding& knee) {
  chart c;
  c.label = "achieved transactions per minute against the offered rate, per step";
  c.x = offered_axis(steps);
  c.bands = knee_band(steps, knee, c.x);
  c.y = c.x;
  c.y.title = "per minute";
  line achieved{"achieved", "c-0", "tpmTotal achieved", {}};
  line offered{"offered", "c-p50", "offered", {}};
  for (const step_figures& f : steps) {
    achieved.points.push_back({f.window.rate_tpm, f.tpm_total});
    offered.points.push_back({f.window.rate_tpm, f.window.rate_tpm});
  }
  c.lines = {offered, achieved};
  c.width = 560;
  return "<figure>" + render_svg(c) +
         "<figcaption>tpmTotal achieved (blue) against offered (teal)</figcaption></figure>";
}

std::string latency_chart(const std::vector<step_figures>& steps, const knee_finding& knee) {
  chart c;
  c.label = "the worst type's p90 and p99 response time per step";
  c.x = offered_axis(steps);
  c.bands = knee_band(steps, knee, c.x);
  line p90{"p90", "c-p90", "worst p90", {}};
  line p99{"p99", "c-p99", "worst p99", {}};
  double top = 0;
  for (const step_figures& f : steps) {
    p90.points.push_back({f.window.rate_tpm, f.worst_p90_seconds});
    p99.points.push_back({f.window.rate_tpm, worst_p99_of(f)});
    top = std::max(top, worst_p99_of(f));
  }
  top = std::max(top * 1.1, 0.001);
  c.y = {0, top, false, "seconds", linear_ticks(0, top, 5)};
  c.lines = {p90, p99};
  c.width = 560;
  return "<figure>" + render_svg(c) +
         "<figcaption>worst p90 (blue) and p99 (red) of any type, seconds</figcaption></figure>";
}

// The backlog cell's class: fail when it grew; none when the step has no --rate figures.
const char* backlog_class(const step_figures& f) {
  if (!f.window.pacing) return "";
  return f.window.pacing->grew() ? "fail" : "pass";
}

std::string step_row(std::size_t i, const step_figures& f) {
  const std::string spread = std::isfinite(f.tpm_total_half_width)
                                 ? format("&plusmn;%.0f", f.tpm_total_half_width)
                                 : std::string("?");
  return format(
      "<tr><td>%zu%s</td><td>%.0f</td><td>%.0f %s</td><td>%.0f</td><td>%.3f</td><td>%.3f</td>"
      "<td class=\"%s\">%s</td><td>%llu</td><td class=\"%s\">%s</td></tr>",
      i + 1, f.window.partial ? " (partial)" : "", f.window.rate_tpm, f.tpm_total, spread.c_str(),
      f.tpmc, f.worst_p90_seconds, worst_p99_of(f), f.p90_within_limits ? "pass" : "fail",
      f.p90_within_limits ? "within" : "OVER", static_cast<unsigned long long>(f.failed),
      backlog_class(f), escape(step_backlog_text(f)).c_str());
}

}  // namespace

std::string steps_section(const run::run_result& r) {
  if (r.steps.empty()) return {};
  const std::vector<step_figures> steps = step_figures_of(r);
  const knee_finding knee = knee_of(r, steps);
  std::string out =
      "<section id=\"steps\"><h2>Steps (--schedule, NOT TPC-C)</h2><p class=\"sub\">Each step "
      "measured over its own window, after a settle time (a quarter of the step, at most 5 s). "
      "Knee: ";
  const std::string_view table_head =
      "</div><table><thead><tr><th>step</th><th>offered tpm</th><th>tpmTotal (95 %)</th>"
      "<th>tpmC</th><th>worst p90 s</th><th>worst p99 s</th><th>p90 limits</th>"
      "<th>failed</th><th>backlog</th></tr></thead><tbody>";
  put(out, {escape(knee.why), "</p><div class=\"grid2\">", throughput_chart(steps, knee),
            latency_chart(steps, knee), table_head});
  for (std::size_t i = 0; i < steps.size(); ++i) out += step_row(i, steps[i]);
  return out + "</tbody></table></section>";
}

}  // namespace tpcc::report::html
