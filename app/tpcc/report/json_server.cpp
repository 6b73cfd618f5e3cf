// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_server.cpp: the "server" object of a result (see json_server.hpp).
#include "report/json_server.hpp"

#include <cmath>

namespace tpcc::report::detail {
namespace {

using nlohmann::json;

json number_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

json figure_values(const std::vector<server_stats::figure_info>& figures,
                   const std::vector<double>& values) {
  json out = json::object();
  for (std::size_t i = 0; i < figures.size() && i < values.size(); ++i) {
    out[figures[i].key] = number_or_null(values[i]);
  }
  return out;
}

json server_series(const server_stats::server_figures& f) {
  json out = json::array();
  for (const server_stats::server_interval& s : f.series) {
    out.push_back({{"start_seconds", s.start_seconds},
                   {"end_seconds", s.end_seconds},
                   {"phase", s.phase},
                   {"sample_ms", s.sample_ms},
                   {"values", figure_values(f.figures, s.values)}});
  }
  return out;
}

json top(const std::vector<server_stats::top_statement>& statements) {
  json out = json::array();
  for (const server_stats::top_statement& t : statements) {
    out.push_back(
        {{"query", t.query}, {"calls", t.calls}, {"total_ms", t.total_ms}, {"rows", t.rows}});
  }
  return out;
}

}  // namespace

json server_json(const server_stats::server_figures& f, const std::vector<std::string>& endpoints) {
  json figures = json::array();
  for (const server_stats::figure_info& i : f.figures) {
    figures.push_back(
        {{"key", i.key}, {"kind", i.kind == server_stats::measure::counter ? "counter" : "gauge"}});
  }
  json window = nullptr;
  if (!f.window.empty()) {
    window = {{"seconds", f.window_seconds}, {"values", figure_values(f.figures, f.window)}};
  }
  json out = {
      {"collected", f.collected()},
      {"source", f.source},
      {"not_collected", f.not_collected},
      {"figures", figures},
      {"series", server_series(f)},
      {"window", window},
      {"top_statements", top(f.top_statements)},
      {"notes", f.notes},
      {"cost",
       {{"samples", f.cost.samples}, {"mean_ms", f.cost.mean_ms}, {"max_ms", f.cost.max_ms}}}};
  if (!endpoints.empty()) out["endpoints"] = endpoints;
  return out;
}

}  // namespace tpcc::report::detail
