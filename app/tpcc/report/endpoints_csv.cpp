// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/endpoints_csv.cpp: each endpoint as CSV (see endpoints_csv.hpp).
#include "report/endpoints_csv.hpp"

#include <cctype>
#include <cstdint>
#include <initializer_list>

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
  endpoint_cell(out, e.server < 0 ? std::string() : std::to_string(e.server + 1));
  return out.append("\r\n");
}

std::string endpoint_series_row(std::size_t i, const stats::endpoint_interval& s) {
  std::string out = std::to_string(i + 1);
  endpoint_cell(out, format("%.3f", s.start_seconds));
  endpoint_cell(out, format("%.3f", s.end_seconds));
  endpoint_cell(out, stats::to_string(s.in));
  for (const std::uint64_t n : {s.completed, s.new_orders, s.failed, s.lost}) {
    endpoint_cell(out, std::to_string(n));
  }
  for (const std::size_t n : {s.pool_size, s.pool_in_use, s.pool_waiting}) {
    endpoint_cell(out, std::to_string(n));
  }
  for (const stats::endpoint_kind_interval& t : s.kinds) {
    endpoint_cell(out, std::to_string(t.completed));
    endpoint_cell(out, std::to_string(t.failed));
    endpoint_cell(out, t.completed > 0 ? format("%.3f", static_cast<double>(t.p90_us) / 1000.0)
                                       : std::string());
  }
  return out.append("\r\n");
}

// A type as a column name spells it: "New-Order" -> "new_order".
std::string endpoint_type_key(txn::kind k) {
  std::string out(txn::name(k));
  for (char& c : out) {
    c = c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// "<stem>" + `suffix`, the stem as errors_csv_path gives it.
std::string endpoint_csv_beside(const std::string& csv_path, const char* suffix) {
  const std::string errors = errors_csv_path(csv_path);  // "<stem>.errors.csv"
  return errors.substr(0, errors.size() - std::string(".errors.csv").size()) + suffix;
}

}  // namespace

std::string format_endpoint_series_csv(const run::run_result& r) {
  std::string out =
      "endpoint,start_seconds,end_seconds,phase,completed,new_orders,failed,lost,pool_size,"
      "pool_in_use,pool_waiting";
  for (const txn::kind k : txn::all_kinds) {
    const std::string key = endpoint_type_key(k);
    for (const char* column : {"_completed", "_failed", "_p90_ms"}) {
      endpoint_cell(out, key + column);
    }
  }
  out += "\r\n";
  for (std::size_t i = 0; i < r.endpoints.size(); ++i) {
    for (const stats::endpoint_interval& s : r.endpoints[i].series) {
      out += endpoint_series_row(i, s);
    }
  }
  return out;
}

std::string endpoint_series_csv_path(const std::string& csv_path) {
  return endpoint_csv_beside(csv_path, ".endpoint_series.csv");
}

std::string format_endpoints_csv(const run::run_result& r) {
  std::string out = "endpoint,target,first_warehouse,last_warehouse,type";
  for (const stats::outcome_info& o : stats::outcome_table) endpoint_cell(out, std::string(o.key));
  out += ",completed,failures,retries,p90_ms,p99_ms,server\r\n";
  for (std::size_t i = 0; i < r.endpoints.size(); ++i) {
    for (const txn::kind k : txn::all_kinds) out += endpoint_csv_row(i, r.endpoints[i], k);
  }
  return out;
}

std::string endpoints_csv_path(const std::string& csv_path) {
  return endpoint_csv_beside(csv_path, ".endpoints.csv");
}

}  // namespace tpcc::report
