// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_endpoints.cpp: each endpoint in the HTML report (see html_endpoints.hpp).
#include "report/html_endpoints.hpp"

#include "report/endpoints.hpp"
#include "report/html_chart.hpp"
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
            endpoint_count_cell(count_of(e.results, stats::txn_outcome::lost), true),
            endpoint_ms_cell(no, 0.9), endpoint_ms_cell(no, 0.99), endpoint_ms_cell(pay, 0.9),
            endpoint_ms_cell(pay, 0.99), "</tr>"});
  return out;
}

}  // namespace

std::string endpoints_section(const run::run_result& r) {
  if (r.endpoints.empty()) return {};
  std::string rows;
  for (const run::endpoint_result& e : r.endpoints) rows += endpoint_row(r, e);
  return "<section id=\"endpoints\"><h2>Per endpoint (measurement interval)</h2><table><thead>"
         "<tr><th>endpoint</th><th>warehouses</th><th>tpmC</th><th>completed</th><th>failed</th>"
         "<th>lost</th><th>New-Order p90 ms</th><th>New-Order p99 ms</th><th>Payment p90 ms</th>"
         "<th>Payment p99 ms</th></tr></thead><tbody>" +
         rows +
         "</tbody></table><p>Failed counts every failure, lost ones included; the totals are "
         "the run's, and the verdict judges the whole run.</p></section>";
}

}  // namespace tpcc::report::html
