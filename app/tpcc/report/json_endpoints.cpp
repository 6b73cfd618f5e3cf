// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_endpoints.cpp: the "endpoints" array (see json_endpoints.hpp).
#include "report/json_endpoints.hpp"

#include "report/endpoints.hpp"
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
          {"lost", count_of(e.results, stats::txn_outcome::lost)},
          {"transactions", kinds}};
}

}  // namespace

json endpoints_json(const run::run_result& r) {
  json out = json::array();
  for (const run::endpoint_result& e : r.endpoints) out.push_back(endpoint_json(r, e));
  return out;
}

}  // namespace tpcc::report::detail
