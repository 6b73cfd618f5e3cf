// SPDX-License-Identifier: Apache-2.0
// tests/app/report/measurement_model.hpp: a model of one run's measurement, for the verdict's
// calibration and power tests: the terminals of clause 5.2 on simulated time, feeding the real
// recorder, judged by the real verdict.
//
// What: simulate() runs `shape.warehouses` x 10 terminals, each with the client's own deck
// (terminal::deck), input generators (txn::make_*), think-time draws (random::think_time) and
// the terminal loop's timing and censoring (a think cut by the end of the window is recorded as
// the terminal records it), against a database whose response times are log-normal around a
// base latency; nothing sleeps, so a 2-minute run of 500 terminals takes milliseconds. The
// faults are the test hooks of the power test: think times scaled, a skewed mix (independent
// draws instead of the deck), a type's p90 over its limit, a share of failed transactions.
// Thread-safety: pure functions (each call has its own recorder and random streams).
#pragma once

#include <cstdint>

#include "run_result/result.hpp"

namespace tpcc::testing {

struct model_fault {
  double think_scale = 1.0;    // multiplies every think time drawn
  double payment_share = 0.0;  // > 0: the mix drawn independently with this Payment share,
                               // New-Order taking the rest of 88 %, 4 % each for the others
  double slow_new_orders = 0;  // this share of New-Orders answer in 6-10 s (limit 5 s)
  double failed_share = 0.0;   // this share of every type's transactions fails
};

struct model_shape {
  std::int64_t warehouses = 1;
  double wait_scale = 1.0;
  double warmup_seconds = 2;
  double measure_seconds = 60;
  double latency_seconds = 0.001;  // the database's median response per statement-ish unit
  std::uint64_t seed = 1;
  model_fault fault{};
};

// The run's result as the real run would report it (simulated: "sim:" target).
[[nodiscard]] run::run_result simulate(const model_shape& shape);

}  // namespace tpcc::testing
