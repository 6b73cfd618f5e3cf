// SPDX-License-Identifier: Apache-2.0
// tests/app/report/scheduled_run.hpp: a --schedule run's result built by hand, for the tests of
// its steps (figures, knee, JSON read back, merge, compare).
//
// What: scheduled(per_second, response_us) is compliant() (sample_result.hpp) with one 4 s rate
// step per entry, from 10 s, each with its settle second and three measured 1 s intervals;
// pace_step gives a step its backlog; ch_scheduled a step without analytic streams, then one
// with.
// Thread-safety: pure functions.
#pragma once

#include <chrono>
#include <cstdint>
#include <vector>

#include "run_result/result.hpp"
#include "sample_result.hpp"
#include "stats/histogram.hpp"
#include "stats/pace.hpp"
#include "txn/kind.hpp"

namespace tpcc::testing {

// One interval of `seconds` from `start` in which `new_orders` New-Orders committed, each
// answered in `response_us`.
inline tpcc::stats::interval_sample interval_of(double start, double seconds,
                                                std::uint64_t new_orders,
                                                std::uint64_t response_us) {
  tpcc::stats::interval_sample s;
  s.start_seconds = start;
  s.end_seconds = start + seconds;
  s.in = tpcc::stats::phase::measuring;
  auto& k = s.kinds[tpcc::txn::index(tpcc::txn::kind::new_order)];
  k.outcomes[tpcc::stats::txn_outcome::committed] = new_orders;
  tpcc::stats::histogram h;
  h.record(response_us, new_orders);
  k.response = tpcc::stats::sparse_histogram::of(h);
  return s;
}

// Steps of 4 s from 10 s (settle 1 s each); per step its New-Orders a second in its three
// measured intervals (alternately +-5), its response time, and 10,000 a second in the settle
// interval, which must never count.
inline tpcc::run::run_result scheduled(const std::vector<std::uint64_t>& per_second,
                                       const std::vector<std::uint64_t>& response_us,
                                       bool last_partial = false) {
  tpcc::run::run_result r = compliant();
  r.series.clear();
  for (std::size_t i = 0; i < per_second.size(); ++i) {
    const double start = 10.0 + 4.0 * static_cast<double>(i);
    r.config.schedule.push_back({static_cast<double>(per_second[i]) * 60, std::chrono::seconds(4)});
    run::step_window w{.rate_tpm = static_cast<double>(per_second[i]) * 60,
                       .start_seconds = start,
                       .window_start = start + 1,
                       .end_seconds = start + 4,
                       .partial = last_partial && i + 1 == per_second.size()};
    r.steps.push_back(w);
    r.series.push_back(interval_of(start, 1, 10000, 1000));
    for (int j = 1; j < 4; ++j) {
      const std::uint64_t n = per_second[i] + (j % 2 == 0 ? 5 : 0) - (j == 3 ? 5 : 0);
      r.series.push_back(interval_of(start + j, 1, n, response_us[i]));
    }
  }
  return r;
}

// Gives step `i` of `r` (scheduled()) its --rate figures over its 3 s window: every intended
// start begun, and at the window's start and end the oldest one behind `oldest_start` and
// `oldest_end` seconds late, `behind_end` of them behind at the end.
inline void pace_step(tpcc::run::run_result& r, std::size_t i, double oldest_start,
                      double oldest_end, std::uint64_t behind_end) {
  tpcc::stats::pace_totals p;
  p.offered_tpm = r.steps[i].rate_tpm;
  p.window_seconds = 3;
  p.intended = p.began = static_cast<std::uint64_t>(p.offered_tpm / 20);  // 3 s of the rate
  p.max_lag_seconds = oldest_end;
  p.at_start = {oldest_start > 0 ? 1U : 0U, oldest_start};
  p.at_end = {behind_end, oldest_end};
  r.steps[i].pacing = p;
}

// A schedule of two 4 s steps (scheduled()): `without` New-Orders a second without analytic
// streams, then `with` beside one stream, which completed 3 of query 1 in 2 ms in its step's
// measured intervals and 7 in its settle second (which must never count).
inline tpcc::run::run_result ch_scheduled(std::uint64_t without, std::uint64_t with) {
  tpcc::run::run_result r = scheduled({without, with}, {1000, 1000});
  r.ch.streams = 1;
  r.config.analytic_streams = 1;
  r.config.schedule[1].analytic_streams = 1;
  r.steps[1].analytic_streams = 1;
  r.ch.queries[0].completed = 3;
  r.ch.queries[0].latency.record(2000, 3);
  for (int j = 0; j < 4; ++j) {  // the second step: 14 s to 18 s, its settle second first
    const double at = 14.0 + j;
    r.ch.series.push_back({at, at + 1, j == 0 ? 7U : 1U, 0, 0, 2047});
  }
  return r;
}

}  // namespace tpcc::testing
