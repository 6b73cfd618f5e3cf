// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/server_render.cpp: the server figures' families (see server_render.hpp).
#include "metrics/server_render.hpp"

#include <cmath>
#include <string_view>

namespace tpcc::metrics {
namespace {

using server_list = std::vector<run::server_totals>;

// One sample of a server family, labelled with `s`'s target when it has one, then `figure`'s key
// and source when given.
void server_sample(exposition& e, std::string_view name, const run::server_totals& s,
                   std::string_view figure, double value) {
  const std::string& server = s.target;
  const std::string& source = s.figures.source;
  if (figure.empty() && server.empty()) {
    e.sample(name, value);
  } else if (figure.empty()) {
    e.sample(name, {{"server", server}}, value);
  } else if (server.empty()) {
    e.sample(name, {{"source", source}, {"figure", figure}}, value);
  } else {
    e.sample(name, {{"server", server}, {"source", source}, {"figure", figure}}, value);
  }
}

void server_family(exposition& e, const server_list& servers, server_stats::measure kind,
                   std::string_view name, std::string_view help) {
  e.family(name, kind == server_stats::measure::counter ? metric_type::counter : metric_type::gauge,
           help);
  for (const run::server_totals& s : servers) {
    const server_stats::live_figures& f = s.figures;
    for (std::size_t i = 0; i < f.figures.size() && i < f.values.size(); ++i) {
      if (f.figures[i].kind != kind || !std::isfinite(f.values[i])) continue;
      server_sample(e, name, s, f.figures[i].key, f.values[i]);
    }
  }
}

}  // namespace

void render_servers(exposition& e, const server_list& servers) {
  if (servers.empty()) return;
  server_family(e, servers, server_stats::measure::counter, "shoal_tpcc_server_total",
                "The database's own counters: growth since the run's first reading");
  server_family(e, servers, server_stats::measure::gauge, "shoal_tpcc_server_value",
                "The database's own gauges at the latest reading");
  e.family("shoal_tpcc_server_sample_seconds", metric_type::gauge,
           "What the latest reading of the database's figures took");
  for (const run::server_totals& s : servers) {
    server_sample(e, "shoal_tpcc_server_sample_seconds", s, {}, s.figures.last_sample_ms / 1000.0);
  }
  e.family("shoal_tpcc_server_samples_total", metric_type::counter,
           "Readings of the database's figures so far");
  for (const run::server_totals& s : servers) {
    server_sample(e, "shoal_tpcc_server_samples_total", s, {},
                  static_cast<double>(s.figures.samples));
  }
}

void render_server(exposition& e, const server_stats::live_figures& f) {
  render_servers(e, {{std::string(), f}});
}

}  // namespace tpcc::metrics
