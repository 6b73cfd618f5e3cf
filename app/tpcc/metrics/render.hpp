// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/render.hpp: a run's figures as a Prometheus text page (format 0.0.4).
//
// What: render(view) is a pure function from one scrape's run_view to the exposition text.
// Every family has HELP and TYPE lines; names start with `shoal_tpcc_`; `type` labels carry the
// transaction's name as every report spells it (New-Order, ...), `outcome` labels the keys of
// stats/outcomes.hpp's table (committed, retried_committed, rolled_back, ...).
//   Counters, every phase since the terminals started (run_control::totals()):
//     shoal_tpcc_transactions_total{type,outcome}, shoal_tpcc_retries_total{type}.
//   Histogram, every phase, completed transactions only (seconds):
//     shoal_tpcc_response_time_seconds{type}: _bucket{le} cumulative at response_bounds and
//     +Inf (== _count), _sum, _count; counted from the run's own log-linear histograms, so a
//     bucket may hold values up to 3.1% above its bound (stats/histogram.hpp's bucket width).
//   Counter, the measurement interval only (what the result will count):
//     shoal_tpcc_measured_transactions_total{type,outcome}.
//   Gauges: shoal_tpcc_phase{phase} (1 for the current phase, 0 for the others),
//     elapsed and measured seconds, tpmC, tpmTotal and efficiency as the dashboard computes them
//     (figures/run_figures.hpp; efficiency absent without keying and think times), warehouses and
//     terminals (this process's), and from the latest interval the client's lag figures: timer
//     lateness and ready-queue delay p99, busy fraction per worker, CPU seconds per second,
//     RSS, the session pool, the deferred Delivery queue depth, and whether the client is the
//     bottleneck.
// CH-benCHmark's analytic streams, while they run: metrics/ch_render.hpp.
// The database's own figures, when the run reads them: metrics/server_render.hpp.
// Before the terminals start only the phase is shown.
// Thread-safety: pure.
#pragma once

#include <array>
#include <string>

#include "metrics/view.hpp"

namespace tpcc::metrics {

// The histogram's bucket bounds, seconds: 100 us to 50 s in 1-2-5 steps (TPC-C's limits, 5 s
// and 20 s, among them; an embedded or simulated database answers well under 1 ms).
inline constexpr std::array<double, 18> response_bounds{0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005,
                                                        0.01,   0.02,   0.05,   0.1,   0.2,   0.5,
                                                        1,      2,      5,      10,    20,    50};

[[nodiscard]] std::string render(const run_view& view);

}  // namespace tpcc::metrics
