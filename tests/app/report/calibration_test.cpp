// SPDX-License-Identifier: Apache-2.0
// tests/app/report/calibration_test.cpp: the verdict is never wrong about a correct client, and
// sees a broken one (issue 28).
//
// Calibration: the model of the measurement (measurement_model.hpp: the client's deck, inputs,
// think times and terminal loop on simulated time, the real recorder and verdict) over 1,000
// runs of varied shapes: 1-50 warehouses, windows of 5 s to 2 min, wait scales 0.01-1, 1-50 ms
// latencies, each its own seed. A correct client must FAIL no item: the test reports the
// false-FAIL rate and its one-sided 95 % upper confidence bound (Clopper-Pearson).
// Power: with one fault injected through the model's hooks (think times x 0.8, the mix at 38 %
// Payment, New-Order's p90 over 5 s, 2 % of transactions failed), runs long enough to decide
// FAIL that item in at least 95 % of cases. Both figures are printed as the lines
// docs/tpcc/results.md quotes. Deterministic: fixed seeds, no clock.
// In a debug or sanitizer build the run counts are a twentieth (the release preset keeps them
// all).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "measurement_model.hpp"
#include "random/rng.hpp"
#include "report/verdict.hpp"
#include "support/build_kind.hpp"

namespace {

using tpcc::report::evaluate;
using tpcc::report::verdict;
using tpcc::testing::model_fault;
using tpcc::testing::model_shape;
using tpcc::testing::simulate;

// A twentieth of the runs in a debug or sanitizer build (where a run is 60 times slower): the
// same code, checked; the figures are the release preset's.
constexpr int run_divisor = shoal::testing::slow_build ? 20 : 1;

constexpr const char* target = "sim:latency=1ms";

double uniform01(tpcc::random::rng& r) {
  return static_cast<double>(r.next() >> 11) * (1.0 / 9007199254740992.0);
}

// log-uniform in [low, high].
double log_uniform(tpcc::random::rng& r, double low, double high) {
  return std::exp(std::log(low) + uniform01(r) * (std::log(high) - std::log(low)));
}

// The one-sided 95 % upper bound of a rate seen `k` times in `n` (Clopper-Pearson): the p at
// which seeing k or fewer has probability 5 %.
double upper_bound(int k, int n) {
  double low = static_cast<double>(k) / n, high = 1.0;
  for (int step = 0; step < 60; ++step) {
    const double p = (low + high) / 2;
    double term = std::pow(1 - p, n), cdf = 0;  // P(X = 0), then the sum to k
    for (int i = 0; i <= k; ++i) {
      cdf += term;
      term *= (1 - p) == 0 ? 0 : p / (1 - p) * (n - i) / (i + 1);
    }
    (cdf > 0.05 ? low : high) = p;
  }
  return high;
}

std::string shape_text(const model_shape& s) {
  char line[160];
  std::snprintf(line, sizeof line, "%lld W, wait scale %.3g, %.1f s window, %.1f ms, seed %llu",
                static_cast<long long>(s.warehouses), s.wait_scale, s.measure_seconds,
                s.latency_seconds * 1e3, static_cast<unsigned long long>(s.seed));
  return line;
}

TEST(calibration, ACorrectClientFailsNoItemOverRunsOfManyShapes) {
  const int runs = 1000 / run_divisor;
  tpcc::random::rng shapes(2028);
  int false_fails = 0;
  std::vector<std::string> failed;
  for (int i = 0; i < runs; ++i) {
    model_shape s;
    s.warehouses = static_cast<std::int64_t>(std::lround(log_uniform(shapes, 1, 50)));
    s.wait_scale = log_uniform(shapes, 0.01, 1);
    s.measure_seconds = log_uniform(shapes, 5, 120);
    s.warmup_seconds = 1 + 4 * uniform01(shapes);
    s.latency_seconds = log_uniform(shapes, 0.001, 0.05);
    s.seed = shapes.next();
    const verdict v = evaluate(simulate(s), target);
    if (v.failing().empty()) continue;
    ++false_fails;
    std::string items;
    for (const std::string& n : v.failing()) items.append(items.empty() ? "" : ", ").append(n);
    failed.push_back(shape_text(s) + ": " + items + tpcc::report::format_verdict(v));
  }
  std::printf(
      "calibration: %d FAIL in %d runs of a correct client: false-FAIL rate %.2f %%, "
      "95 %% upper bound %.2f %%\n",
      false_fails, runs, 100.0 * false_fails / runs, 100.0 * upper_bound(false_fails, runs));
  for (const std::string& f : failed) ADD_FAILURE() << "false FAIL: " << f;
}

struct power_case {
  const char* item;
  model_fault fault;
};

TEST(calibration, AClientWithOneFaultFailsThatItemInAtLeast95PercentOfLongEnoughRuns) {
  const std::vector<power_case> cases{
      {"think-time mean applied", {.think_scale = 0.8}},
      {"Payment share of the mix", {.payment_share = 0.38}},
      {"New-Order p90", {.slow_new_orders = 0.3}},
      {"failed transactions", {.failed_share = 0.02}},
  };
  const int runs = 40 / run_divisor;
  tpcc::random::rng shapes(1928);
  for (const power_case& c : cases) {
    int decided = 0;
    for (int i = 0; i < runs; ++i) {
      model_shape s;
      s.warehouses = static_cast<std::int64_t>(std::lround(log_uniform(shapes, 10, 20)));
      s.wait_scale = log_uniform(shapes, 0.01, 0.03);
      s.measure_seconds = 90 + 30 * uniform01(shapes);
      s.latency_seconds = log_uniform(shapes, 0.001, 0.01);
      s.seed = shapes.next();
      s.fault = c.fault;
      const verdict v = evaluate(simulate(s), target);
      bool fails = false;
      for (const std::string& n : v.failing()) fails = fails || n == c.item;
      decided += fails ? 1 : 0;
    }
    std::printf("power: %s: FAIL in %d of %d runs (%.1f %%)\n", c.item, decided, runs,
                100.0 * decided / runs);
    EXPECT_GE(decided * 100, runs * 95) << c.item;
  }
}

}  // namespace
