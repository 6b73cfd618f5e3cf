// SPDX-License-Identifier: Apache-2.0
// app/tpcc/ui/run_screen.hpp: the run's dashboard and its plain progress line, as text.
//
// What: render_run() lays out one frame of the dashboard from a run_screen (an immutable
// live_view plus the run's settings) for a terminal of `size`: the database and sizes, the
// phase, elapsed and remaining time, a progress bar, tpmC, tpmTotal and efficiency, the per-type
// table of the measurement interval so far (counts, p50/p90/p99 response times, the latest
// interval's rate, '-' before the first), the client (per-worker busy and coroutines resumed per
// second, CPU, RSS, the connection pool with its wait p90, timer lateness and ready-queue delay
// p99) with a warning line when the client is the bottleneck, CH-benCHmark's analytic streams
// while they run (queries completed, failed, cancelled, queries per hour so far), and the last
// lines of `log` (what was written to stderr). Every line is printable ASCII and at most
// size.columns wide; there are at most size.rows lines. render_starting() is the frame shown before
// the terminals start. run_line() is the plain line printed per interval without a terminal (or
// with --no-tui). Thread-safety: pure functions; they never read a clock or a live counter.
#pragma once

#include <string>
#include <vector>

#include "figures/run_figures.hpp"
#include "ui/text.hpp"

namespace tpcc::ui {

// The snapshot a display is drawn from, and what it derives (figures/run_figures.hpp).
using figures::client_lag;
using figures::figures_of;
using figures::interval_rate;
using figures::run_figures;
using figures::run_screen;

[[nodiscard]] std::vector<std::string> render_run(const run_screen& s, screen_size size,
                                                  const std::vector<std::string>& log);
[[nodiscard]] std::vector<std::string> render_starting(const std::string& target, screen_size size,
                                                       const std::vector<std::string>& log);
[[nodiscard]] std::string run_line(const run_screen& s);

// The last lines of `log` under a "log" rule, filling `lines` up to `size.rows`; then every
// line is cut to size.columns. Shared by every screen.
void add_log_pane(std::vector<std::string>& lines, screen_size size,
                  const std::vector<std::string>& log);

}  // namespace tpcc::ui
