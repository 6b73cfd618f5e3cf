// SPDX-License-Identifier: Apache-2.0
// tests/app/report/sample_run.hpp: a synthetic run_result for the report tests.
//
// What: sample_run(n, seconds) builds a result as the run would: n intervals of `seconds`
// each, warm-up the first 10%, measurement the next 80%, drain the rest; per type a throughput
// that follows the mix with a slow wave, response times spread over two decades around a
// per-type median with a spike in the middle of the run; the cumulative histograms are exactly
// the measurement intervals' buckets added up. Deterministic. Thread-safety: pure function.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>

#include "run_result/result.hpp"
#include "stats/series.hpp"

namespace tpcc::testing {

// One interval's histogram of `n` response times around `median_us`.
inline stats::histogram sample_histogram(std::uint64_t n, double median_us, double spike) {
  stats::histogram h;
  for (std::uint64_t j = 0; j < n; ++j) {
    const double spread = std::pow(10.0, (static_cast<double>(j % 41) - 20.0) / 20.0);
    h.record(static_cast<std::uint64_t>(median_us * spread * spike));
  }
  return h;
}

inline run::run_result sample_run(std::size_t intervals, double seconds) {
  run::run_result r;
  r.warehouses = 10;
  r.terminals = 100;
  r.last_warehouse = 10;
  r.started = std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));
  const double total = static_cast<double>(intervals) * seconds;
  r.ended = r.started + std::chrono::milliseconds(static_cast<std::int64_t>(total * 1000));
  r.config.warmup = std::chrono::milliseconds(static_cast<std::int64_t>(total * 100));
  r.config.interval = std::chrono::milliseconds(static_cast<std::int64_t>(seconds * 1000));
  r.measured_seconds = total * 0.8;
  constexpr std::array<double, 5> per_second{2.1, 2.0, 0.19, 0.19, 0.19};
  constexpr std::array<double, 5> median_us{18'000, 9'000, 4'000, 2'500, 30'000};
  for (std::size_t i = 0; i < intervals; ++i) {
    stats::interval_sample s;
    s.start_seconds = static_cast<double>(i) * seconds;
    s.end_seconds = s.start_seconds + seconds;
    const double at = s.end_seconds / total;
    s.in = at <= 0.1 ? stats::phase::warmup
                     : (at <= 0.9 ? stats::phase::measuring : stats::phase::draining);
    const double wave = 1 + 0.25 * std::sin(static_cast<double>(i) / 15.0);
    const double spike = (i * 2 == intervals) ? 6.0 : 1.0;
    for (std::size_t k = 0; k < 5; ++k) {
      const auto n = static_cast<std::uint64_t>(std::llround(per_second[k] * seconds * wave * 20));
      const stats::histogram h = sample_histogram(n, median_us[k], spike);
      s.kinds[k].outcomes[tpcc::stats::txn_outcome::committed] = n;
      s.kinds[k].response = stats::sparse_histogram::of(h);
      s.kinds[k].service = stats::sparse_histogram::of(sample_histogram(n, median_us[k] / 2, 1));
      if (s.in == stats::phase::measuring) {
        r.results.kinds[k].outcomes[tpcc::stats::txn_outcome::committed] += n;
        r.results.kinds[k].response.merge(s.kinds[k].response.expand());
      }
    }
    r.series.push_back(std::move(s));
  }
  return r;
}

}  // namespace tpcc::testing
