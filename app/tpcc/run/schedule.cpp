// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/schedule.cpp: a schedule's steps set on the pace, and their windows (see
// schedule.hpp).
#include "run/schedule.hpp"

#include <algorithm>

#include "shoal/sleep.hpp"
#include "shoal/stop.hpp"

namespace tpcc::run {

shoal::task<bool> follow_schedule(terminal::rate_pace& pace, const std::vector<rate_step>& steps,
                                  std::int64_t terminals, stats::clock::time_point start,
                                  std::stop_token stop) {
  stats::clock::time_point step_end = start;
  for (const rate_step& step : steps) {
    pace.set(step.rate_tpm, terminals);
    step_end += step.duration;
    const bool slept = co_await shoal::with_stop_token(stop, shoal::sleep_until(step_end));
    if (!slept) co_return false;
  }
  co_return true;
}

shoal::task<void> follow_stream_steps(analytic_streams& streams, std::vector<rate_step> steps,
                                      stats::clock::time_point start, std::stop_token stop) {
  stats::clock::time_point step_start = start;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    if (i > 0) {
      const bool slept = co_await shoal::with_stop_token(stop, shoal::sleep_until(step_start));
      if (!slept) co_return;
    }
    streams.set_active(static_cast<std::size_t>(steps[i].analytic_streams));
    step_start += steps[i].duration;
  }
}

std::vector<step_window> step_windows(const std::vector<rate_step>& steps, double offset_seconds,
                                      double measured_seconds) {
  constexpr double end_slack = 0.001;  // an interrupt this close to a step's end ended it
  const double measure_end = offset_seconds + measured_seconds;
  std::vector<step_window> out;
  double at = offset_seconds;
  for (const rate_step& step : steps) {
    if (at >= measure_end - end_slack) break;  // not begun
    const double length = std::chrono::duration<double>(step.duration).count();
    step_window w;
    w.rate_tpm = step.rate_tpm;
    w.start_seconds = std::max(0.0, at);
    w.window_start = at + settle_seconds(length);
    w.end_seconds = std::min(at + length, measure_end);
    w.partial = at + length > measure_end + end_slack;
    w.analytic_streams = step.analytic_streams;
    out.push_back(w);
    at += length;
  }
  return out;
}

std::vector<stats::pace_span> step_spans(const std::vector<rate_step>& steps,
                                         stats::clock::time_point measure_start) {
  std::vector<stats::pace_span> out;
  stats::clock::time_point at = measure_start;
  for (const rate_step& step : steps) {
    const std::chrono::duration<double> settle(
        settle_seconds(std::chrono::duration<double>(step.duration).count()));
    out.push_back(
        {at + std::chrono::duration_cast<stats::clock::duration>(settle), at + step.duration});
    at += step.duration;
  }
  return out;
}

void add_step_pacing(std::vector<step_window>& windows, const stats::pace_windows& pace) {
  for (std::size_t i = 0; i < windows.size() && i < pace.steps(); ++i) {
    windows[i].pacing = pace.take_step(i, windows[i].rate_tpm);
  }
}

}  // namespace tpcc::run
