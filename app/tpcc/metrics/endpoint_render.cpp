// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/endpoint_render.cpp: each endpoint's exposition (see endpoint_render.hpp).
#include "metrics/endpoint_render.hpp"

#include <array>
#include <string_view>

#include "stats/outcomes.hpp"
#include "txn/kind.hpp"

namespace tpcc::metrics {
namespace {

using endpoint_kinds = std::array<stats::kind_totals, txn::kind_count>;

void endpoint_outcomes(exposition& e, std::string_view endpoint, std::string_view name,
                       const endpoint_kinds& kinds) {
  for (const txn::kind k : txn::all_kinds) {
    const stats::outcome_counts& counts = kinds[txn::index(k)].outcomes;
    for (const stats::outcome_info& o : stats::outcome_table) {
      e.sample(name, {{"endpoint", endpoint}, {"type", txn::name(k)}, {"outcome", o.key}},
               static_cast<double>(counts[o.outcome]));
    }
  }
}

void endpoint_quantiles(exposition& e, std::string_view endpoint, const endpoint_kinds& kinds) {
  constexpr std::string_view name = "shoal_tpcc_endpoint_response_time_seconds";
  for (const txn::kind k : txn::all_kinds) {
    const stats::histogram& h = kinds[txn::index(k)].response;
    if (h.count() == 0) continue;
    for (const auto& [q, label] : {std::pair{0.9, "p90"}, std::pair{0.99, "p99"}}) {
      e.sample(name, {{"endpoint", endpoint}, {"type", txn::name(k)}, {"percentile", label}},
               static_cast<double>(h.percentile(q)) / 1e6);
    }
  }
}

// A figure of an endpoint's session pool, as a family of its own.
struct endpoint_pool_figure {
  std::string_view name;
  metric_type type;
  std::string_view help;
  double (*value)(const driver::pool_stats&);
};

double pool_open(const driver::pool_stats& p) { return static_cast<double>(p.size); }
double pool_lent(const driver::pool_stats& p) { return static_cast<double>(p.in_use); }
double pool_waiters(const driver::pool_stats& p) { return static_cast<double>(p.waiting); }
double pool_replaced(const driver::pool_stats& p) { return static_cast<double>(p.replaced); }

constexpr std::array<endpoint_pool_figure, 4> endpoint_pool_figures{{
    {"shoal_tpcc_endpoint_sessions", metric_type::gauge,
     "Database sessions in each endpoint's pool", pool_open},
    {"shoal_tpcc_endpoint_sessions_in_use", metric_type::gauge,
     "Sessions of each endpoint's pool lent to a transaction", pool_lent},
    {"shoal_tpcc_endpoint_session_waiters", metric_type::gauge,
     "Transactions waiting for a session of each endpoint's pool", pool_waiters},
    {"shoal_tpcc_endpoint_sessions_replaced_total", metric_type::counter,
     "Broken sessions each endpoint's pool replaced (reconnects)", pool_replaced},
}};

void endpoint_pools(exposition& e, const std::vector<run::endpoint_totals>& endpoints) {
  for (const endpoint_pool_figure& f : endpoint_pool_figures) {
    e.family(f.name, f.type, f.help);
    for (const run::endpoint_totals& t : endpoints) {
      e.sample(f.name, {{"endpoint", t.target}}, f.value(t.pool));
    }
  }
}

}  // namespace

void render_endpoints(exposition& e, const std::vector<run::endpoint_totals>& endpoints) {
  if (endpoints.empty()) return;
  constexpr std::string_view all = "shoal_tpcc_endpoint_transactions_total";
  e.family(all, metric_type::counter,
           "Transactions ended on each endpoint since the terminals started, by type and outcome");
  for (const run::endpoint_totals& t : endpoints)
    endpoint_outcomes(e, t.target, all, t.totals.kinds);
  constexpr std::string_view measured = "shoal_tpcc_endpoint_measured_transactions_total";
  e.family(measured, metric_type::counter,
           "Transactions ended on each endpoint inside the measurement interval, by type and "
           "outcome");
  for (const run::endpoint_totals& t : endpoints) {
    endpoint_outcomes(e, t.target, measured, t.totals.window);
  }
  e.family("shoal_tpcc_endpoint_response_time_seconds", metric_type::gauge,
           "p90 and p99 response time of each endpoint's completed transactions since the "
           "terminals started, by type");
  for (const run::endpoint_totals& t : endpoints) endpoint_quantiles(e, t.target, t.totals.kinds);
  endpoint_pools(e, endpoints);
}

}  // namespace tpcc::metrics
