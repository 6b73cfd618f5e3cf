// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/client_summary.cpp: measurement-interval totals and the client-bound verdict
// (see client_summary.hpp).
#include "stats/client_summary.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

namespace tpcc::stats {
namespace {

// The part of [start, end) inside [from, to), in seconds.
double overlap(const interval_sample& s, double from, double to) {
  return std::max(0.0, std::min(s.end_seconds, to) - std::max(s.start_seconds, from));
}

void weigh_busy(client_totals& t, const std::vector<interval_sample>& series, double from,
                double to) {
  std::vector<double> busy_seconds;
  double covered = 0;
  for (const interval_sample& s : series) {
    const double inside = overlap(s, from, to);
    if (inside <= 0) continue;
    covered += inside;
    busy_seconds.resize(std::max(busy_seconds.size(), s.client.workers.size()), 0.0);
    for (std::size_t k = 0; k < s.client.workers.size(); ++k) {
      busy_seconds[k] += s.client.workers[k].busy * inside;
    }
  }
  t.worker_busy.clear();
  for (const double b : busy_seconds) t.worker_busy.push_back(covered > 0 ? b / covered : 0.0);
}

void weigh_cpu(client_totals& t, const std::vector<interval_sample>& series, double from,
               double to) {
  t.measure_cpu_seconds = 0;
  for (const interval_sample& s : series) {
    const double length = s.end_seconds - s.start_seconds;
    if (length <= 0) continue;
    t.measure_cpu_seconds += s.client.cpu_seconds * overlap(s, from, to) / length;
  }
}

void resident_with_terminals(client_totals& t, const std::vector<interval_sample>& series,
                             double from, std::int64_t terminals) {
  if (series.empty()) return;
  const auto reached = std::find_if(series.begin(), series.end(), [from](const interval_sample& s) {
    return s.end_seconds > from;
  });
  t.rss_with_terminals = (reached != series.end() ? *reached : series.back()).client.rss_bytes;
  if (terminals <= 0) return;
  const double grown =
      static_cast<double>(t.rss_with_terminals) - static_cast<double>(t.rss_before_terminals);
  t.bytes_per_terminal = std::max(0.0, grown) / static_cast<double>(terminals);
}

std::string describe_micros(std::uint64_t us) {
  std::array<char, 48> b{};
  if (us < 1000) {
    std::snprintf(b.data(), b.size(), "%llu us", static_cast<unsigned long long>(us));
  } else {
    std::snprintf(b.data(), b.size(), "%.1f ms", static_cast<double>(us) / 1000.0);
  }
  return b.data();
}

void add_reason(client_totals& t, const std::string& why) {
  t.client_bound = true;
  if (!t.client_bound_reason.empty()) t.client_bound_reason += "; ";
  t.client_bound_reason += why;
}

void judge_lag(client_totals& t, const char* what, const histogram& h, std::uint64_t limit_us) {
  const std::uint64_t p99 = h.percentile(0.99);
  if (h.count() == 0 || p99 <= limit_us) return;
  std::string why = what;
  why.append(" p99 ").append(describe_micros(p99));
  why.append(" over the measurement interval is above the limit of ");
  why.append(describe_micros(limit_us)).append(" (--client-lag-limit)");
  add_reason(t, why);
}

}  // namespace

void summarize_series(client_totals& totals, const std::vector<interval_sample>& series,
                      double from, double to, std::int64_t terminals) {
  weigh_busy(totals, series, from, to);
  weigh_cpu(totals, series, from, to);
  resident_with_terminals(totals, series, from, terminals);
}

void judge_client(client_totals& totals, std::chrono::nanoseconds lag_limit) {
  totals.client_bound = false;
  totals.client_bound_reason.clear();
  const auto limit_us = static_cast<std::uint64_t>(std::max<std::int64_t>(
      0, std::chrono::duration_cast<std::chrono::microseconds>(lag_limit).count()));
  judge_lag(totals, "timer lateness", totals.timer_lateness, limit_us);
  judge_lag(totals, "ready-queue delay", totals.queue_delay, limit_us);
  for (std::size_t k = 0; k < totals.worker_busy.size(); ++k) {
    if (totals.worker_busy[k] <= busy_limit) continue;
    std::array<char, 128> b{};
    std::snprintf(b.data(), b.size(),
                  "worker %zu busy %.0f %% of the measurement interval (above %.0f %%)", k,
                  totals.worker_busy[k] * 100.0, busy_limit * 100.0);
    add_reason(totals, b.data());
  }
}

}  // namespace tpcc::stats
