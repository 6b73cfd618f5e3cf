// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/ch_report.cpp: the analytic side in the summary and JSON (see ch_report.hpp).
#include "report/ch_report.hpp"

#include <cstddef>

#include "report/ch_steps.hpp"
#include "report/summary.hpp"
#include "report/text.hpp"

namespace tpcc::report {
namespace {

double ch_ms(std::uint64_t micros) { return static_cast<double>(micros) / 1000.0; }

std::string ch_percentile(const stats::histogram& h, double fraction) {
  return h.count() == 0 ? std::string("-") : format("%.1f", ch_ms(h.percentile(fraction)));
}

std::string ch_row(std::size_t index, const run::ch_query_totals& q) {
  return format(
      "  Q%-3zu %9llu %7llu %9llu %9s %9s %9s %9s %7s\n", index + 1,
      static_cast<unsigned long long>(q.completed), static_cast<unsigned long long>(q.failed),
      static_cast<unsigned long long>(q.cancelled), ch_percentile(q.latency, 0.50).c_str(),
      ch_percentile(q.latency, 0.90).c_str(), ch_percentile(q.latency, 0.99).c_str(),
      q.latency.count() == 0 ? "-" : format("%.1f", ch_ms(q.latency.max())).c_str(),
      q.last_rows < 0 ? "-" : std::to_string(q.last_rows).c_str());
}

nlohmann::json ch_query_json(std::size_t index, const run::ch_query_totals& q) {
  const stats::histogram& h = q.latency;
  const bool any = h.count() > 0;
  return {{"query", index + 1},
          {"completed", q.completed},
          {"failed", q.failed},
          {"cancelled", q.cancelled},
          {"p50_ms", any ? nlohmann::json(ch_ms(h.percentile(0.50))) : nlohmann::json()},
          {"p90_ms", any ? nlohmann::json(ch_ms(h.percentile(0.90))) : nlohmann::json()},
          {"p99_ms", any ? nlohmann::json(ch_ms(h.percentile(0.99))) : nlohmann::json()},
          {"max_ms", any ? nlohmann::json(ch_ms(h.max())) : nlohmann::json()},
          {"mean_ms", any ? nlohmann::json(h.mean() / 1000.0) : nlohmann::json()},
          {"last_rows", q.last_rows < 0 ? nlohmann::json() : nlohmann::json(q.last_rows)}};
}

// The analytic series: each interval's counts and p90 (exact microseconds: read back as is).
nlohmann::json ch_series_json(const std::vector<run::ch_interval>& series) {
  nlohmann::json out = nlohmann::json::array();
  for (const run::ch_interval& i : series) {
    out.push_back({{"start_seconds", i.start_seconds},
                   {"end_seconds", i.end_seconds},
                   {"completed", i.completed},
                   {"failed", i.failed},
                   {"cancelled", i.cancelled},
                   {"p90_us", i.p90_us}});
  }
  return out;
}

}  // namespace

const char* benchmark_name(const run::run_result& r) noexcept {
  return r.ch.ran() ? "CH-benCHmark" : "TPC-C";
}

std::string ch_summary_text(const run::run_result& r) {
  if (!r.ch.ran()) return {};
  const run::ch_totals& c = r.ch;
  std::string out = format(
      "\n  CH-benCHmark: %lld analytic stream%s, %.1f queries per hour beside tpmC %.1f\n"
      "  (QphH-like: queries completed in the interval x 3600 / its measured seconds)\n",
      static_cast<long long>(c.streams), c.streams == 1 ? "" : "s",
      c.queries_per_hour(r.measured_seconds), tpmc(r));
  out += format("  %-4s %9s %7s %9s %9s %9s %9s %9s %7s\n", "query", "completed", "failed",
                "cancelled", "p50 ms", "p90 ms", "p99 ms", "max ms", "rows");
  for (std::size_t i = 0; i < c.queries.size(); ++i) out += ch_row(i, c.queries[i]);
  out += format("  all  %9llu %7llu %9llu   (cancelled: stopped by the run's end)\n",
                static_cast<unsigned long long>(c.completed()),
                static_cast<unsigned long long>(c.failed()),
                static_cast<unsigned long long>(c.cancelled()));
  return out + ch_step_effect_text(r);
}

nlohmann::json ch_json(const run::run_result& r) {
  if (!r.ch.ran()) return nullptr;
  const run::ch_totals& c = r.ch;
  nlohmann::json queries = nlohmann::json::array();
  for (std::size_t i = 0; i < c.queries.size(); ++i)
    queries.push_back(ch_query_json(i, c.queries[i]));
  return {{"streams", c.streams},
          {"completed", c.completed()},
          {"failed", c.failed()},
          {"cancelled", c.cancelled()},
          {"measured_seconds", r.measured_seconds},
          {"queries_per_hour", c.queries_per_hour(r.measured_seconds)},
          {"tpmc", tpmc(r)},
          {"queries", std::move(queries)},
          {"series", ch_series_json(c.series)},
          {"series_p90",
           c.series_p90_max_of_shards ? "max of the merged shards' (an upper bound)" : "exact"},
          {"with_and_without_streams", ch_step_effect_json(r)}};
}

}  // namespace tpcc::report
