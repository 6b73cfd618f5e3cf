// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/monitor.cpp: the sampling loop and the client totals (see monitor.hpp).
#include "run/monitor.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"
#include "stats/client_summary.hpp"

namespace tpcc::run {
namespace {

// Samples on the grid started + n * interval, and at the measurement window's edges, until
// stopped; holds a gate token meanwhile.
shoal::task<void> sample_loop(shoal::gate_token token, monitor& m) {
  stats::clock::time_point next = m.started() + m.interval();
  while (true) {
    const stats::clock::time_point cut = m.next_cut(next);
    const bool due = co_await shoal::sleep_until(cut);
    if (!due) break;
    m.sample();
    if (next - cut >= m.interval() / 10) continue;  // a window edge between two grid points
    next += m.interval();  // the grid point, or an edge that took its place
    const auto now = stats::clock::now();
    if (next < now) next = now + m.interval();  // fell behind: skip, never sample in a burst
  }
  token.reset();  // leaves the gate
}

}  // namespace

monitor::monitor(shoal::thread_pool& pool, driver::database& db, const stats::recorder& rec,
                 run_control& control, stats::clock::time_point started,
                 std::chrono::nanoseconds interval)
    : pool_(pool),
      db_(db),
      recorder_(rec),
      control_(control),
      started_(started),
      interval_(interval),
      last_cut_(started),
      probes_(pool.size(), rec),
      at_start_(stats::read_process_usage()),
      last_usage_(at_start_),
      last_busy_(pool.size(), 0.0),
      last_resumed_(pool.size(), 0) {
  for (std::size_t k = 0; k < pool.size(); ++k) last_resumed_[k] = pool.stats(k).resumed;
}

void monitor::start() {
  probes_.start(pool_, gate_, stop_.get_token());
  pool_.spawn(shoal::with_stop_token(stop_.get_token(), sample_loop(gate_.enter(), *this)));
}

shoal::task<void> monitor::stop() {
  stop_.request_stop();
  const bool emptied = co_await gate_.close();
  static_cast<void>(emptied);  // nothing cancels this wait
}

double monitor::since_start(stats::clock::time_point t) const {
  return std::chrono::duration<double>(t - started_).count();
}

stats::clock::time_point monitor::next_cut(stats::clock::time_point grid) const {
  // An edge within a tenth of an interval of the grid point takes its place: no sliver.
  const auto [start, end] = recorder_.window();
  const stats::clock::time_point near = grid + interval_ / 10;
  std::optional<stats::clock::time_point> cut;
  for (const stats::clock::time_point edge : {start, end}) {
    if (edge > last_cut_ && edge < near && (!cut || edge < *cut)) cut = edge;
  }
  return cut.value_or(grid);
}

stats::phase monitor::phase_from(double start_seconds) const {
  const auto [start, end] = recorder_.window();
  if (start_seconds < since_start(start)) return stats::phase::warmup;
  return start_seconds < since_start(end) ? stats::phase::measuring : stats::phase::draining;
}

void monitor::sample() {
  const auto now = stats::clock::now();
  last_cut_ = now;
  const double end = since_start(now);
  const double length = end - sampler_.last_end_seconds();
  // The interval's phase is where it starts: it ends at a window edge or a grid point.
  const stats::phase in = phase_from(sampler_.last_end_seconds());
  stats::interval_sample s = sampler_.next(recorder_.take_all(), end, in);
  s.client = client_now(length);
  control_.publish_interval(s);
  series_.push_back(std::move(s));
  for (const cut_listener& told : on_cut_) told(end, in, phase_from(end));
}

stats::client_sample monitor::client_now(double seconds) {
  stats::client_sample c;
  stats::histogram lateness, queued;
  for (std::size_t k = 0; k < probes_.size(); ++k) {
    const probe_interval p = probes_.take(k);
    lateness.merge(p.lateness);
    queued.merge(p.queue_delay);
    stats::worker_sample w;
    last_busy_[k] = p.busy().value_or(last_busy_[k]);
    w.busy = last_busy_[k];
    const std::uint64_t resumed = pool_.stats(k).resumed;
    w.resumed_per_second =
        seconds > 0 ? static_cast<double>(resumed - last_resumed_[k]) / seconds : 0.0;
    last_resumed_[k] = resumed;
    w.lateness_max_us = p.lateness.max();
    w.queue_delay_max_us = p.queue_delay.max();
    c.workers.push_back(w);
  }
  c.lateness_p99_us = lateness.percentile(0.99);
  c.queue_delay_p99_us = queued.percentile(0.99);
  const driver::pool_stats sessions = sessions_ ? sessions_() : db_.stats();
  c.pool_size = sessions.size;
  c.pool_in_use = sessions.in_use;
  c.pool_waiting = sessions.waiting;
  c.deliveries_queued = queued_ ? queued_() : 0;
  const stats::process_usage usage = stats::read_process_usage();
  c.cpu_seconds = std::max(0.0, usage.cpu_seconds - last_usage_.cpu_seconds);
  c.rss_bytes = usage.rss_bytes;
  last_usage_ = usage;
  return c;
}

void monitor::finish(run_result& result, std::int64_t terminals,
                     std::chrono::nanoseconds lag_limit) {
  sample();                                        // the last, partial interval
  sampler_.settle(series_, recorder_.take_all());  // nothing records any more
  result.series = std::move(series_);
  stats::client_totals& t = result.client;
  t.timer_lateness = probes_.window_lateness();
  t.queue_delay = probes_.window_queue_delay();
  const stats::process_usage usage = stats::read_process_usage();
  t.cpu_seconds = std::max(0.0, usage.cpu_seconds - at_start_.cpu_seconds);
  t.peak_rss_bytes = usage.peak_rss_bytes;
  t.rss_before_terminals = at_start_.rss_bytes;
  const stats::snapshot window = recorder_.take();
  stats::summarize_series(t, result.series, since_start(window.window_start),
                          since_start(window.window_end), terminals);
  stats::judge_client(t, lag_limit);
}

}  // namespace tpcc::run
