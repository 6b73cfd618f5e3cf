// app/tpcc/report/verdict_audit.cpp: the verdict's items from the interval's counts (see
// verdict_audit.hpp).
#include "report/verdict_audit.hpp"

#include <array>
#include <cmath>
#include <cstdint>

#include "report/text.hpp"
#include "txn/kind.hpp"

namespace tpcc::report {
namespace {

// A share (or mean) checked against [low, high], printed with `unit` (e.g. "%" or "").
struct range_check {
  const char* name;
  const char* clause;
  double low, high;  // inclusive, in the unit shown
  double scale;      // 100 for a percentage, 1 for a mean
  const char* unit;
};

verdict_item ranged(const range_check& c, std::uint64_t part, std::uint64_t whole) {
  verdict_item i = named(c.name, c.clause);
  i.required = format("%g-%g%s", c.low, c.high, c.unit);
  if (whole == 0) {
    i.measured = "no data";
    return i;
  }
  const double value = c.scale * static_cast<double>(part) / static_cast<double>(whole);
  i.measured = format("%.2f%s", value, c.unit);
  i.pass = value >= c.low && value <= c.high;
  return i;
}

std::uint64_t ended(const stats::kind_totals& t) {
  return t.committed + t.rolled_back + t.failed + t.lost;
}

// Think time tolerance: the mean applied must be within 5 % of the spec's weighted mean.
constexpr double think_tolerance = 0.05;

verdict_item think_item(const run::run_result& r) {
  const stats::input_counts& in = r.results.inputs;
  verdict_item i = named("think-time mean applied", "5.2.5.4");
  const double expected = expected_think_seconds(r);
  i.required = format("%.3g s +- 5%%", expected);
  if (in.think_times == 0 || expected <= 0) {
    i.measured = r.wait_scale == 0.0 ? "none (--no-wait)" : "no data";
    return i;
  }
  const double applied = in.think_seconds / static_cast<double>(in.think_times) * r.wait_scale;
  i.measured = format("%.3g s", applied);
  i.pass = std::abs(applied - expected) <= think_tolerance * expected;
  return i;
}

verdict_item p90_item(const run::run_result& r, txn::kind k, double limit_seconds) {
  const stats::kind_totals& t = r.results.kinds[txn::index(k)];
  verdict_item i = named(std::string(txn::name(k)).append(" p90"), "5.2.5.3");
  i.required = format("<= %g s", limit_seconds);
  if (t.response.count() == 0) {
    i.measured = "no data";
    return i;
  }
  const double p90 = static_cast<double>(t.response.percentile(0.9)) / 1e6;
  i.measured = format("%.3f s", p90);
  i.pass = p90 <= limit_seconds;
  return i;
}

// With one warehouse there is no remote warehouse (clauses 2.4.1.5, 2.5.1.2): shown, not judged.
verdict_item remote(const run::run_result& r, verdict_item i) {
  if (r.warehouses != 1) return i;
  i.measured = "n/a: 1 warehouse";
  i.informational = true;
  i.pass = true;
  return i;
}

}  // namespace

double expected_think_seconds(const run::run_result& r) {
  double weighted = 0;
  std::uint64_t total = 0;
  for (const txn::kind k : txn::all_kinds) {
    const std::uint64_t n = ended(r.results.kinds[txn::index(k)]);
    weighted += static_cast<double>(n) * txn::think_mean_seconds[txn::index(k)];
    total += n;
  }
  return total == 0 ? 0.0 : weighted / static_cast<double>(total) * r.wait_scale;
}

void append_input_audit(const run::run_result& r, std::vector<verdict_item>& items) {
  const stats::input_counts& in = r.results.inputs;
  items.push_back(ranged({"New-Order rollbacks", "2.4.1.4", 0.9, 1.1, 100, " %"},
                         in.rollbacks_asked, in.new_orders));
  items.push_back(
      ranged({"mean order lines", "2.4.1.3", 9.5, 10.5, 1, ""}, in.order_lines, in.new_orders));
  items.push_back(remote(r, ranged({"remote order lines", "2.4.1.5", 0.95, 1.05, 100, " %"},
                                   in.remote_lines, in.order_lines)));
  items.push_back(remote(r, ranged({"remote Payments", "2.5.1.2", 14, 16, 100, " %"},
                                   in.remote_payments, in.payments)));
  items.push_back(ranged({"Payments by last name", "2.5.1.2", 57, 63, 100, " %"},
                         in.payments_by_name, in.payments));
  items.push_back(ranged({"Order-Status by last name", "2.6.1.2", 57, 63, 100, " %"},
                         in.order_statuses_by_name, in.order_statuses));
  items.push_back(think_item(r));
}

void append_mix(const run::run_result& r, std::vector<verdict_item>& items) {
  std::uint64_t total = 0;
  for (const auto& t : r.results.kinds) total += ended(t);
  constexpr std::array<std::pair<txn::kind, double>, 4> minimums{{{txn::kind::payment, 43.0},
                                                                  {txn::kind::order_status, 4.0},
                                                                  {txn::kind::delivery, 4.0},
                                                                  {txn::kind::stock_level, 4.0}}};
  for (const auto& [k, minimum] : minimums) {
    const std::string name = std::string(txn::name(k)).append(" share of the mix");
    const std::uint64_t n = ended(r.results.kinds[txn::index(k)]);
    verdict_item i = ranged({name.c_str(), "5.2.3", minimum, 100, 100, " %"}, n, total);
    // The minimums are stated to one decimal (43.0 %, 4.0 %) and the deck deals exactly them,
    // so the share over a window sits on the line: it is judged at the stated precision.
    if (total > 0) {
      const double share = 100.0 * static_cast<double>(n) / static_cast<double>(total);
      i.pass = std::round(share * 10.0) / 10.0 >= minimum;
    }
    i.required = format(">= %.1f %% (at one decimal)", minimum);
    items.push_back(std::move(i));
  }
}

void append_response_times(const run::run_result& r, std::vector<verdict_item>& items) {
  // Delivery's limit is the terminal's part (queueing); its completion is the 80 s rule below.
  for (const txn::kind k : txn::all_kinds) {
    items.push_back(p90_item(r, k, txn::p90_limit_seconds[txn::index(k)]));
  }
  const stats::snapshot& s = r.results;
  const std::uint64_t ended_deliveries = s.deliveries_done + s.deliveries_failed;
  const double share = 100 * txn::deferred_delivery_on_time_share;
  items.push_back(ranged({"deferred Delivery within 80 s", "2.7.2.2", share, 100, 100, " %"},
                         s.deliveries_on_time, ended_deliveries));
  items.back().required =
      format(">= %g %% within %g s", share, txn::deferred_delivery_limit_seconds);
}

}  // namespace tpcc::report
