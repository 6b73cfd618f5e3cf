// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/endpoints.cpp: each endpoint's figures and text (see endpoints.hpp).
#include "report/endpoints.hpp"

#include "report/endpoint_outage.hpp"
#include "report/summary.hpp"
#include "report/text.hpp"
#include "txn/kind.hpp"

namespace tpcc::report {
namespace {

using ull = unsigned long long;

// A percentile of an endpoint's responses in milliseconds, "-" without a sample.
std::string endpoint_ms(const stats::histogram& h, double fraction) {
  if (h.count() == 0) return "-";
  return format("%.1f", static_cast<double>(h.percentile(fraction)) / 1000.0);
}

std::string endpoint_row(txn::kind k, const stats::kind_totals& t) {
  return format("    %-13s %10llu %8llu %8llu %8s %8s\n", std::string(txn::name(k)).c_str(),
                static_cast<ull>(t.outcomes.completed()), static_cast<ull>(t.outcomes.failures()),
                static_cast<ull>(t.outcomes[stats::txn_outcome::lost]),
                endpoint_ms(t.response, 0.9).c_str(), endpoint_ms(t.response, 0.99).c_str());
}

std::string endpoint_block(const run::run_result& r, std::size_t i) {
  const run::endpoint_result& e = r.endpoints[i];
  std::string out = format("  endpoint %zu/%zu  ", i + 1, r.endpoints.size());
  out.append(e.target).append("\n");
  out += format(
      "    warehouses %lld-%lld, tpmC %.2f, %llu completed, %llu failed (%llu of them lost)\n",
      static_cast<long long>(e.first_warehouse), static_cast<long long>(e.last_warehouse),
      endpoint_tpmc(r, e), static_cast<ull>(completed_all(e.results)),
      static_cast<ull>(failures_all(e.results)), static_cast<ull>(lost_all(e.results)));
  out += format("    %-13s %10s %8s %8s %8s %8s\n", "transaction", "completed", "failed", "lost",
                "p90 ms", "p99 ms");
  for (const txn::kind k : txn::all_kinds) out += endpoint_row(k, e.results.kinds[txn::index(k)]);
  out += "    deferred Delivery: " + deferred_delivery_figures(e.results) + "\n";
  const std::string outage = outage_text(outage_of(e));
  if (!outage.empty()) out += "    " + outage + "\n";
  return out;
}

}  // namespace

double endpoint_tpmc(const run::run_result& r, const run::endpoint_result& e) {
  if (r.measured_seconds <= 0) return 0;
  return static_cast<double>(completed_new_orders(e.results)) * 60.0 / r.measured_seconds;
}

std::uint64_t count_of(const stats::snapshot& s, stats::txn_outcome o) {
  std::uint64_t n = 0;
  for (const stats::kind_totals& t : s.kinds) n += t.outcomes[o];
  return n;
}

std::uint64_t completed_all(const stats::snapshot& s) {
  std::uint64_t n = 0;
  for (const stats::kind_totals& t : s.kinds) n += t.outcomes.completed();
  return n;
}

std::uint64_t failures_all(const stats::snapshot& s) {
  std::uint64_t n = s.deliveries_failed;
  for (const stats::kind_totals& t : s.kinds) n += t.outcomes.failures();
  return n;
}

std::uint64_t lost_all(const stats::snapshot& s) {
  return count_of(s, stats::txn_outcome::lost) + s.deliveries_lost;
}

std::string endpoints_text(const run::run_result& r) {
  if (r.endpoints.empty()) return {};
  std::string out =
      "\n  per endpoint (the totals above are their sum; the verdict judges the whole run)\n";
  for (std::size_t i = 0; i < r.endpoints.size(); ++i) out += endpoint_block(r, i);
  const std::size_t down = endpoint_outages(r).size();
  if (down > 0) {
    out += format(
        "  %zu endpoint(s) lost for part of the run: exit status 3 unless --tolerate-errors "
        "(the verdict below judges the whole run)\n",
        down);
  }
  return out;
}

}  // namespace tpcc::report
