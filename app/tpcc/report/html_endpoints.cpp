// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_endpoints.cpp: each endpoint in the HTML report (see html_endpoints.hpp).
#include "report/html_endpoints.hpp"

#include <algorithm>

#include "report/endpoints.hpp"
#include "report/html_chart.hpp"
#include "report/html_endpoint_kinds.hpp"
#include "report/html_sections.hpp"
#include "report/text.hpp"
#include "txn/kind.hpp"

namespace tpcc::report::html {
namespace {

std::string endpoint_count_cell(std::uint64_t n, bool failure) {
  return format(failure && n > 0 ? "<td class=\"fail\">%llu</td>" : "<td>%llu</td>",
                static_cast<unsigned long long>(n));
}

std::string endpoint_ms_cell(const stats::histogram& h, double fraction) {
  if (h.count() == 0) return "<td>-</td>";
  return format("<td>%.1f</td>", static_cast<double>(h.percentile(fraction)) / 1000.0);
}

std::string endpoint_row(const run::run_result& r, const run::endpoint_result& e) {
  const auto& no = e.results.kinds[txn::index(txn::kind::new_order)].response;
  const auto& pay = e.results.kinds[txn::index(txn::kind::payment)].response;
  std::string out;
  put(out, {"<tr><td>", escape(e.target), "</td>",
            format("<td>%lld-%lld</td><td>%.2f</td>", static_cast<long long>(e.first_warehouse),
                   static_cast<long long>(e.last_warehouse), endpoint_tpmc(r, e)),
            endpoint_count_cell(completed_all(e.results), false),
            endpoint_count_cell(failures_all(e.results), true),
            endpoint_count_cell(lost_all(e.results), true), endpoint_ms_cell(no, 0.9),
            endpoint_ms_cell(no, 0.99), endpoint_ms_cell(pay, 0.9), endpoint_ms_cell(pay, 0.99),
            "</tr>"});
  return out;
}

// One line per endpoint: its completed transactions per minute over the run.
std::string endpoints_chart(const run::run_result& r, const phases& p) {
  const std::size_t intervals = r.endpoints.front().series.size();
  if (intervals == 0) return {};
  const std::size_t per = std::max<std::size_t>(1, (intervals + max_points - 1) / max_points);
  chart c;
  c.label = "completed transactions per minute over time, per endpoint";
  c.x = time_axis(p);
  c.bands = phase_bands(p);
  double top = 1;
  std::string legend = "<div class=\"legend\">";
  for (std::size_t k = 0; k < r.endpoints.size(); ++k) {
    const std::string key = "endpoint-" + std::to_string(k + 1);
    const std::string css = "c-" + std::to_string(k % txn::kind_count);
    line l{key, css, r.endpoints[k].target,
           endpoint_per_minute(r.endpoints[k].series, per, txn::kind_count)};
    for (const point& pt : l.points) top = std::max(top, pt.y);
    legend += legend_button(key, css, r.endpoints[k].target);
    c.lines.push_back(std::move(l));
  }
  top = nice_ceiling(top * 1.05);
  c.y = {0, top, false, "completed per minute", linear_ticks(0, top, 5)};
  return "<figure><figcaption>Each endpoint's transactions committed or rolled back per minute, "
         "by the interval they ended in (every phase).</figcaption>" +
         render_svg(c) + legend + "</div></figure>";
}

}  // namespace

std::string endpoints_section(const run::run_result& r, const phases& p) {
  if (r.endpoints.empty()) return {};
  std::string rows;
  for (const run::endpoint_result& e : r.endpoints) rows += endpoint_row(r, e);
  return "<section id=\"endpoints\"><h2>Per endpoint (measurement interval)</h2><table><thead>"
         "<tr><th>endpoint</th><th>warehouses</th><th>tpmC</th><th>completed</th><th>failed</th>"
         "<th>lost</th><th>New-Order p90 ms</th><th>New-Order p99 ms</th><th>Payment p90 ms</th>"
         "<th>Payment p99 ms</th></tr></thead><tbody>" +
         rows +
         "</tbody></table><p>Failed counts every failure, lost ones included; the totals are "
         "the run's, and the verdict judges the whole run.</p>" +
         endpoints_chart(r, p) + endpoint_kinds_figure(r, p) + "</section>";
}

}  // namespace tpcc::report::html
