// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/ch_render.cpp: the analytic streams' families (see ch_render.hpp).
#include "metrics/ch_render.hpp"

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "metrics/histogram_samples.hpp"

namespace tpcc::metrics {
namespace {

// "Q1" .. "Q22", in query order (append: g++ 12 warns a false -Wrestrict on "Q" + a temporary).
std::vector<std::string> ch_query_labels(std::size_t count) {
  std::vector<std::string> out;
  for (std::size_t i = 1; i <= count; ++i)
    out.push_back(std::string("Q").append(std::to_string(i)));
  return out;
}

void ch_counts(exposition& e, const run::ch_totals& ch, const std::vector<std::string>& names) {
  constexpr std::string_view name = "shoal_tpcc_ch_queries_total";
  e.family(name, metric_type::counter,
           "Analytic queries by query and outcome: completed inside the measurement interval, "
           "failed or cancelled (by the run's end) in any phase");
  for (std::size_t i = 0; i < ch.queries.size(); ++i) {
    const run::ch_query_totals& q = ch.queries[i];
    const std::array<std::pair<std::string_view, std::uint64_t>, 3> outcomes{
        {{"completed", q.completed}, {"failed", q.failed}, {"cancelled", q.cancelled}}};
    for (const auto& [outcome, n] : outcomes) {
      e.sample(name, {{"query", names[i]}, {"outcome", outcome}}, static_cast<double>(n));
    }
  }
}

void ch_latency(exposition& e, const run::ch_totals& ch, const std::vector<std::string>& names) {
  constexpr std::string_view name = "shoal_tpcc_ch_query_latency_seconds";
  e.family(name, metric_type::histogram,
           "Latency of the analytic queries completed inside the measurement interval, by query");
  for (std::size_t i = 0; i < ch.queries.size(); ++i) {
    histogram_samples(e, name, {"query", names[i]}, ch.queries[i].latency);
  }
}

}  // namespace

void render_ch(exposition& e, const run::ch_totals& ch, double measured_seconds) {
  e.family("shoal_tpcc_ch_streams", metric_type::gauge,
           "CH-benCHmark analytic streams this process runs");
  e.sample("shoal_tpcc_ch_streams", static_cast<double>(ch.streams));
  if (ch.active_streams >= 0) {
    e.family("shoal_tpcc_ch_active_streams", metric_type::gauge,
             "CH-benCHmark analytic streams running now (a --schedule step's streams=N)");
    e.sample("shoal_tpcc_ch_active_streams", static_cast<double>(ch.active_streams));
  }
  const std::vector<std::string> names = ch_query_labels(ch.queries.size());
  ch_counts(e, ch, names);
  ch_latency(e, ch, names);
  e.family("shoal_tpcc_ch_queries_per_hour", metric_type::gauge,
           "Analytic queries completed per hour of the measurement interval so far (QphH-like)");
  e.sample("shoal_tpcc_ch_queries_per_hour", ch.queries_per_hour(measured_seconds));
}

}  // namespace tpcc::metrics
