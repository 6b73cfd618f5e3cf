// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/server_csv.cpp: the server figures' CSV (see server_csv.hpp).
#include "report/server_csv.hpp"

#include <cmath>

#include "report/csv.hpp"
#include "report/text.hpp"

namespace tpcc::report {
namespace {

std::string server_cell(double v) { return std::isfinite(v) ? format("%.17g", v) : std::string(); }

}  // namespace

std::string format_server_csv(const server_stats::server_figures& f) {
  std::string out = "start_seconds,end_seconds,phase";
  for (const server_stats::figure_info& i : f.figures) out.append(",").append(i.key);
  out += ",sample_ms\r\n";
  for (const server_stats::server_interval& s : f.series) {
    out += format("%.3f,%.3f,", s.start_seconds, s.end_seconds) + s.phase;
    for (const double v : s.values) out.append(",").append(server_cell(v));
    out += format(",%.3f\r\n", s.sample_ms);
  }
  return out;
}

std::string server_csv_path(const std::string& csv_path, std::size_t server) {
  const std::string errors = errors_csv_path(csv_path);  // "<stem>.errors.csv"
  const std::string stem = errors.substr(0, errors.size() - std::string(".errors.csv").size());
  return server == 0 ? stem + ".server.csv" : stem + format(".server-%zu.csv", server + 1);
}

}  // namespace tpcc::report
