// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_endpoints.cpp: the "endpoints" array (see json_endpoints.hpp).
#include "report/json_endpoints.hpp"

#include "report/endpoint_outage.hpp"
#include "report/endpoints.hpp"
#include "report/json_server.hpp"
#include "report/servers.hpp"
#include "txn/kind.hpp"

namespace tpcc::report::detail {
namespace {

using nlohmann::json;

json endpoint_kind_json(txn::kind k, const stats::kind_totals& t) {
  json out = {{"type", txn::name(k)},
              {"retries", t.retries},
              {"response",
               {{"count", t.response.count()},
                {"p50_us", t.response.percentile(0.5)},
                {"p90_us", t.response.percentile(0.9)},
                {"p99_us", t.response.percentile(0.99)},
                {"max_us", t.response.max()}}}};
  for (const stats::outcome_info& i : stats::outcome_table) {
    out[std::string(i.key)] = t.outcomes[i.outcome];
  }
  return out;
}

// Per type, its part of one interval.
json endpoint_interval_kinds(const stats::endpoint_interval& i) {
  json out = json::array();
  for (const txn::kind k : txn::all_kinds) {
    const stats::endpoint_kind_interval& t = i.kinds[txn::index(k)];
    out.push_back({{"type", txn::name(k)},
                   {"completed", t.completed},
                   {"failed", t.failed},
                   {"p90_us", t.completed > 0 ? json(t.p90_us) : json(nullptr)}});
  }
  return out;
}

json endpoint_series_json(const std::vector<stats::endpoint_interval>& series) {
  json out = json::array();
  for (const stats::endpoint_interval& i : series) {
    out.push_back(
        {{"start_seconds", i.start_seconds},
         {"end_seconds", i.end_seconds},
         {"phase", stats::to_string(i.in)},
         {"completed", i.completed},
         {"new_orders", i.new_orders},
         {"failed", i.failed},
         {"lost", i.lost},
         {"pool", {{"size", i.pool_size}, {"in_use", i.pool_in_use}, {"waiting", i.pool_waiting}}},
         {"transactions", endpoint_interval_kinds(i)}});
  }
  return out;
}

json endpoint_outage_json(const run::endpoint_result& e) {
  const endpoint_outage o = outage_of(e);
  if (!o.happened()) return nullptr;
  return {{"lost", o.lost},
          {"intervals", o.intervals},
          {"from_seconds", o.from_seconds},
          {"to_seconds", o.to_seconds},
          {"sessions_replaced", o.sessions_replaced}};
}

json endpoint_deliveries_json(const stats::snapshot& s) {
  return {{"queued", s.deliveries_done + s.deliveries_failed},
          {"completed", s.deliveries_done},
          {"on_time", s.deliveries_on_time},
          {"failed", s.deliveries_failed},
          {"lost", s.deliveries_lost},
          {"skipped_districts", s.skipped_districts},
          {"completion_p90_us", s.delivery_completion.percentile(0.9)}};
}

json endpoint_json(const run::run_result& r, const run::endpoint_result& e) {
  json kinds = json::array();
  for (const txn::kind k : txn::all_kinds) {
    kinds.push_back(endpoint_kind_json(k, e.results.kinds[txn::index(k)]));
  }
  return {{"target", e.target},
          {"first_warehouse", e.first_warehouse},
          {"last_warehouse", e.last_warehouse},
          {"tpmc", endpoint_tpmc(r, e)},
          {"completed", completed_all(e.results)},
          {"failed", failures_all(e.results)},
          {"lost", lost_all(e.results)},
          {"transactions", kinds},
          {"deliveries", endpoint_deliveries_json(e.results)},
          {"sessions_replaced", e.sessions_replaced},
          {"outage", endpoint_outage_json(e)},
          {"server", e.server < 0 ? json(nullptr) : json(e.server)},
          {"series", endpoint_series_json(e.series)}};
}

}  // namespace

json endpoints_json(const run::run_result& r) {
  json out = json::array();
  for (const run::endpoint_result& e : r.endpoints) out.push_back(endpoint_json(r, e));
  return out;
}

json more_servers_json(const run::run_result& r) {
  json out = json::array();
  for (std::size_t k = 1; k <= r.more_servers.size(); ++k) {
    out.push_back(server_json(r.more_servers[k - 1], server_endpoints(r, k)));
  }
  return out;
}

}  // namespace tpcc::report::detail
