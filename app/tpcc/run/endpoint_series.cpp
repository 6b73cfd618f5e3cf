// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/endpoint_series.cpp: cutting each endpoint's series (see endpoint_series.hpp).
#include "run/endpoint_series.hpp"

#include <utility>

namespace tpcc::run {
namespace {

// What ended on one endpoint between two cuts, `before` and `now` being its counts then: in
// all and per type, with each type's p90 of the interval (its response histogram's growth).
// A deferred Delivery that failed or was lost counts as a failed Delivery (its terminal part,
// the queueing, completed).
stats::endpoint_interval endpoint_delta(const endpoint_series::marks& now_marks,
                                        const endpoint_series::marks& before_marks) {
  const endpoint_series::kind_marks& now = now_marks.kinds;
  const endpoint_series::kind_marks& before = before_marks.kinds;
  stats::endpoint_interval out;
  const stats::outcome_counts deferred = now_marks.deliveries - before_marks.deliveries;
  out.failed += deferred.failures();
  out.lost += deferred[stats::txn_outcome::lost];
  for (std::size_t k = 0; k < txn::kind_count; ++k) {
    stats::outcome_counts d;
    for (std::size_t o = 0; o < stats::outcome_count; ++o) {
      d.n[o] = now[k].outcomes.n[o] - before[k].outcomes.n[o];
    }
    out.completed += d.completed();
    out.failed += d.failures();
    out.lost += d[stats::txn_outcome::lost];
    if (k == txn::index(txn::kind::new_order)) out.new_orders = d.completed();
    out.kinds[k].completed = d.completed();
    out.kinds[k].failed = d.failures();
    if (k == txn::index(txn::kind::delivery)) out.kinds[k].failed += deferred.failures();
    if (d.completed() > 0) {
      out.kinds[k].p90_us = stats::sparse_histogram::difference(now[k].response, before[k].response)
                                .expand()
                                .percentile(0.9);
    }
  }
  return out;
}

}  // namespace

endpoint_series::endpoint_series(const endpoint_set& set)
    : set_(set), last_(set.routes.size()), series_(set.routes.size()) {}

void endpoint_series::cut(double end_seconds, stats::phase in) {
  for (std::size_t i = 0; i < set_.routes.size(); ++i) {
    const terminal::endpoint_route& route = set_.routes[i];
    const stats::cumulative all = route.recorder->take_all();
    marks now;
    for (std::size_t k = 0; k < txn::kind_count; ++k) {
      now.kinds[k] = {all.kinds[k].outcomes, all.kinds[k].response};
    }
    now.deliveries = all.deliveries;
    stats::endpoint_interval s = endpoint_delta(now, last_[i]);
    s.start_seconds = last_end_;
    s.end_seconds = end_seconds;
    s.in = in;
    const driver::pool_stats pool = route.db->stats();
    s.pool_size = pool.size;
    s.pool_in_use = pool.in_use;
    s.pool_waiting = pool.waiting;
    series_[i].push_back(s);
    last_[i] = now;
  }
  last_end_ = end_seconds;
}

std::vector<std::vector<stats::endpoint_interval>> endpoint_series::take() {
  return std::move(series_);
}

}  // namespace tpcc::run
