// SPDX-License-Identifier: Apache-2.0
// tests/app/report/json_test.cpp: --json results: written, read back equal, and malformed
// files refused naming the file and the field.
#include <gtest/gtest.h>

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "report/json.hpp"
#include "report/summary.hpp"
#include "sample_result.hpp"

namespace {

using tpcc::report::loaded_result;
using tpcc::report::parse_json;
using tpcc::report::result_context;
namespace stats = tpcc::stats;
namespace txn = tpcc::txn;

const result_context context{"postgresql://tpcc@db/tpcc", "9.9.9"};

stats::interval_sample interval(double start, std::uint64_t committed) {
  stats::interval_sample s;
  s.start_seconds = start;
  s.end_seconds = start + 1;
  s.in = stats::phase::measuring;
  stats::histogram h;
  for (std::uint64_t i = 0; i < committed; ++i) h.record(1000 + 37 * i);
  s.kinds[txn::index(txn::kind::payment)].outcomes[tpcc::stats::txn_outcome::committed] = committed;
  s.kinds[txn::index(txn::kind::payment)].response = stats::sparse_histogram::of(h);
  s.client.workers.push_back({0.25, 1000, 120, 40});
  s.client.cpu_seconds = 0.5;
  s.client.rss_bytes = 1 << 20;
  s.client.pool_size = 16;
  return s;
}

tpcc::run::run_result sample() {
  auto r = tpcc::testing::compliant();
  r.config.shard = {1, 3};
  r.config.seed = 42;
  r.origin = {.command_line = "shoal-tpcc run --db 'x y'",
              .version = "9.9.9",
              .commit = "0123456789ab",
              .server_version = "PostgreSQL 15.18",
              .host = "client-3",
              .cores = 64,
              .workers = 8,
              .connections = 200};
  r.config.start_at = r.started;
  r.config.wait_scale = 1.0;
  r.first_warehouse = 4;
  r.last_warehouse = 6;
  r.results.kinds[0].outcomes[tpcc::stats::txn_outcome::rolled_back] =
      45;  // of the 4500 New-Orders
  r.results.kinds[0].outcomes[tpcc::stats::txn_outcome::committed] -= 45;
  r.results.kinds[1].retries = 7;
  r.results.outside_window = 12;
  r.results.skipped_districts = 3;
  r.client.worker_busy = {0.5, 0.25};
  r.client.timer_lateness.record(std::uint64_t{1500});
  r.client.client_bound_reason = "";
  r.series = {interval(0, 3), interval(1, 5)};
  return r;
}

void expect_same_histogram(const stats::histogram& a, const stats::histogram& b) {
  EXPECT_EQ(a.count(), b.count());
  EXPECT_EQ(a.max(), b.max());
  for (std::size_t i = 0; i < stats::bucket::count; ++i)
    ASSERT_EQ(a.bucket_count(i), b.bucket_count(i)) << i;
  for (const double p : {0.5, 0.9, 0.99, 0.999}) EXPECT_EQ(a.percentile(p), b.percentile(p));
  EXPECT_NEAR(a.mean(), b.mean(), a.mean() * 0.032 + 1);
}

TEST(json, AResultWrittenToAFileReadsBackEqual) {
  auto r = sample();
  r.results.kinds[0].groups.over_limit[3] = 2;
  r.results.kinds[0].groups.completed[31] = 9;
  r.results.inputs.think_censored = 4;
  r.results.inputs.think_relative = 17.25;
  r.results.inputs.think_late_seconds = 0.125;
  r.results.inputs.think_late_relative = 1.5;
  tpcc::stats::error_entry e;
  e.kind = tpcc::txn::kind::payment;
  e.sqlstate = "P0001";
  e.outcome = "failed";
  e.statement = "payment_update_stock";
  e.message = "no \"stock\" <script>";
  e.count = 41;
  e.first = r.started + std::chrono::seconds(3);
  e.last = r.started + std::chrono::seconds(9);
  r.errors.entries.push_back(e);
  r.errors.unlisted = 5;
  r.results.longest_stall_seconds = 12.5;
  r.results.kinds[1].in_flight_at_end = 3;
  r.consistency = {.checked = true, .conditions = 12, .failing = {"3.3.2.4", "3.3.2.9"}};
  r.config.procedures = true;
  const std::string file = ::testing::TempDir() + "result-" + std::to_string(::getpid()) + ".json";
  ASSERT_EQ(tpcc::report::write_json(file, r, context), std::nullopt);
  auto read = tpcc::report::read_json(file);
  std::filesystem::remove(file);
  ASSERT_TRUE(std::holds_alternative<loaded_result>(read)) << std::get<std::string>(read);
  const loaded_result& back = std::get<loaded_result>(read);
  EXPECT_EQ(back.context.target, context.target);
  EXPECT_EQ(back.context.version, "9.9.9");
  const auto& b = back.result;
  EXPECT_EQ(b.started, r.started);
  EXPECT_EQ(b.ended, r.ended);
  EXPECT_EQ(b.warehouses, 10);
  EXPECT_EQ(b.first_warehouse, 4);
  EXPECT_EQ(b.last_warehouse, 6);
  EXPECT_EQ(b.config.shard.index, 1);
  EXPECT_EQ(b.config.shard.count, 3);
  EXPECT_EQ(b.config.seed, 42U);
  EXPECT_TRUE(b.config.procedures);
  EXPECT_EQ(b.origin.command_line, r.origin.command_line);
  EXPECT_EQ(b.origin.commit, "0123456789ab");
  EXPECT_EQ(b.origin.server_version, "PostgreSQL 15.18");
  EXPECT_EQ(b.origin.host, "client-3");
  EXPECT_EQ(b.origin.cores, 64U);
  EXPECT_EQ(b.origin.workers, 8U);
  EXPECT_EQ(b.origin.connections, 200U);
  EXPECT_TRUE(b.consistency.checked);
  EXPECT_EQ(b.consistency.conditions, 12U);
  EXPECT_EQ(b.consistency.failing, (std::vector<std::string>{"3.3.2.4", "3.3.2.9"}));
  EXPECT_EQ(b.config.start_at, r.started);
  EXPECT_EQ(b.config.measure, r.config.measure);
  EXPECT_EQ(b.run_constants.c_last, 200);
  EXPECT_EQ(b.load_constants.ol_i_id, 300);
  EXPECT_DOUBLE_EQ(b.measured_seconds, r.measured_seconds);
  for (std::size_t k = 0; k < txn::kind_count; ++k) {
    const auto& x = r.results.kinds[k];
    const auto& y = b.results.kinds[k];
    EXPECT_EQ(x.outcomes[tpcc::stats::txn_outcome::committed],
              y.outcomes[tpcc::stats::txn_outcome::committed]);
    EXPECT_EQ(x.outcomes[tpcc::stats::txn_outcome::rolled_back],
              y.outcomes[tpcc::stats::txn_outcome::rolled_back]);
    EXPECT_EQ(x.retries, y.retries);
    EXPECT_EQ(x.round_trips, y.round_trips);
    expect_same_histogram(x.response, y.response);
    expect_same_histogram(x.queued, y.queued);
    expect_same_histogram(x.service, y.service);
  }
  EXPECT_EQ(b.results.outside_window, 12U);
  EXPECT_EQ(b.results.skipped_districts, 3U);
  EXPECT_EQ(b.results.inputs.remote_payments, r.results.inputs.remote_payments);
  EXPECT_DOUBLE_EQ(b.results.inputs.think_seconds, r.results.inputs.think_seconds);
  EXPECT_EQ(b.results.inputs.think_censored, 4U);
  ASSERT_EQ(b.errors.entries.size(), 1U);
  EXPECT_EQ(b.errors.entries[0].kind, tpcc::txn::kind::payment);
  EXPECT_EQ(b.errors.entries[0].sqlstate, "P0001");
  EXPECT_EQ(b.errors.entries[0].message, r.errors.entries[0].message);
  EXPECT_EQ(b.errors.entries[0].count, 41U);
  EXPECT_EQ(b.errors.entries[0].last, r.errors.entries[0].last);
  EXPECT_EQ(b.errors.unlisted, 5U);
  EXPECT_DOUBLE_EQ(b.results.longest_stall_seconds, 12.5);
  EXPECT_EQ(b.results.kinds[1].in_flight_at_end, 3U);
  EXPECT_DOUBLE_EQ(b.results.inputs.think_relative, 17.25);
  EXPECT_DOUBLE_EQ(b.results.inputs.think_late_seconds, 0.125);
  EXPECT_DOUBLE_EQ(b.results.inputs.think_late_relative, 1.5);
  EXPECT_EQ(b.results.kinds[0].groups.over_limit, r.results.kinds[0].groups.over_limit);
  EXPECT_EQ(b.results.kinds[0].groups.completed, r.results.kinds[0].groups.completed);
  expect_same_histogram(b.results.delivery_completion, r.results.delivery_completion);
  EXPECT_EQ(b.client.worker_busy, r.client.worker_busy);
  EXPECT_EQ(b.client.peak_rss_bytes, r.client.peak_rss_bytes);
  expect_same_histogram(b.client.timer_lateness, r.client.timer_lateness);
  ASSERT_EQ(b.series.size(), 2U);
  EXPECT_EQ(b.series[1].kinds[1].outcomes[tpcc::stats::txn_outcome::committed], 5U);
  EXPECT_EQ(b.series[1].kinds[1].response.buckets, r.series[1].kinds[1].response.buckets);
  EXPECT_EQ(b.series[0].in, stats::phase::measuring);
  ASSERT_EQ(b.series[0].client.workers.size(), 1U);
  EXPECT_EQ(b.series[0].client.workers[0].lateness_max_us, 120U);
}

TEST(json, TheDocumentCarriesTheFiguresVerdictAndLayout) {
  const auto doc = nlohmann::json::parse(tpcc::report::to_json_text(sample(), context));
  EXPECT_EQ(doc["started"], "2023-11-14T22:13:20.000Z");
  EXPECT_EQ(doc["versions"]["shoal_tpcc"], "9.9.9");
  EXPECT_EQ(doc["verdict"]["pass"], true) << doc["verdict"].dump();
  EXPECT_GT(doc["tpmc"].get<double>(), 34.0);
  EXPECT_DOUBLE_EQ(doc["tpm_total"].get<double>(), tpcc::report::tpm_total(sample()));
  EXPECT_GT(doc["tpm_total"].get<double>(), doc["tpmc"].get<double>());
  EXPECT_EQ(doc["transactions"][0]["type"], "New-Order");
  EXPECT_EQ(doc["histogram_layout"]["bucket_count"], stats::bucket::count);
  const auto& first = doc["transactions"][0]["histograms"]["response"]["buckets"][0];
  EXPECT_EQ(first[1], stats::bucket::upper_edge(first[0].get<std::size_t>()));
  EXPECT_EQ(doc["nurand"]["c_last_delta"], 100);
}

// tpm_total is derived, like tpmC: a file written before it existed reads, and gives the same.
TEST(json, AFileWithoutTpmTotalReadsAndItComesFromTheCounts) {
  auto doc = nlohmann::json::parse(tpcc::report::to_json_text(sample(), context));
  doc.erase("tpm_total");
  auto parsed = parse_json(doc.dump(), "older.json");
  ASSERT_TRUE(std::holds_alternative<tpcc::report::loaded_result>(parsed))
      << std::get<std::string>(parsed);
  const auto& read = std::get<tpcc::report::loaded_result>(parsed).result;
  EXPECT_GT(tpcc::report::tpm_total(read), 0.0);
  EXPECT_DOUBLE_EQ(tpcc::report::tpm_total(read), tpcc::report::tpm_total(sample()));
}

// The document with one edit applied, parsed; the error expected.
std::string error_after(void (*edit)(nlohmann::json&)) {
  auto doc = nlohmann::json::parse(tpcc::report::to_json_text(sample(), context));
  edit(doc);
  auto parsed = parse_json(doc.dump(), "shard-1.json");
  if (!std::holds_alternative<std::string>(parsed)) return "parsed";
  return std::get<std::string>(parsed);
}

TEST(json, MalformedFilesAreRefusedNamingTheFileAndTheField) {
  EXPECT_EQ(error_after([](nlohmann::json& d) { d["transactions"][1].erase("committed"); }),
            "shard-1.json: field transactions[1].committed: missing");
  EXPECT_EQ(error_after([](nlohmann::json& d) { d["config"]["seed"] = "x"; }),
            "shard-1.json: field config.seed: expected a non-negative integer");
  EXPECT_EQ(error_after([](nlohmann::json& d) {
              d["started"] = "yesterday";
            }).rfind("shard-1.json: field started: expected an ISO 8601", 0),
            0U);
  EXPECT_EQ(
      error_after([](nlohmann::json& d) {
        d["transactions"][0]["histograms"]["response"]["buckets"][0][1] = 12345678;
      }),
      "shard-1.json: field transactions[0].histograms.response.buckets[0]: upper edge does not "
      "match the layout");
  EXPECT_EQ(error_after([](nlohmann::json& d) { d["histogram_layout"]["max_exponent"] = 41; }),
            "shard-1.json: field histogram_layout: a different bucket layout than this build's");
  EXPECT_EQ(error_after([](nlohmann::json& d) {
              d["series"][1]["phase"] = "lunch";
            }).rfind("shard-1.json: field series[1].phase: expected starting", 0),
            0U);
  EXPECT_EQ(std::get<std::string>(parse_json("{\"format\": ", "cut.json")),
            "cut.json: not valid JSON");
  EXPECT_EQ(std::get<std::string>(tpcc::report::read_json("/nonexistent/x.json")),
            "cannot read /nonexistent/x.json");
}

}  // namespace
