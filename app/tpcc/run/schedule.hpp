// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/schedule.hpp: following `run --schedule` over the measurement interval: each
// step's rate set on the terminals' pace at its start, and the windows the steps ran.
//
// What: the steps run back to back from the measurement interval's start; at each step's start
// its rate is set on the run's rate_pace (terminal/pace.hpp), which paced terminals read at
// their next draw. The windows are recorded in seconds since the terminals started, as the
// interval series counts, each without its settle time (run_result/steps.hpp); a step the run
// was interrupted in is marked partial, steps not begun are left out. Each step's --rate
// figures (its backlog) are taken over the same settled span.
// Thread-safety: one run at a time; step_windows is pure.
#pragma once

#include <chrono>
#include <cstdint>
#include <stop_token>
#include <vector>

#include "run/analytic.hpp"
#include "run_result/steps.hpp"
#include "shoal/task.hpp"
#include "stats/pace_windows.hpp"
#include "stats/recorder.hpp"
#include "terminal/pace.hpp"

namespace tpcc::run {

/// Sets each step's rate on `pace` (over `terminals`) at its start, the first one at once, and
/// sleeps until the last one ends.
///   Result: true when the schedule ran its course, false when `stop` ended it early.
///   Errors: none.
///   Cancellation: `stop` (the run's issue_stop), checked between steps and while sleeping.
///   Resumes on: the worker the sleep's timer fires on (any worker of the run's pool).
///   Thread-safety: `pace` is written with relaxed stores (a setting read by every terminal).
shoal::task<bool> follow_schedule(terminal::rate_pace& pace, const std::vector<rate_step>& steps,
                                  std::int64_t terminals, stats::clock::time_point start,
                                  std::stop_token stop);

/// Sets each step's CH-benCHmark streams (rate_step::analytic_streams) on `streams` at its
/// start, the first one's at once (the warm-up runs it, as it runs the first step's rate), the
/// steps back to back from `start`; ends after the last step starts, or when `stop` is requested.
///   Result: none. Errors: none. Cancellation: `stop`, checked while sleeping.
///   Resumes on: the worker the sleep's timer fires on. Thread-safety: set_active is any-thread.
shoal::task<void> follow_stream_steps(analytic_streams& streams, std::vector<rate_step> steps,
                                      stats::clock::time_point start, std::stop_token stop);

/// The windows of the steps begun when the measurement interval starts `offset_seconds` after
/// the terminals and covered `measured_seconds`. No step starts before the terminals: with
/// --warmup 0s the interval's start is taken a moment before them (a negative offset), and the
/// first step's start is then 0 (the result's reader refuses a negative time).
[[nodiscard]] std::vector<step_window> step_windows(const std::vector<rate_step>& steps,
                                                    double offset_seconds, double measured_seconds);

/// Each step's settled span (its start plus the settle time, to its planned end) on the clock,
/// the steps run back to back from `measure_start`: the windows of its --rate figures
/// (stats/pace_windows.hpp).
[[nodiscard]] std::vector<stats::pace_span> step_spans(const std::vector<rate_step>& steps,
                                                       stats::clock::time_point measure_start);

/// Step figures of `pace` into the windows of the steps begun (`windows`, from step_windows).
void add_step_pacing(std::vector<step_window>& windows, const stats::pace_windows& pace);

}  // namespace tpcc::run
