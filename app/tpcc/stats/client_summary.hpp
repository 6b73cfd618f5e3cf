// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/client_summary.hpp: the client's totals over the measurement interval, and
// the client-bound verdict.
//
// What: summarize_series() fills the figures of client_totals that come from the interval
// series: each worker's mean busy fraction and the process CPU seconds over the measurement
// interval [from, to) (seconds since the run started), each interval weighted by how much of
// it lies inside; and the resident set once all terminals were running (at the end of the
// first interval reaching the measurement interval, which starts after the ramp-up; the last
// interval's when the run never got there) and so the bytes per terminal.
// judge_client() marks the result client-bound, with a reason naming each figure, when the
// probes' p99 timer lateness or p99 ready-queue delay over the measurement interval exceeds
// `lag_limit`, or when a worker was busy more than `busy_limit` of it.
// Thread-safety: pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "stats/client.hpp"
#include "stats/series.hpp"

namespace tpcc::stats {

inline constexpr double busy_limit = 0.95;

void summarize_series(client_totals& totals, const std::vector<interval_sample>& series,
                      double from, double to, std::int64_t terminals);
void judge_client(client_totals& totals, std::chrono::nanoseconds lag_limit);

}  // namespace tpcc::stats
