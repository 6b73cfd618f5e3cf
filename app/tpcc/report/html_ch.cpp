// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_ch.cpp: the analytic queries' table (see html_ch.hpp).
#include "report/html_ch.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

#include "report/ch_steps.hpp"
#include "report/html_chart.hpp"
#include "report/html_data.hpp"
#include "report/html_sections.hpp"
#include "report/summary.hpp"
#include "report/text.hpp"

namespace tpcc::report::html {
namespace {

std::string ch_cell_ms(const stats::histogram& h, double fraction) {
  if (h.count() == 0) return "<td>-</td>";
  return format("<td>%.1f</td>", static_cast<double>(h.percentile(fraction)) / 1000.0);
}

std::string ch_html_row(std::size_t index, const run::ch_query_totals& q) {
  std::string row = format("<tr><td>Q%zu</td><td>%llu</td>", index + 1,
                           static_cast<unsigned long long>(q.completed));
  row += format(q.failed > 0 ? "<td class=\"fail\">%llu</td>" : "<td>%llu</td>",
                static_cast<unsigned long long>(q.failed));
  row += format("<td>%llu</td>", static_cast<unsigned long long>(q.cancelled));
  row += ch_cell_ms(q.latency, 0.50) + ch_cell_ms(q.latency, 0.90) + ch_cell_ms(q.latency, 0.99);
  row += q.latency.count() == 0
             ? std::string("<td>-</td>")
             : format("<td>%.1f</td>", static_cast<double>(q.latency.max()) / 1000.0);
  row += q.last_rows < 0 ? std::string("<td>-</td>")
                         : format("<td>%lld</td>", static_cast<long long>(q.last_rows));
  return row + "</tr>";
}

// A chart over the run's time (its phases shaded) of `lines`, the y axis from 0 to their top.
std::string ch_time_chart(const run::run_result& r, std::string label, std::string y_title,
                          std::vector<line> lines) {
  chart c;
  const phases p = phases_of(r);
  c.label = std::move(label);
  c.x = time_axis(p);
  c.bands = phase_bands(p);
  double top = 1;
  for (const line& l : lines) {
    for (const point& at : l.points) top = std::max(top, at.y);
  }
  top = nice_ceiling(top * 1.05);
  c.y = {0, top, false, std::move(y_title), linear_ticks(0, top, 5)};
  c.lines = std::move(lines);
  c.width = 560;
  return render_svg(c);
}

// tpmC per interval (completed New-Orders per minute of each interval of the series).
std::string ch_tpmc_chart(const run::run_result& r) {
  line tpmc_line{"tpmc", "c-0", "tpmC", {}};
  for (const stats::interval_sample& i : r.series) {
    const double seconds = i.end_seconds - i.start_seconds;
    if (seconds <= 0) continue;
    const auto done = i.kinds[txn::index(txn::kind::new_order)].outcomes.completed();
    tpmc_line.points.push_back(
        {(i.start_seconds + i.end_seconds) / 2, static_cast<double>(done) * 60 / seconds});
  }
  return "<figure>" +
         ch_time_chart(r, "tpmC per interval", "New-Orders per minute", {std::move(tpmc_line)}) +
         "<figcaption>tpmC per interval (blue)</figcaption></figure>";
}

// The analytic queries completed (and failed) in each interval of the analytic series.
std::string ch_queries_chart(const run::run_result& r) {
  line done{"ch-completed", "c-1", "queries completed", {}};
  line failed{"ch-failed", "c-p99", "queries failed", {}};
  for (const run::ch_interval& i : r.ch.series) {
    const double middle = (i.start_seconds + i.end_seconds) / 2;
    done.points.push_back({middle, static_cast<double>(i.completed)});
    failed.points.push_back({middle, static_cast<double>(i.failed)});
  }
  return "<figure>" +
         ch_time_chart(r, "analytic queries completed per interval", "queries per interval",
                       {std::move(done), std::move(failed)}) +
         "<figcaption>analytic queries completed (orange) and failed (red) per interval, "
         "every phase</figcaption></figure>";
}

// The plot over time beside tpmC (id "ch-over-time"); a sentence when there is no series.
std::string ch_over_time(const run::run_result& r) {
  if (r.ch.series.empty()) {
    return "<p id=\"ch-over-time\">No analytic series over time in this result (one written "
           "before it was recorded, or a merge of such a result).</p>";
  }
  return "<div class=\"grid2\" id=\"ch-over-time\">" + ch_tpmc_chart(r) + ch_queries_chart(r) +
         "</div>";
}

// tpmC with streams against without, when the schedule had steps of both; else nothing.
std::string ch_effect_paragraph(const run::run_result& r) {
  const auto e = ch_step_effect_of(r);
  if (!e) return {};
  return format(
      "<p id=\"ch-effect\">tpmC with streams %.1f (%zu step%s) against %.1f without (%zu "
      "step%s): <b>%.2fx</b>; %.1f queries per hour in the steps with streams (each step over "
      "its window, without its settle time).</p>",
      e->tpmc_with, e->steps_with, e->steps_with == 1 ? "" : "s", e->tpmc_without, e->steps_without,
      e->steps_without == 1 ? "" : "s", e->ratio(), e->queries_per_hour_with);
}

}  // namespace

std::string ch_section(const run::run_result& r) {
  if (!r.ch.ran()) return {};
  std::string rows;
  for (std::size_t i = 0; i < r.ch.queries.size(); ++i) rows += ch_html_row(i, r.ch.queries[i]);
  return format(
             "<section id=\"ch\"><h2>CH-benCHmark: analytic queries (measurement "
             "interval)</h2><p>%lld stream%s, %.1f queries per hour beside tpmC %.2f "
             "(queries completed in the interval x 3600 / its measured seconds).</p>",
             static_cast<long long>(r.ch.streams), r.ch.streams == 1 ? "" : "s",
             r.ch.queries_per_hour(r.measured_seconds), tpmc(r)) +
         ch_effect_paragraph(r) + ch_over_time(r) +
         "<table><thead><tr><th>query</th><th>completed</th><th>failed</th><th>cancelled</th>"
         "<th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>max ms</th><th>rows</th></tr></thead>"
         "<tbody>" +
         rows +
         "</tbody></table><p>Cancelled: stopped by the run's end. Failures and cancellations "
         "count in every phase; rows: of the last completed execution.</p></section>";
}

}  // namespace tpcc::report::html
