// SPDX-License-Identifier: Apache-2.0
// app/tpcc/run/endpoints.cpp: the endpoints' ranges, recorders and results (see endpoints.hpp).
#include "run/endpoints.hpp"

#include <cstdint>
#include <mutex>

namespace tpcc::run {

std::optional<std::string> endpoints_refused(std::size_t endpoints, warehouse_range range) {
  if (endpoints <= 1 || static_cast<std::int64_t>(endpoints) <= range.count()) return std::nullopt;
  return std::to_string(endpoints) + " endpoints (--db) but " + std::to_string(range.count()) +
         (range.count() == 1 ? " warehouse" : " warehouses") +
         " to run here: each endpoint needs at least one (give fewer --db or more warehouses)";
}

endpoint_set route_endpoints(std::span<driver::database* const> dbs, warehouse_range range,
                             stats::clock::time_point start, stats::clock::time_point end) {
  endpoint_set set;
  if (dbs.size() <= 1) return set;
  const auto n = static_cast<std::int64_t>(dbs.size());
  for (std::int64_t k = 0; k < n; ++k) {
    // Range k of n of this process's warehouses: shard k of n of them, shifted to its first.
    const warehouse_range part = shard_range(range.count(), shard_spec{k, n});
    set.recorders.push_back(std::make_unique<stats::recorder>(start, end));
    set.routes.push_back({.first = range.first - 1 + part.first,
                          .last = range.first - 1 + part.last,
                          .db = dbs[static_cast<std::size_t>(k)],
                          .recorder = set.recorders.back().get()});
  }
  return set;
}

std::vector<live_endpoint> live_endpoints(const endpoint_set& set) {
  std::vector<live_endpoint> out;
  out.reserve(set.routes.size());
  for (const terminal::endpoint_route& r : set.routes) {
    out.push_back({.target = r.db->describe(), .recorder = r.recorder, .db = r.db});
  }
  return out;
}

std::vector<endpoint_totals> run_control::endpoints() const {
  const std::scoped_lock lock(mutex_);
  std::vector<endpoint_totals> out;
  out.reserve(endpoints_.size());
  for (const live_endpoint& e : endpoints_) {
    out.push_back({.target = e.target, .totals = e.recorder->take_all(), .pool = e.db->stats()});
  }
  return out;
}

void run_control::publish_endpoints(std::vector<live_endpoint> list) {
  const std::scoped_lock lock(mutex_);
  endpoints_ = std::move(list);
}

driver::pool_stats pools_of(const endpoint_set& set) {
  driver::pool_stats sum;
  for (const terminal::endpoint_route& r : set.routes) {
    const driver::pool_stats one = r.db->stats();
    sum.size += one.size;
    sum.in_use += one.in_use;
    sum.waiting += one.waiting;
    sum.replaced += one.replaced;
  }
  return sum;
}

std::vector<endpoint_result> endpoint_results(
    const endpoint_set& set, std::vector<std::vector<stats::endpoint_interval>> series) {
  std::vector<endpoint_result> out;
  out.reserve(set.routes.size());
  series.resize(set.routes.size());
  for (std::size_t i = 0; i < set.routes.size(); ++i) {
    const terminal::endpoint_route& r = set.routes[i];
    out.push_back({.target = r.db->describe(),
                   .first_warehouse = r.first,
                   .last_warehouse = r.last,
                   .results = r.recorder->take(),
                   .series = std::move(series[i]),
                   .sessions_replaced = r.db->stats().replaced});
  }
  return out;
}

}  // namespace tpcc::run
