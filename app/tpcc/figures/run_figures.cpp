// SPDX-License-Identifier: Apache-2.0
// app/tpcc/figures/run_figures.cpp: figures derived from a live_view (see run_figures.hpp).
#include "figures/run_figures.hpp"

#include <algorithm>
#include <numeric>

#include "report/summary.hpp"
#include "report/text.hpp"

namespace tpcc::figures {
namespace {

using std::chrono::duration;

double window_seconds(const run::live_view& v) {
  const double planned = duration<double>(v.window.window_end - v.window.window_start).count();
  return planned > 0 ? planned : v.measure_seconds;
}

std::optional<std::uint64_t> pool_wait_p90(const run::live_view& v) {
  stats::histogram queued;
  if (v.last) {
    for (const auto& k : v.last->kinds) queued.merge(k.queued.expand());
  }
  if (queued.count() == 0) {
    for (const auto& k : v.window.kinds) queued.merge(k.queued);
  }
  if (queued.count() == 0) return std::nullopt;
  return queued.percentile(0.9);
}

std::string over_limit(const char* what, std::uint64_t us, std::chrono::nanoseconds limit) {
  std::string out = what;
  out.append(" p99 ")
      .append(report::format("%.1f", static_cast<double>(us) / 1000.0))
      .append(" ms > limit ");
  out.append(report::format("%.1f", std::chrono::duration<double, std::milli>(limit).count()))
      .append(" ms");
  return out;
}

}  // namespace

client_verdict client_lag(const stats::client_sample& c, std::chrono::nanoseconds limit) {
  const auto limit_us = static_cast<std::uint64_t>(limit.count() / 1000);
  if (c.lateness_p99_us > limit_us) {
    return {true, over_limit("timer lateness", c.lateness_p99_us, limit)};
  }
  if (c.queue_delay_p99_us > limit_us) {
    return {true, over_limit("ready-queue delay", c.queue_delay_p99_us, limit)};
  }
  if (c.workers.empty()) return {};
  const double busy = std::accumulate(c.workers.begin(), c.workers.end(), 0.0,
                                      [](double sum, const auto& w) { return sum + w.busy; }) /
                      static_cast<double>(c.workers.size());
  if (busy >= saturated_busy) {
    return {true, "workers " + report::format("%.0f", busy * 100) + "% busy (saturated)"};
  }
  return {};
}

run_figures figures_of(const run_screen& s) {
  const run::live_view& v = s.view;
  run_figures f;
  f.planned_seconds = v.warmup_seconds + v.measure_seconds;
  f.measured_seconds = std::clamp(v.elapsed_seconds - v.warmup_seconds, 0.0, window_seconds(v));
  if (f.measured_seconds > 0) {
    const auto completed = report::completed_new_orders(v.window);
    f.tpmc = static_cast<double>(completed) * 60.0 / f.measured_seconds;
    const auto all = report::completed_transactions(v.window);
    f.tpm_total = static_cast<double>(all) * 60.0 / f.measured_seconds;
  }
  if (s.wait_scale > 0 && s.rate_tpm <= 0 && v.warehouses > 0) {
    const double max =
        report::max_tpmc_per_warehouse / s.wait_scale * static_cast<double>(v.warehouses);
    f.efficiency = f.tpmc / max;
  }
  f.remaining_seconds = std::max(0.0, f.planned_seconds - v.elapsed_seconds);
  if (v.now == run::phase::draining || v.now == run::phase::done) f.remaining_seconds = 0;
  f.progress =
      f.planned_seconds > 0 ? std::clamp(v.elapsed_seconds / f.planned_seconds, 0.0, 1.0) : 0.0;
  if (f.remaining_seconds == 0 && v.now != run::phase::warmup) f.progress = 1.0;
  f.pool_wait_p90_us = pool_wait_p90(v);
  if (v.last) f.client = client_lag(v.last->client, s.client_lag_limit);
  return f;
}

double interval_rate(const stats::interval_sample& s, std::size_t kind) {
  const double seconds = s.end_seconds - s.start_seconds;
  if (seconds <= 0) return 0;
  const auto& k = s.kinds[kind];
  return static_cast<double>(k.outcomes.completed()) / seconds;
}

}  // namespace tpcc::figures
