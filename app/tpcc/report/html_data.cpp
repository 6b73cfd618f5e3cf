// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_data.cpp: chart data from a run_result (see html_data.hpp).
#include "report/html_data.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

namespace tpcc::report::html {
namespace {

using buckets_t = std::vector<std::pair<std::uint32_t, std::uint64_t>>;

double seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

// One point from series[first, last).
void add_point(timeline& t, const std::vector<stats::interval_sample>& series, std::size_t first,
               std::size_t last) {
  const double from = series[first].start_seconds, to = series[last - 1].end_seconds;
  const double minutes = (to - from) / 60.0;
  t.seconds.push_back((from + to) / 2);
  for (std::size_t k = 0; k < txn::kind_count; ++k) {
    std::uint64_t done = 0;
    buckets_t merged;
    for (std::size_t i = first; i < last; ++i) {
      const stats::interval_kind& v = series[i].kinds[k];
      done += v.outcomes.completed();
      merged.insert(merged.end(), v.response.buckets.begin(), v.response.buckets.end());
    }
    t.per_minute[k].push_back(minutes > 0 ? static_cast<double>(done) / minutes : 0.0);
    for (std::size_t f = 0; f < latency_fractions.size(); ++f) {
      t.ms[k][f].push_back(
          merged.empty() ? std::numeric_limits<double>::quiet_NaN()
                         : static_cast<double>(percentile(merged, latency_fractions[f])) / 1000.0);
    }
  }
}

// Whether what follows the point [first, last) is a stretch shorter than half of it (the run's
// final, partial interval): drawn alone, a few transactions over a sliver of time would be
// rated as a spike that sets the chart's scale.
bool short_tail(const std::vector<stats::interval_sample>& series, std::size_t first,
                std::size_t last, std::size_t per) {
  if (series.size() - last > per) return false;
  const double point = series[last - 1].end_seconds - series[first].start_seconds;
  const double tail = series.back().end_seconds - series[last].start_seconds;
  return tail < point / 2;
}

}  // namespace

phases phases_of(const run::run_result& r) {
  phases p;
  p.run_end = std::max(0.0, std::chrono::duration<double>(r.ended - r.started).count());
  if (!r.series.empty()) p.run_end = std::max(p.run_end, r.series.back().end_seconds);
  p.warmup_end = std::min(seconds(r.config.warmup), p.run_end);
  p.measure_end = std::min(p.warmup_end + std::max(0.0, r.measured_seconds), p.run_end);
  return p;
}

timeline timeline_of(const std::vector<stats::interval_sample>& series, std::size_t points) {
  timeline t;
  if (series.empty()) return t;
  const std::size_t per = (series.size() + points - 1) / std::max<std::size_t>(points, 1);
  t.intervals_per_point = std::max<std::size_t>(per, 1);
  for (std::size_t first = 0; first < series.size(); first += t.intervals_per_point) {
    std::size_t last = std::min(series.size(), first + t.intervals_per_point);
    if (last < series.size() && short_tail(series, first, last, t.intervals_per_point)) {
      last = series.size();  // the run's last, partial stretch joins this point
    }
    add_point(t, series, first, last);
    if (last == series.size()) break;
  }
  return t;
}

std::uint64_t percentile(buckets_t buckets, double fraction) {
  std::sort(buckets.begin(), buckets.end());
  std::uint64_t total = 0;
  for (const auto& b : buckets) total += b.second;
  if (total == 0) return 0;
  const double wanted = std::ceil(std::clamp(fraction, 0.0, 1.0) * static_cast<double>(total));
  const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(wanted));
  std::uint64_t seen = 0;
  for (const auto& [index, n] : buckets) {
    seen += n;
    if (seen >= rank) return stats::bucket::upper_edge(index);
  }
  return stats::bucket::upper_edge(buckets.back().first);
}

std::vector<point> percentile_curve(const stats::histogram& h) {
  std::vector<point> curve;
  if (h.count() == 0) return curve;
  // Beyond 1 / count the curve would only repeat the maximum; at least up to p90.
  const double last = std::clamp(std::log10(static_cast<double>(h.count())), 1.0, 5.0);
  constexpr double step = 0.025;
  for (double x = 0; x <= last + 1e-9; x += step) {
    const double p = 1 - std::pow(10.0, -x);
    curve.push_back({x, static_cast<double>(h.percentile(p)) / 1000.0});
  }
  curve.push_back({last, static_cast<double>(h.max()) / 1000.0});
  return curve;
}

}  // namespace tpcc::report::html
