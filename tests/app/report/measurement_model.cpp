// SPDX-License-Identifier: Apache-2.0
// tests/app/report/measurement_model.cpp: the model of a run's measurement (see
// measurement_model.hpp).
#include "measurement_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "random/rng.hpp"
#include "random/think_time.hpp"
#include "stats/recorder.hpp"
#include "terminal/deck.hpp"
#include "txn/generate.hpp"
#include "txn/kind.hpp"

namespace tpcc::testing {
namespace {

using std::chrono::nanoseconds;
using clock = stats::clock;

nanoseconds seconds(double s) { return nanoseconds(std::llround(s * 1e9)); }

double uniform01(random::rng& r) {
  return static_cast<double>(r.next() >> 11) * (1.0 / 9007199254740992.0);
}

// A standard normal draw (Box-Muller).
double normal(random::rng& r) {
  const double u = std::max(uniform01(r), 1e-300);
  return std::sqrt(-2 * std::log(u)) * std::cos(2 * 3.141592653589793 * uniform01(r));
}

// Response time units per type: statements, roughly (Delivery's terminal part only queues).
constexpr std::array<double, txn::kind_count> response_units{12, 4, 3, 0.05, 3};

// What one terminal keyed in (as terminal.cpp counts it).
stats::input_counts keyed(txn::kind k, random::rng& r, const txn::workload_scope& scope,
                          std::int64_t w) {
  stats::input_counts c;
  if (k == txn::kind::new_order) {
    const txn::new_order_input in = txn::make_new_order(r, scope, w);
    c.new_orders = 1;
    c.order_lines = in.lines.size();
    for (const auto& line : in.lines) c.remote_lines += line.supply_w_id != in.w_id ? 1 : 0;
    c.rollbacks_asked = in.rollback ? 1 : 0;
  } else if (k == txn::kind::payment) {
    const txn::payment_input in = txn::make_payment(r, scope, w);
    c.payments = 1;
    c.remote_payments = in.c_w_id != in.w_id ? 1 : 0;
    c.payments_by_name = in.customer.by_last_name ? 1 : 0;
  } else if (k == txn::kind::order_status) {
    const txn::order_status_input in = txn::make_order_status(r, scope, w);
    c.order_statuses = 1;
    c.order_statuses_by_name = in.customer.by_last_name ? 1 : 0;
  }
  return c;
}

txn::kind skewed(random::rng& r, double payment_share) {
  const double u = uniform01(r);
  if (u < payment_share) return txn::kind::payment;
  if (u < payment_share + 0.04) return txn::kind::order_status;
  if (u < payment_share + 0.08) return txn::kind::delivery;
  if (u < payment_share + 0.12) return txn::kind::stock_level;
  return txn::kind::new_order;
}

struct terminal_model {
  const model_shape& shape;
  stats::recorder& rec;
  clock::time_point zero;
  nanoseconds stop;  // the end of the window: terminals stop issuing
  txn::workload_scope scope;

  void think(txn::kind k, nanoseconds slept, bool censored, nanoseconds at) {
    const double relative = std::chrono::duration<double>(slept).count() / shape.wait_scale /
                            txn::think_mean_seconds[txn::index(k)];
    stats::think_sample sample;
    sample.slept = nanoseconds(std::llround(static_cast<double>(slept.count()) / shape.wait_scale));
    sample.relative = relative;
    sample.censored = censored;
    rec.record_think(sample, zero + at);
  }

  // One transaction of type k submitted at `t`: returns when it ends.
  nanoseconds transact(txn::kind k, random::rng& r, std::int64_t w, std::uint16_t group,
                       nanoseconds t) {
    const stats::input_counts in = keyed(k, r, scope, w);
    double response =
        shape.latency_seconds * response_units[txn::index(k)] * std::exp(0.5 * normal(r));
    if (k == txn::kind::new_order && uniform01(r) < shape.fault.slow_new_orders) {
      response = 6 + 4 * uniform01(r);
    }
    const nanoseconds end = t + seconds(response);
    stats::txn_record done;
    done.kind = k;
    done.group = group;
    done.response = seconds(response);
    done.service = done.response;
    done.end = zero + end;
    if (uniform01(r) < shape.fault.failed_share) {
      done.status = driver::outcome_kind::failed;
      done.sqlstate = "XX000";
    }
    rec.record(done);
    rec.record_inputs(in, zero + t);
    if (k == txn::kind::delivery) {
      const double completion = shape.latency_seconds * 40 * std::exp(0.5 * normal(r));
      rec.record_delivery(seconds(completion), 0, stats::txn_outcome::committed,
                          zero + end + seconds(completion));
    }
    return end;
  }

  void run(std::int64_t w, std::int64_t d, random::rng r) {
    const auto group = static_cast<std::uint16_t>(
        static_cast<std::uint64_t>((w - 1) * 10 + (d - 1)) % stats::terminal_group_count);
    terminal::deck deck;
    const double s = shape.wait_scale;
    nanoseconds t = seconds(uniform01(r) * shape.warmup_seconds);  // the ramp-up
    nanoseconds thinking{-1};
    txn::kind last = txn::kind::new_order;
    for (;;) {
      const txn::kind k =
          shape.fault.payment_share > 0 ? skewed(r, shape.fault.payment_share) : deck.next(r);
      const nanoseconds keying = seconds(txn::keying_seconds[txn::index(k)] * s);
      const nanoseconds wait = std::max(nanoseconds(0), thinking) + keying;
      const nanoseconds asleep = t;
      if (t + wait > stop) {  // the stop wakes the sleep: the think is cut (terminal.cpp)
        if (thinking >= nanoseconds(0)) {
          const nanoseconds elapsed = std::max(nanoseconds(0), stop - asleep);
          think(last, std::min(elapsed, thinking), elapsed < thinking, asleep);
        }
        return;
      }
      t += wait;
      if (thinking >= nanoseconds(0)) think(last, thinking, false, asleep);
      t = transact(k, r, w, group, t);
      const nanoseconds drawn = random::think_time(r, txn::think_mean_seconds[txn::index(k)]);
      thinking = nanoseconds(
          std::llround(static_cast<double>(drawn.count()) * s * shape.fault.think_scale));
      last = k;
    }
  }
};

}  // namespace

run::run_result simulate(const model_shape& shape) {
  const clock::time_point zero = clock::time_point(std::chrono::seconds(1));  // before now()
  const nanoseconds start = seconds(shape.warmup_seconds);
  const nanoseconds stop = start + seconds(shape.measure_seconds);
  stats::recorder rec(zero + start, zero + stop);
  txn::workload_scope scope;
  scope.warehouses = shape.warehouses;
  scope.constants = {180, 45, 678};  // C_LAST 80 from the load's (clause 2.1.6.1)
  terminal_model model{shape, rec, zero, stop, scope};
  random::rng seeds(shape.seed);
  for (std::int64_t w = 1; w <= shape.warehouses; ++w) {
    for (std::int64_t d = 1; d <= 10; ++d) model.run(w, d, random::rng(seeds.next()));
  }
  run::run_result r;
  r.results = rec.take();
  r.warehouses = shape.warehouses;
  r.terminals = shape.warehouses * 10;
  r.first_warehouse = 1;
  r.last_warehouse = shape.warehouses;
  r.wait_scale = shape.wait_scale;
  r.measured_seconds = shape.measure_seconds;
  r.config.warehouses = shape.warehouses;
  r.config.wait_scale = shape.wait_scale;
  r.config.seed = shape.seed;
  r.run_constants = scope.constants;
  r.load_constants = {100, 40, 600};
  r.simulated = true;
  return r;
}

}  // namespace tpcc::testing
