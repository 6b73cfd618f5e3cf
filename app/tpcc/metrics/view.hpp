// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/view.hpp: what one scrape of the metrics endpoint shows, taken at once.
//
// What: a run_view holds immutable copies of the run's figures: the phase, the dashboard's
// own run_screen (run_control::live(), the same snapshot the dashboard draws from, with the
// run's settings) and the counts of every phase so far (run_control::totals(), the cumulative
// counts the interval series is cut from). take_view() takes them from a run_control; before
// the terminals start (and once the run has let go of its recorder) only the phase is there.
// Nothing here touches the live counters beyond what those two calls copy: the terminals'
// hot path takes no lock for a scrape.
// Thread-safety: take_view from any thread (run_control locks what it copies); a run_view is a
// plain value.
#pragma once

#include <optional>
#include <vector>

#include "figures/run_figures.hpp"
#include "run/run.hpp"
#include "server_stats/collector.hpp"
#include "stats/phase.hpp"
#include "stats/recorder.hpp"

namespace tpcc::metrics {

struct run_view {
  stats::phase now = stats::phase::starting;
  std::optional<figures::run_screen> screen;    // nullopt before the terminals start
  std::optional<stats::cumulative> totals;      // every phase so far; nullopt likewise
  std::vector<run::server_totals> servers;      // the database's own, per server; empty: none read
  std::vector<run::endpoint_totals> endpoints;  // each endpoint's; empty with one
  std::optional<run::ch_totals> ch;  // the analytic streams'; nullopt: none run (or not yet)
};

// `settings`: the run's settings as the dashboard gets them (its `view` is replaced).
[[nodiscard]] run_view take_view(const run::run_control& control,
                                 const figures::run_screen& settings);

}  // namespace tpcc::metrics
