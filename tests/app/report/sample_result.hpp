// SPDX-License-Identifier: Apache-2.0
// tests/app/report/sample_result.hpp: run results built by hand for the report tests.
//
// What: compliant() is a result that meets every item of the verdict (a 130-minute interval,
// the spec's waits, inputs and mix inside their ranges, response times under their limits);
// tests break one thing at a time. Thread-safety: plain functions.
#pragma once

#include <chrono>
#include <cstdint>

#include "run_result/result.hpp"
#include "txn/kind.hpp"

namespace tpcc::testing {

// `n` transactions of type k, committed, with response times spread up to `max_ms`.
inline void add_kind(run::run_result& r, txn::kind k, std::uint64_t n, std::uint64_t max_ms) {
  stats::kind_totals& t = r.results.kinds[txn::index(k)];
  t.outcomes[tpcc::stats::txn_outcome::committed] = n;
  t.round_trips = 3 * n;
  for (std::uint64_t i = 0; i < n; ++i) {
    t.response.record(1000 + (i % 100) * max_ms * 10);
    t.queued.record(10 + i % 7);
    t.service.record(900 + (i % 100) * max_ms * 9);
  }
}

inline stats::input_counts compliant_inputs(std::uint64_t new_orders, std::uint64_t payments,
                                            std::uint64_t order_statuses, std::uint64_t all) {
  stats::input_counts in;
  in.new_orders = new_orders;
  in.order_lines = new_orders * 10;
  in.remote_lines = in.order_lines / 100;
  in.rollbacks_asked = new_orders / 100;
  in.payments = payments;
  in.remote_payments = payments * 15 / 100;
  in.payments_by_name = payments * 60 / 100;
  in.order_statuses = order_statuses;
  in.order_statuses_by_name = order_statuses * 60 / 100;
  in.think_times = all;
  // The spec's means weighted by the mix 45/43/4/4/4: 11.36 s.
  in.think_seconds = 11.36 * static_cast<double>(all);
  in.think_relative = static_cast<double>(all);  // each think as long as its type's mean
  return in;
}

inline run::run_result compliant() {
  run::run_result r;
  r.warehouses = 10;
  r.terminals = 100;
  r.first_warehouse = 1;
  r.last_warehouse = 10;
  r.measured_seconds = 130 * 60;
  r.config.warehouses = 10;
  r.config.measure = std::chrono::minutes(130);
  r.load_constants = {100, 200, 300};
  r.run_constants = {200, 201, 301};
  add_kind(r, txn::kind::new_order, 4500, 50);
  add_kind(r, txn::kind::payment, 4300, 20);
  add_kind(r, txn::kind::order_status, 400, 10);
  add_kind(r, txn::kind::delivery, 400, 1);
  add_kind(r, txn::kind::stock_level, 400, 30);
  r.results.inputs = compliant_inputs(4500, 4300, 400, 10000);
  r.results.deliveries_done = 400;
  r.results.deliveries_on_time = 400;
  for (int i = 0; i < 400; ++i) r.results.delivery_completion.record(std::uint64_t{200000});
  r.started = std::chrono::system_clock::time_point(std::chrono::seconds(1'700'000'000));
  r.ended = r.started + std::chrono::minutes(135);
  r.client.cpu_seconds = 12.5;
  r.client.measure_cpu_seconds = 10.25;
  r.client.peak_rss_bytes = 64ULL << 20;
  r.client.bytes_per_terminal = 2048;
  return r;
}

}  // namespace tpcc::testing
