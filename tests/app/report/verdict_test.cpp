// tests/app/report/verdict_test.cpp: the compliance verdict, item by item, and the summary
// lines around it.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "report/summary.hpp"
#include "report/verdict.hpp"
#include "sample_result.hpp"

namespace {

using tpcc::report::evaluate;
using tpcc::report::verdict;
using tpcc::testing::compliant;
namespace txn = tpcc::txn;

constexpr const char* postgres = "postgresql://tpcc@db/tpcc";

bool fails(const verdict& v, const std::string& name) {
  const auto names = v.failing();
  return std::find(names.begin(), names.end(), name) != names.end();
}

const tpcc::report::verdict_item& item(const verdict& v, const std::string& name) {
  for (const auto& i : v.items) {
    if (i.name == name) return i;
  }
  throw std::runtime_error("no item " + name);
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST(verdict, ACompliantRunPassesEveryItem) {
  const verdict v = evaluate(compliant(), postgres);
  EXPECT_TRUE(v.pass) << tpcc::report::format_verdict(v);
  EXPECT_TRUE(v.failing().empty());
  EXPECT_GE(v.items.size(), 20U);
}

TEST(verdict, AShortIntervalFailsNamingItsLength) {
  auto r = compliant();
  r.measured_seconds = 600;
  const verdict v = evaluate(r, postgres);
  EXPECT_FALSE(v.pass);
  EXPECT_EQ(v.failing(), std::vector<std::string>{"measurement interval"});
  EXPECT_EQ(item(v, "measurement interval").measured, "10.0 min");
  EXPECT_TRUE(contains(tpcc::report::format_verdict(v), "FAIL: 1 item(s) not met: measurement"));
}

TEST(verdict, ScaledOrNoWaitsAndSimulatedDatabasesFailWithTheReason) {
  auto r = compliant();
  r.wait_scale = 0.01;
  verdict v = evaluate(r, postgres);
  EXPECT_TRUE(fails(v, "keying and think times"));
  EXPECT_EQ(item(v, "keying and think times").measured, "scaled by 0.01");
  r.wait_scale = 0;
  v = evaluate(r, postgres);
  EXPECT_EQ(item(v, "keying and think times").measured, "--no-wait: none");
  v = evaluate(compliant(), "sim:latency=5ms");
  EXPECT_TRUE(fails(v, "database"));
  EXPECT_EQ(item(v, "database").measured, "simulated (client capacity mode)");
}

TEST(verdict, InputVariabilityOutsideItsRangeFails) {
  auto r = compliant();
  r.results.inputs.rollbacks_asked = r.results.inputs.new_orders * 2 / 100;
  r.results.inputs.remote_payments = r.results.inputs.payments * 13 / 100;
  r.results.inputs.order_lines = r.results.inputs.new_orders * 11;
  r.results.inputs.remote_lines = r.results.inputs.order_lines / 100;
  const verdict v = evaluate(r, postgres);
  EXPECT_TRUE(fails(v, "New-Order rollbacks"));
  EXPECT_EQ(item(v, "New-Order rollbacks").measured, "2.00 %");
  EXPECT_TRUE(fails(v, "remote Payments"));
  EXPECT_TRUE(fails(v, "mean order lines"));
  EXPECT_FALSE(fails(v, "remote order lines"));
  EXPECT_FALSE(fails(v, "Payments by last name"));
}

TEST(verdict, RemoteItemsAreNotJudgedWithOneWarehouse) {
  auto r = compliant();
  r.warehouses = 1;
  r.results.inputs.remote_lines = 0;
  r.results.inputs.remote_payments = 0;
  const verdict v = evaluate(r, postgres);
  EXPECT_FALSE(fails(v, "remote order lines"));
  EXPECT_TRUE(item(v, "remote Payments").informational);
  EXPECT_EQ(item(v, "remote Payments").measured, "n/a: 1 warehouse");
  r.warehouses = 2;
  EXPECT_TRUE(fails(evaluate(r, postgres), "remote Payments"));
}

TEST(verdict, NoDataFailsRatherThanPasses) {
  auto r = compliant();
  r.results.inputs.order_statuses = 0;
  r.results.inputs.order_statuses_by_name = 0;
  const verdict v = evaluate(r, postgres);
  EXPECT_TRUE(fails(v, "Order-Status by last name"));
  EXPECT_EQ(item(v, "Order-Status by last name").measured, "no data");
}

TEST(verdict, APaymentShareUnderTheMinimumFails) {
  auto r = compliant();
  r.results.kinds[txn::index(txn::kind::payment)].committed = 4280;  // 42.9 %
  const verdict v = evaluate(r, postgres);
  EXPECT_TRUE(fails(v, "Payment share of the mix"));
  EXPECT_FALSE(fails(v, "Stock-Level share of the mix"));
}

TEST(verdict, MixSharesAreJudgedAtTheStatedOneDecimal) {
  auto r = compliant();
  auto& sl = r.results.kinds[txn::index(txn::kind::stock_level)];
  sl.committed = 396;  // about 3.96 %: 4.0 % at the stated precision
  EXPECT_FALSE(fails(evaluate(r, postgres), "Stock-Level share of the mix"));
  sl.committed = 393;  // about 3.93 %: 3.9 %
  EXPECT_TRUE(fails(evaluate(r, postgres), "Stock-Level share of the mix"));
}

TEST(verdict, ResponseTimesAndLateDeliveriesFailAgainstTheirLimits) {
  auto r = compliant();
  auto& sl = r.results.kinds[txn::index(txn::kind::stock_level)].response;
  sl = {};
  for (int i = 0; i < 100; ++i) sl.record(std::uint64_t{21'000'000});
  auto& delivery = r.results.kinds[txn::index(txn::kind::delivery)].response;
  delivery = {};
  for (int i = 0; i < 100; ++i) delivery.record(std::uint64_t{6'000'000});
  r.results.deliveries_on_time = 300;
  r.results.deliveries_failed = 50;  // late too: 300 of 450
  const verdict v = evaluate(r, postgres);
  EXPECT_TRUE(fails(v, "Stock-Level p90"));
  EXPECT_TRUE(fails(v, "Delivery p90"));
  EXPECT_FALSE(fails(v, "New-Order p90"));
  EXPECT_TRUE(fails(v, "deferred Delivery within 80 s"));
  EXPECT_EQ(item(v, "deferred Delivery within 80 s").measured, "66.67 %");
}

TEST(verdict, ThinkTimesOffTheSpecMeanFail) {
  auto r = compliant();
  r.results.inputs.think_seconds *= 0.9;
  const verdict v = evaluate(r, postgres);
  EXPECT_TRUE(fails(v, "think-time mean applied"));
  EXPECT_EQ(item(v, "think-time mean applied").required, "11.4 s +- 5%");
}

TEST(verdict, ClientBoundInterruptedAndErroredRunsFail) {
  auto r = compliant();
  r.client.client_bound = true;
  r.client.client_bound_reason = "timer lateness p99 80 ms > 50 ms";
  r.interrupted = true;
  const verdict v = evaluate(r, postgres);
  EXPECT_TRUE(fails(v, "client not the bottleneck"));
  EXPECT_TRUE(contains(item(v, "client not the bottleneck").measured, "timer lateness"));
  EXPECT_TRUE(fails(v, "run completed"));
}

TEST(verdict, EfficiencyIsInformationalAndNeverFails) {
  auto r = compliant();
  r.results.kinds[txn::index(txn::kind::new_order)].committed = 10;  // far under 12.86 x W
  const verdict v = evaluate(r, postgres);
  EXPECT_TRUE(item(v, "efficiency").informational);
  EXPECT_FALSE(fails(v, "efficiency"));
}

TEST(summary, ShowsTheVerdictClientCostRoundTripsAndShard) {
  auto r = compliant();
  r.config.shard = {1, 2};
  r.first_warehouse = 6;
  r.last_warehouse = 10;
  const std::string s = tpcc::report::format_summary(r, postgres);
  EXPECT_TRUE(contains(s, "verdict     PASS")) << s;
  EXPECT_TRUE(contains(s, "shard       1/2: warehouses 6..10 of 10")) << s;
  EXPECT_TRUE(contains(s, "trips/txn")) << s;
  EXPECT_TRUE(contains(s, "(tpmC / (12.86 x 5 warehouses))")) << s;  // the shard's
  EXPECT_TRUE(contains(s, "     3.00\n")) << s;                      // 3 round trips per New-Order
  EXPECT_TRUE(contains(
      s, "CPU 12.5 s (10.2 s in the measurement interval), peak RSS before the reports 64.0 MiB"))
      << s;
  EXPECT_TRUE(contains(s, "2048 bytes per terminal")) << s;
  EXPECT_FALSE(contains(s, "CLIENT CAPACITY MODE")) << s;
}

TEST(summary, ASimulatedDatabaseIsLabelledOnTheFirstLine) {
  const std::string s = tpcc::report::format_summary(compliant(), "sim:latency=5ms");
  EXPECT_EQ(s.rfind("CLIENT CAPACITY MODE: simulated database, not a database result\n", 0), 0U)
      << s;
  EXPECT_TRUE(contains(s, "verdict     FAIL: 1 item(s) not met: database")) << s;
}

TEST(summary, AClientBoundRunSaysWhy) {
  auto r = compliant();
  r.client.client_bound = true;
  r.client.client_bound_reason = "workers saturated";
  const std::string s = tpcc::report::format_summary(r, postgres);
  EXPECT_TRUE(contains(s, "CLIENT-BOUND: workers saturated")) << s;
}

}  // namespace
