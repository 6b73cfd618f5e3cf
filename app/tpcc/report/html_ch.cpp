// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_ch.cpp: the analytic queries' table (see html_ch.hpp).
#include "report/html_ch.hpp"

#include <cstddef>

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
         "<table><thead><tr><th>query</th><th>completed</th><th>failed</th><th>cancelled</th>"
         "<th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>max ms</th><th>rows</th></tr></thead>"
         "<tbody>" +
         rows +
         "</tbody></table><p>Cancelled: stopped by the run's end. Failures and cancellations "
         "count in every phase; rows: of the last completed execution.</p></section>";
}

}  // namespace tpcc::report::html
