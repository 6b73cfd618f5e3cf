// SPDX-License-Identifier: Apache-2.0
// tests/app/report/merge_test.cpp: merging shards' results: counts and buckets add, series
// align by wall clock, client figures combine, incompatible inputs are refused by name.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/merge.hpp"
#include "report/summary.hpp"
#include "sample_result.hpp"

namespace {

using tpcc::report::merge_input;
using tpcc::report::merge_results;
using tpcc::report::merged_result;
namespace stats = tpcc::stats;
namespace txn = tpcc::txn;

stats::interval_sample second(double start, std::uint64_t committed, std::uint64_t micros) {
  stats::interval_sample s;
  s.start_seconds = start;
  s.end_seconds = start + 1;
  stats::histogram h;
  h.record(micros, committed);
  s.kinds[txn::index(txn::kind::new_order)].outcomes[tpcc::stats::txn_outcome::committed] =
      committed;
  s.kinds[txn::index(txn::kind::new_order)].response = stats::sparse_histogram::of(h);
  s.client.cpu_seconds = 0.5;
  s.client.rss_bytes = committed << 20;
  return s;
}

// Shard `index` of 2 over 10 warehouses, started `delay` seconds after the epoch below.
merge_input shard(int index, double delay) {
  auto r = tpcc::testing::compliant();
  r.config.shard = {index, 2};
  r.first_warehouse = index == 0 ? 1 : 6;
  r.last_warehouse = index == 0 ? 5 : 10;
  r.terminals = 50;
  r.started += std::chrono::milliseconds(static_cast<long long>(delay * 1000));
  r.series = {second(0, 10 + index, 2000), second(1, 20 + index, 90000)};
  r.client.bytes_per_terminal = index == 0 ? 1000 : 3000;
  r.client.peak_rss_bytes = index == 0 ? 100 : 300;
  return {"shard-" + std::to_string(index) + ".json", {r, {"postgresql://db", "1.0"}}};
}

merged_result merged(const std::vector<merge_input>& in) {
  auto out = merge_results(in);
  if (auto* error = std::get_if<std::string>(&out)) ADD_FAILURE() << *error;
  return std::get<merged_result>(std::move(out));
}

TEST(merge, CountsAndBucketsAddAndPercentilesComeFromTheSum) {
  const std::vector<merge_input> in{shard(0, 0), shard(1, 0)};
  const merged_result m = merged(in);
  const auto& a = in[0].loaded.result.results.kinds[0];
  const auto& all = m.result.results.kinds[0];
  EXPECT_EQ(all.outcomes[tpcc::stats::txn_outcome::committed],
            2 * a.outcomes[tpcc::stats::txn_outcome::committed]);
  EXPECT_EQ(all.response.count(), 2 * a.response.count());
  EXPECT_EQ(all.response.percentile(0.9), a.response.percentile(0.9));
  EXPECT_EQ(m.result.results.inputs.payments, 2 * in[0].loaded.result.results.inputs.payments);
  EXPECT_EQ(m.result.terminals, 100);
  EXPECT_EQ(m.result.first_warehouse, 1);
  EXPECT_EQ(m.result.last_warehouse, 10);
  EXPECT_DOUBLE_EQ(m.result.measured_seconds, in[0].loaded.result.measured_seconds);
  EXPECT_DOUBLE_EQ(
      tpcc::report::tpm_total(m.result),
      tpcc::report::tpm_total(in[0].loaded.result) + tpcc::report::tpm_total(in[1].loaded.result));
}

TEST(merge, PercentilesAreNeverAveraged) {
  auto fast = shard(0, 0);
  auto slow = shard(1, 0);
  auto& f = fast.loaded.result.results.kinds[1].response;
  auto& s = slow.loaded.result.results.kinds[1].response;
  f = {};
  s = {};
  f.record(std::uint64_t{1000}, 90);    // 90 fast
  s.record(std::uint64_t{900000}, 10);  // 10 slow: the p90 is fast, the p95 slow
  const merged_result m = merged({fast, slow});
  const auto& all = m.result.results.kinds[1].response;
  EXPECT_EQ(all.count(), 100U);
  EXPECT_LE(all.percentile(0.9), 1031U);
  EXPECT_GE(all.percentile(0.95), 900000U);
}

TEST(merge, SeriesAlignByWallClockTime) {
  // Shard 1 started a second later: its first interval is shard 0's second.
  const merged_result m = merged({shard(0, 0), shard(1, 1.0)});
  ASSERT_EQ(m.result.series.size(), 3U);
  EXPECT_EQ(m.result.series[0].kinds[0].outcomes[tpcc::stats::txn_outcome::committed], 10U);
  EXPECT_EQ(m.result.series[1].kinds[0].outcomes[tpcc::stats::txn_outcome::committed], 20U + 11U);
  EXPECT_EQ(m.result.series[1].kinds[0].response.count(), 31U);
  EXPECT_EQ(m.result.series[2].kinds[0].outcomes[tpcc::stats::txn_outcome::committed], 21U);
  EXPECT_DOUBLE_EQ(m.result.series[2].start_seconds, 2.0);
  EXPECT_DOUBLE_EQ(m.result.series[1].client.cpu_seconds, 1.0);
  // The measurement interval spans both shards' intervals.
  EXPECT_DOUBLE_EQ(m.result.measured_seconds, 130 * 60 + 1.0);
}

TEST(merge, ClientFiguresCombine) {
  auto a = shard(0, 0);
  auto b = shard(1, 0);
  b.loaded.result.client.client_bound = true;
  b.loaded.result.client.client_bound_reason = "workers saturated";
  const merged_result m = merged({a, b});
  EXPECT_DOUBLE_EQ(m.result.client.cpu_seconds, 25.0);
  EXPECT_EQ(m.result.client.peak_rss_bytes, 300U);
  EXPECT_DOUBLE_EQ(m.result.client.bytes_per_terminal, 2000.0);
  EXPECT_TRUE(m.result.client.client_bound);
  EXPECT_EQ(m.result.client.client_bound_reason, "shard-1.json: workers saturated");
}

TEST(merge, TheClientMachinesAddUpInTheProvenance) {
  auto a = shard(0, 0);
  auto b = shard(1, 0);
  tpcc::run::provenance& p = a.loaded.result.origin;
  p.command_line = "shoal-tpcc run --shard 0/2";
  p.server_version = "PostgreSQL 15.18";
  p.host = "client-1";
  p.cores = 8;
  p.workers = 8;
  p.connections = 100;
  b.loaded.result.origin = p;  // a second process on the same machine: listed once
  EXPECT_EQ(merged({a, b}).result.origin.host, "client-1");
  b.loaded.result.origin.host = "client-2";
  const merged_result m = merged({a, b});
  EXPECT_EQ(m.result.origin.host, "client-1, client-2");
  EXPECT_EQ(m.result.origin.cores, 16U);
  EXPECT_EQ(m.result.origin.connections, 200U);
  EXPECT_EQ(m.result.origin.server_version, "PostgreSQL 15.18");
}

TEST(merge, AConsistencyCheckAnyShardRanSpeaksForTheWholeDatabase) {
  auto a = shard(0, 0);
  auto b = shard(1, 0);
  EXPECT_FALSE(merged({a, b}).result.consistency.checked);
  b.loaded.result.consistency = {.checked = true, .conditions = 12, .failing = {"3.3.2.3"}};
  EXPECT_EQ(merged({a, b}).result.consistency.failing, std::vector<std::string>{"3.3.2.3"});
  a.loaded.result.consistency = {
      .checked = true, .conditions = 12, .failing = {"3.3.2.3", "3.3.2.8"}};
  const tpcc::run::consistency_status m = merged({a, b}).result.consistency;
  EXPECT_TRUE(m.checked);
  EXPECT_EQ(m.conditions, 12U);
  EXPECT_EQ(m.failing, (std::vector<std::string>{"3.3.2.3", "3.3.2.8"}));
}

// The shards' errors by (type, SQLSTATE, statement): counts added, the earliest first with its
// message, the latest last, the others listed beside them; terminal groups and the in-flight
// counts add up, the longest stall is any shard's longest.
TEST(merge, ErrorsGroupsAndStallsCombine) {
  auto a = shard(0, 0);
  auto b = shard(1, 0);
  const auto t0 = a.loaded.result.started;
  const auto at = [t0](int s) { return t0 + std::chrono::seconds(s); };
  stats::error_entry e{
      txn::kind::new_order, "P0001", "failed", "no_update_stock", "first", 3, at(5), at(9)};
  a.loaded.result.errors.entries = {e};
  e.message = "earlier";
  e.count = 4;
  e.first = at(2);
  e.last = at(7);
  stats::error_entry other = e;
  other.sqlstate = "23514";
  b.loaded.result.errors.entries = {e, other};
  b.loaded.result.errors.unlisted = 2;
  a.loaded.result.results.kinds[0].groups.completed[7] = 5;
  b.loaded.result.results.kinds[0].groups.completed[7] = 6;
  b.loaded.result.results.kinds[0].in_flight_at_end = 2;
  a.loaded.result.results.longest_stall_seconds = 3;
  b.loaded.result.results.longest_stall_seconds = 8;
  const merged_result m = merged({a, b});
  const stats::error_list& errors = m.result.errors;
  ASSERT_EQ(errors.entries.size(), 2U);
  const stats::error_entry& p =
      errors.entries[0].sqlstate == "P0001" ? errors.entries[0] : errors.entries[1];
  EXPECT_EQ(p.count, 7U);
  EXPECT_EQ(p.message, "earlier");
  EXPECT_EQ(p.first, at(2));
  EXPECT_EQ(p.last, at(9));
  EXPECT_EQ(errors.unlisted, 2U);
  EXPECT_EQ(m.result.results.kinds[0].groups.completed[7], 11U);
  EXPECT_EQ(m.result.results.kinds[0].in_flight_at_end, 2U);
  EXPECT_DOUBLE_EQ(m.result.results.longest_stall_seconds, 8.0);
}

TEST(merge, IncompatibleInputsAreRefusedNamingTheFile) {
  auto b = shard(1, 0);
  b.loaded.result.warehouses = 20;
  auto error = merge_results({shard(0, 0), b});
  ASSERT_TRUE(std::holds_alternative<std::string>(error));
  EXPECT_EQ(std::get<std::string>(error),
            "shard-1.json: 20 warehouses in total, shard-0.json has 10");

  b = shard(1, 0);
  b.loaded.result.run_constants.c_last += 1;
  error = merge_results({shard(0, 0), b});
  EXPECT_EQ(std::get<std::string>(error).rfind("shard-1.json: NURand C constants differ", 0), 0U);

  b = shard(1, 0);
  b.loaded.result.wait_scale = 0.5;
  error = merge_results({shard(0, 0), b});
  EXPECT_EQ(std::get<std::string>(error), "shard-1.json: wait scale 0.5, shard-0.json has 1");

  b = shard(1, 0);
  b.loaded.result.config.procedures = true;
  error = merge_results({shard(0, 0), b});
  EXPECT_EQ(std::get<std::string>(error),
            "shard-1.json: mode procedures, shard-0.json has statements (stored procedures and "
            "client-side statements do not mix)");

  b = shard(1, 0);
  b.loaded.result.first_warehouse = 5;
  error = merge_results({shard(0, 0), b});
  EXPECT_EQ(std::get<std::string>(error),
            "shard-1.json: warehouses 5..10 overlap shard-0.json's 1..5");
  EXPECT_TRUE(std::holds_alternative<std::string>(merge_results({})));
}

TEST(merge, AMissingShardIsNoted) {
  const merged_result m = merged({shard(0, 0)});
  ASSERT_FALSE(m.notes.empty());
  EXPECT_EQ(m.notes.back(), "the results cover warehouses 1..5 of 10 only");
}

}  // namespace
