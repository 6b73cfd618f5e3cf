// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/server_render.cpp: the server figures' families (see server_render.hpp).
#include "metrics/server_render.hpp"

#include <cmath>
#include <string_view>

namespace tpcc::metrics {
namespace {

void server_family(exposition& e, const server_stats::live_figures& f, server_stats::measure kind,
                   std::string_view name, std::string_view help) {
  e.family(name, kind == server_stats::measure::counter ? metric_type::counter : metric_type::gauge,
           help);
  for (std::size_t i = 0; i < f.figures.size() && i < f.values.size(); ++i) {
    if (f.figures[i].kind != kind || !std::isfinite(f.values[i])) continue;
    e.sample(name, {{"source", f.source}, {"figure", f.figures[i].key}}, f.values[i]);
  }
}

}  // namespace

void render_server(exposition& e, const server_stats::live_figures& f) {
  server_family(e, f, server_stats::measure::counter, "shoal_tpcc_server_total",
                "The database's own counters: growth since the run's first reading");
  server_family(e, f, server_stats::measure::gauge, "shoal_tpcc_server_value",
                "The database's own gauges at the latest reading");
  e.family("shoal_tpcc_server_sample_seconds", metric_type::gauge,
           "What the latest reading of the database's figures took");
  e.sample("shoal_tpcc_server_sample_seconds", f.last_sample_ms / 1000.0);
  e.family("shoal_tpcc_server_samples_total", metric_type::counter,
           "Readings of the database's figures so far");
  e.sample("shoal_tpcc_server_samples_total", static_cast<double>(f.samples));
}

}  // namespace tpcc::metrics
