// SPDX-License-Identifier: Apache-2.0
// tests/app/compare/compare_test.cpp: the comparison on results built by hand: the intervals
// (terminal groups, the Poisson floor, the percentile's ranks, the client's lateness), noise
// against a real difference, --fail-if-slower's rule, the configuration differences named first,
// and the three renderings.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "compare/comparison.hpp"
#include "compare/render.hpp"
#include "txn/kind.hpp"

namespace {

namespace cmp = tpcc::compare;
using tpcc::report::loaded_result;
using tpcc::stats::txn_outcome;
using tpcc::txn::kind;

constexpr auto new_order = tpcc::txn::index(kind::new_order);
constexpr auto payment = tpcc::txn::index(kind::payment);

// One warehouse, ten terminals (groups 0-9), a one-minute window: `per_terminal` New-Orders
// completed by each terminal (plus `spread` x (g - 4.5) by terminal g), each answered in
// `latency_us`; Payments the same.
loaded_result run_of(std::uint64_t per_terminal, std::uint64_t latency_us, double spread = 0) {
  loaded_result l;
  auto& r = l.result;
  r.warehouses = 1;
  r.first_warehouse = r.last_warehouse = 1;
  r.terminals = 10;
  r.measured_seconds = 60;
  r.origin.server_version = "PostgreSQL 15.20";
  l.context.target = "postgresql://tpcc@db/tpcc";
  l.context.version = "1.0";
  for (const auto k : {new_order, payment}) {
    auto& t = r.results.kinds[k];
    for (std::size_t g = 0; g < 10; ++g) {
      const auto n = static_cast<std::uint64_t>(static_cast<double>(per_terminal) +
                                                spread * (static_cast<double>(g) - 4.5));
      t.groups.completed[g] = n;
      t.groups.ended[g] = n;
      t.outcomes[txn_outcome::committed] += n;
      for (std::uint64_t i = 0; i < n; ++i) t.response.record(latency_us + i % 50);
    }
  }
  return l;
}

const cmp::row& row_named(const cmp::comparison& c, const std::string& figure) {
  const auto it = std::find_if(c.rows.begin(), c.rows.end(),
                               [&](const cmp::row& r) { return r.figure == figure; });
  if (it == c.rows.end()) throw std::runtime_error("no row " + figure);
  return *it;
}

TEST(compare_estimate, ThroughputIsCompletedPerMinuteWithTheWiderOfGroupAndPoissonIntervals) {
  const loaded_result even = run_of(100, 5000);
  const cmp::estimate e = cmp::throughput(even.result, kind::new_order);
  ASSERT_TRUE(e.known);
  EXPECT_DOUBLE_EQ(e.value, 1000.0);  // 10 terminals x 100 in one minute
  // Every group alike: the Poisson floor, 4.417 x sqrt(1000).
  EXPECT_NEAR(e.ci.high - e.value, 4.417 * std::sqrt(1000.0), 1e-6);
  EXPECT_NEAR(e.value - e.ci.low, 4.417 * std::sqrt(1000.0), 1e-6);
  // Groups far apart: their spread decides, wider than the floor.
  const cmp::estimate spread = cmp::throughput(run_of(100, 5000, 20).result, kind::new_order);
  EXPECT_GT(spread.ci.high - spread.value, 2 * (e.ci.high - e.value));
  // Every type: New-Orders and Payments.
  EXPECT_DOUBLE_EQ(cmp::throughput(even.result, std::nullopt).value, 2000.0);
}

TEST(compare_estimate, GroupsWeighByTheirTerminals) {
  loaded_result l = run_of(100, 5000);
  l.result.warehouses = l.result.last_warehouse = 4;
  l.result.terminals = 40;
  const auto size = cmp::terminals_per_group(l.result);
  EXPECT_EQ(size[0], 2U);  // terminals 0 and 32
  EXPECT_EQ(size[7], 2U);  // 7 and 39
  EXPECT_EQ(size[8], 1U);
  // Counts in proportion to the groups' terminals are no spread at all: the Poisson floor.
  auto& t = l.result.results.kinds[new_order];
  t.outcomes = {};
  for (std::size_t g = 0; g < size.size(); ++g) {
    t.groups.completed[g] = 50 * size[g];
    t.outcomes[txn_outcome::committed] += 50 * size[g];
  }
  const cmp::estimate e = cmp::throughput(l.result, kind::new_order);
  EXPECT_NEAR(e.ci.high - e.value, 4.417 * std::sqrt(2000.0), 1e-6);
  // Warehouses and terminals that disagree: each group weighs alike.
  l.result.terminals = 39;
  EXPECT_EQ(cmp::terminals_per_group(l.result)[0], 1U);
}

TEST(compare_estimate, TerminalsPerGroupAreCountedAsTheRunNumbersTerminals) {
  loaded_result l = run_of(100, 5000);
  auto& r = l.result;
  r.first_warehouse = 5;  // a shard: warehouses 5-41, 13 terminals each
  r.last_warehouse = 41;
  r.config.terminals_per_warehouse = 13;
  r.terminals = 37 * 13;
  tpcc::stats::group_counts::counts expected{};
  for (std::int64_t w = 5; w <= 41; ++w) {
    for (std::int64_t d = 0; d < 13; ++d)
      ++expected[static_cast<std::size_t>(((w - 1) * 10 + d % 10) % 32)];
  }
  EXPECT_EQ(cmp::terminals_per_group(r), expected);
}

TEST(compare_estimate, APercentilesIntervalSpansTheRanksAroundIt) {
  tpcc::stats::histogram h;
  for (std::uint64_t v = 1; v <= 1000; ++v) h.record(v * 10);  // 10 us .. 10 ms
  const cmp::estimate p90 = cmp::percentile_ms(h, 0.9);
  ASSERT_TRUE(p90.known);
  EXPECT_NEAR(p90.value, 9.0, 9.0 * 0.032);
  EXPECT_LT(p90.ci.low, 8.8);  // rank 900 - 4.417 x sqrt(1000 x 0.9 x 0.1) ~ 858
  EXPECT_GT(p90.ci.low, 8.2);
  EXPECT_GT(p90.ci.high, 9.3);
  // The client's lateness lowers the low end (never below 0).
  EXPECT_NEAR(cmp::percentile_ms(h, 0.9, 2.0).ci.low, p90.ci.low - 2.0, 1e-9);
  EXPECT_EQ(cmp::percentile_ms(h, 0.9, 50.0).ci.low, 0.0);
  EXPECT_FALSE(cmp::percentile_ms(tpcc::stats::histogram{}, 0.9).known);
}

TEST(compare, TwoRunsWithinNoiseShowNoDifferenceInAnyRow) {
  const cmp::comparison c = cmp::compare(run_of(100, 5000), "a.json", run_of(104, 5050), "b.json");
  EXPECT_TRUE(c.config.empty());
  for (const cmp::row& r : c.rows) {
    // A throughput of none is a measurement too; a percentile of nothing is not.
    if (r.unit == "tpm" || r.figure.starts_with("New-Order") || r.figure.starts_with("Payment")) {
      EXPECT_EQ(r.judged, cmp::change::none) << r.figure;
    } else {
      EXPECT_EQ(r.judged, cmp::change::unknown) << r.figure << ": nothing measured";
    }
  }
  EXPECT_NEAR(row_named(c, "tpmC").percent, 4.0, 1e-9);
  EXPECT_TRUE(cmp::beyond_noise(c).empty());
  EXPECT_TRUE(cmp::gate(c, 1).empty());
}

TEST(compare, ARealDifferenceIsBeyondNoiseAndTheGateNamesIt) {
  // B: half the New-Orders, each answered in twice the time.
  loaded_result slow = run_of(100, 5000);
  slow.result.results.kinds[new_order] = run_of(50, 10000).result.results.kinds[new_order];
  const cmp::comparison c = cmp::compare(run_of(100, 5000), "a.json", slow, "b.json");
  EXPECT_EQ(row_named(c, "tpmC").judged, cmp::change::slower);
  EXPECT_NEAR(row_named(c, "tpmC").percent, -50.0, 1e-9);
  EXPECT_EQ(row_named(c, "New-Order p90").judged, cmp::change::slower);
  EXPECT_EQ(row_named(c, "Payment p90").judged, cmp::change::none);
  const auto slower = cmp::gate(c, 5);
  ASSERT_EQ(slower.size(), 2U);  // tpmC and New-Order p90; p50 and p99 are not gated
  EXPECT_EQ(slower[0]->figure, "tpmC");
  EXPECT_EQ(slower[1]->figure, "New-Order p90");
  // Worse by 50 % and ~100 %: a 60 % gate lets tpmC through, not the p90.
  ASSERT_EQ(cmp::gate(c, 60).size(), 1U);
  EXPECT_EQ(cmp::gate(c, 60)[0]->figure, "New-Order p90");
  // The other way round it is faster, and no gate fails.
  const cmp::comparison back = cmp::compare(slow, "b.json", run_of(100, 5000), "a.json");
  EXPECT_EQ(row_named(back, "tpmC").judged, cmp::change::faster);
  EXPECT_TRUE(cmp::gate(back, 0).empty());
}

TEST(compare, TheClientsOwnLatenessIsNotLaidAtTheDatabasesDoor) {
  // B's New-Orders 0.4 ms slower than A's: beyond noise, unless B's client woke that late.
  const cmp::comparison c = cmp::compare(run_of(100, 5000), "a", run_of(100, 5400), "b");
  EXPECT_EQ(row_named(c, "New-Order p50").judged, cmp::change::slower);
  loaded_result late = run_of(100, 5400);
  late.result.client.timer_lateness.record(std::uint64_t{600});
  const cmp::comparison l = cmp::compare(run_of(100, 5000), "a", late, "b");
  EXPECT_EQ(row_named(l, "New-Order p50").judged, cmp::change::none);
}

TEST(compare, ConfigurationDifferencesAreNamedLikelyCausesFirst) {
  loaded_result b = run_of(100, 5000);
  b.result.config.seed = 42;
  b.result.warehouses = 2;
  b.result.origin.server_version = "PostgreSQL 16.1";
  b.result.config.isolation = tpcc::driver::isolation::serializable;
  const auto d = cmp::config_differences(run_of(100, 5000), b);
  ASSERT_EQ(d.size(), 4U);
  EXPECT_EQ(d[0].setting, "server version");
  EXPECT_EQ(d[0].b, "PostgreSQL 16.1");
  EXPECT_EQ(d[1].setting, "warehouses");
  EXPECT_EQ(d[1].a, "1");
  EXPECT_EQ(d[1].b, "2");
  EXPECT_EQ(d[2].setting, "isolation");
  EXPECT_TRUE(d[2].likely_cause);
  EXPECT_EQ(d[3].setting, "seed");
  EXPECT_FALSE(d[3].likely_cause);
  loaded_result sqlite = run_of(100, 5000);
  sqlite.context.target = "sqlite:x.db";
  const auto kinds = cmp::config_differences(run_of(100, 5000), sqlite);
  ASSERT_FALSE(kinds.empty());
  EXPECT_EQ(kinds[0].setting, "database");
  EXPECT_EQ(kinds[0].a, "PostgreSQL");
  EXPECT_EQ(kinds[0].b, "SQLite");
}

cmp::compare_report report_of(double fail_if_slower) {
  loaded_result slow = run_of(100, 5000);
  slow.result.results.kinds[new_order] = run_of(50, 10000).result.results.kinds[new_order];
  slow.result.warehouses = 2;
  cmp::compare_report r;
  r.fail_if_slower = fail_if_slower;
  r.comparisons.push_back(cmp::compare(run_of(100, 5000), "a.json", run_of(100, 5000), "b.json"));
  r.comparisons.push_back(cmp::compare(run_of(100, 5000), "a.json", slow, "<c>.json"));
  return r;
}

TEST(compare_render, TheTextNamesConfigurationFirstThenRowsThenTheGate) {
  const std::string text = cmp::format_text(report_of(5));
  const auto second = text.find("B = <c>.json against A = a.json");
  ASSERT_NE(second, std::string::npos) << text;
  EXPECT_NE(text.find("configuration: the same"), std::string::npos);
  const auto config = text.find("configuration differs", second);
  const auto warehouses = text.find("warehouses ", second);
  const auto tpmc = text.find("  tpmC ", second);
  EXPECT_LT(config, warehouses);
  EXPECT_LT(warehouses, tpmc);
  EXPECT_NE(text.find("result: no difference beyond noise in any figure"), std::string::npos);
  EXPECT_NE(text.find("gate: FAILED: <c>.json is slower than a.json by more than 5 % beyond "
                      "noise: tpmC slower (-50.0 %), New-Order p90 slower"),
            std::string::npos)
      << text;
  EXPECT_TRUE(report_of(5).gate_failed());
  EXPECT_FALSE(report_of(500).gate_failed());
  cmp::compare_report none = report_of(5);
  none.fail_if_slower.reset();
  EXPECT_FALSE(none.gate_failed());
  EXPECT_EQ(cmp::format_text(none).find("gate:"), std::string::npos);
}

TEST(compare_render, TheJsonCarriesEveryRowAndTheGate) {
  const auto doc = nlohmann::json::parse(cmp::to_json_text(report_of(5)));
  EXPECT_EQ(doc["format"], "shoal-tpcc-comparison");
  EXPECT_EQ(doc["gate_failed"], true);
  EXPECT_EQ(doc["fail_if_slower_percent"], 5.0);
  ASSERT_EQ(doc["comparisons"].size(), 2U);
  const auto& same = doc["comparisons"][0];
  EXPECT_EQ(same["beyond_noise"].size(), 0U);
  EXPECT_EQ(same["rows"][0]["figure"], "tpmC");
  EXPECT_EQ(same["rows"][0]["judgement"], "no difference beyond noise");
  EXPECT_EQ(same["rows"][0]["a"]["value"], 1000.0);
  const auto& slow = doc["comparisons"][1];
  EXPECT_EQ(slow["b"], "<c>.json");
  EXPECT_EQ(slow["config_differences"][0]["setting"], "warehouses");
  EXPECT_EQ(slow["config_differences"][0]["likely_cause"], true);
  EXPECT_EQ(slow["slower"], nlohmann::json::array({"tpmC", "New-Order p90"}));
  // A type with nothing measured: null values, not zeros.
  EXPECT_TRUE(slow["rows"].back()["a"].is_null());
}

TEST(compare_render, TheHtmlIsOnePageWithEveryFileNameEscaped) {
  const std::string page = cmp::format_html(report_of(5));
  EXPECT_TRUE(page.starts_with("<!DOCTYPE html>"));
  EXPECT_NE(page.find("&lt;c&gt;.json"), std::string::npos);
  EXPECT_EQ(page.find("<c>.json"), std::string::npos);
  EXPECT_NE(page.find("Gate FAILED"), std::string::npos);
  EXPECT_NE(page.find("<td class=\"fail\">slower beyond noise</td>"), std::string::npos);
}

}  // namespace
