// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/endpoints_csv.cpp: each endpoint as CSV (see endpoints_csv.hpp).
#include "report/endpoints_csv.hpp"

#include "report/csv.hpp"
#include "report/text.hpp"
#include "txn/kind.hpp"

namespace tpcc::report {
namespace {

// RFC 4180: quoted, quotes doubled, when the text holds a comma, a quote or a line break.
std::string endpoint_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (const char c : text) out.append(c == '"' ? "\"\"" : std::string(1, c));
  return out + "\"";
}

std::string endpoint_percentile(const stats::histogram& h, double fraction) {
  if (h.count() == 0) return "";
  return format("%.3f", static_cast<double>(h.percentile(fraction)) / 1000.0);
}

// Appends ",text" (append, not operator+ on a temporary: g++ 12 warns a false -Wrestrict on
// `"," + std::to_string(n)`).
void endpoint_cell(std::string& out, const std::string& text) { out.append(",").append(text); }

std::string endpoint_csv_row(std::size_t i, const run::endpoint_result& e, txn::kind k) {
  const stats::kind_totals& t = e.results.kinds[txn::index(k)];
  std::string out = std::to_string(i + 1);
  endpoint_cell(out, endpoint_field(e.target));
  endpoint_cell(out, std::to_string(e.first_warehouse));
  endpoint_cell(out, std::to_string(e.last_warehouse));
  endpoint_cell(out, std::string(txn::name(k)));
  for (const stats::outcome_info& o : stats::outcome_table) {
    endpoint_cell(out, std::to_string(t.outcomes[o.outcome]));
  }
  endpoint_cell(out, std::to_string(t.outcomes.completed()));
  endpoint_cell(out, std::to_string(t.outcomes.failures()));
  endpoint_cell(out, std::to_string(t.retries));
  endpoint_cell(out, endpoint_percentile(t.response, 0.9));
  endpoint_cell(out, endpoint_percentile(t.response, 0.99));
  return out.append("\r\n");
}

}  // namespace

std::string format_endpoints_csv(const run::run_result& r) {
  std::string out = "endpoint,target,first_warehouse,last_warehouse,type";
  for (const stats::outcome_info& o : stats::outcome_table) endpoint_cell(out, std::string(o.key));
  out += ",completed,failures,retries,p90_ms,p99_ms\r\n";
  for (std::size_t i = 0; i < r.endpoints.size(); ++i) {
    for (const txn::kind k : txn::all_kinds) out += endpoint_csv_row(i, r.endpoints[i], k);
  }
  return out;
}

std::string endpoints_csv_path(const std::string& csv_path) {
  const std::string errors = errors_csv_path(csv_path);  // "<stem>.errors.csv"
  return errors.substr(0, errors.size() - std::string(".errors.csv").size()) + ".endpoints.csv";
}

}  // namespace tpcc::report
