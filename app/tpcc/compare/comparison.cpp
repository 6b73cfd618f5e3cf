// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/comparison.cpp: B against A, row by row (see comparison.hpp).
#include "compare/comparison.hpp"

#include <array>

#include "compare/ch_rows.hpp"
#include "report/text.hpp"

namespace tpcc::compare {
namespace {

constexpr std::array<std::pair<double, const char*>, 3> percentiles{
    {{0.5, "p50"}, {0.9, "p90"}, {0.99, "p99"}}};

// The row's difference and judgement from its two estimates.
row judged(row r) {
  if (!r.a.known || !r.b.known) return r;
  r.difference = r.b.value - r.a.value;
  r.percent = r.a.value != 0 ? r.difference / r.a.value * 100.0 : 0.0;
  if (overlap(r.a.ci, r.b.ci)) {
    r.judged = change::none;
  } else {
    r.judged = (r.difference > 0) == r.higher_is_better ? change::faster : change::slower;
  }
  return r;
}

row throughput_row(std::string figure, bool gated, const run::run_result& a,
                   const run::run_result& b, std::optional<txn::kind> k) {
  row r;
  r.figure = std::move(figure);
  r.unit = "tpm";
  r.gated = gated;
  r.a = throughput(a, k);
  r.b = throughput(b, k);
  return judged(std::move(r));
}

// The client's own timer lateness, p99 of its probes over the run, in ms (estimate.hpp).
double lateness_ms(const run::run_result& r) {
  return static_cast<double>(r.client.timer_lateness.percentile(0.99)) / 1000.0;
}

row latency_row(txn::kind k, std::size_t p, const run::run_result& a, const run::run_result& b) {
  row r;
  r.figure = std::string(txn::name(k)) + " " + percentiles[p].second;
  r.unit = "ms";
  r.gated = percentiles[p].first == 0.9;
  r.higher_is_better = false;
  const double f = percentiles[p].first;
  r.a = percentile_ms(a.results.kinds[txn::index(k)].response, f, lateness_ms(a));
  r.b = percentile_ms(b.results.kinds[txn::index(k)].response, f, lateness_ms(b));
  return judged(std::move(r));
}

}  // namespace

const char* describe(change c) noexcept {
  switch (c) {
    case change::none:
      return "no difference beyond noise";
    case change::faster:
      return "faster beyond noise";
    case change::slower:
      return "slower beyond noise";
    default:
      return "not measured";
  }
}

comparison compare(const report::loaded_result& a, const std::string& file_a,
                   const report::loaded_result& b, const std::string& file_b) {
  comparison c{file_a, file_b, config_differences(a, b), {}, {}, {}};
  const run::run_result& ra = a.result;
  const run::run_result& rb = b.result;
  c.rows.push_back(throughput_row("tpmC", true, ra, rb, txn::kind::new_order));
  c.rows.push_back(throughput_row("tpmTotal", false, ra, rb, std::nullopt));
  if (auto qphh = qphh_row(ra, rb)) c.rows.push_back(judged(std::move(*qphh)));  // CH-benCHmark
  for (const txn::kind k : txn::all_kinds) {
    if (k != txn::kind::new_order) {  // New-Order's is tpmC
      c.rows.push_back(throughput_row(std::string(txn::name(k)) + " tpm", false, ra, rb, k));
    }
    for (std::size_t p = 0; p < percentiles.size(); ++p)
      c.rows.push_back(latency_row(k, p, ra, rb));
  }
  for (row& r : ch_query_rows(ra, lateness_ms(ra), rb, lateness_ms(rb))) {
    c.rows.push_back(judged(std::move(r)));
  }
  c.steps = compare_steps(ra, rb);
  c.ch_effect = compare_ch_effect(ra, rb);
  return c;
}

std::vector<const row*> gate(const comparison& c, double percent) {
  std::vector<const row*> out;
  for (const row& r : c.rows) {
    if (!r.gated || r.judged != change::slower) continue;
    const double slower_by = r.higher_is_better ? -r.percent : r.percent;
    if (slower_by > percent) out.push_back(&r);
  }
  return out;
}

std::vector<const row*> beyond_noise(const comparison& c) {
  std::vector<const row*> out;
  for (const row& r : c.rows) {
    if (r.judged == change::faster || r.judged == change::slower) out.push_back(&r);
  }
  return out;
}

}  // namespace tpcc::compare
