// SPDX-License-Identifier: Apache-2.0
// tests/app/run/audit_binary_test.cpp: the measurement defects of issue 15's audit, on real
// short SQLite runs of the binary as users run it: the JSON series add up to the window's
// totals, the deferred Delivery result file, the peak RSS after the reports, the isolation
// level in every output.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "binary.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

tpcc::testing::temp_dir* scratch = nullptr;  // the suite's loaded database lives here

class audited_run : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    scratch = new tpcc::testing::temp_dir("shoal-audit");
    binary_result r = run_binary({"init", "--db", db()});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    r = run_binary({"load", "--db", db(), "--warehouses", "2", "--no-progress"}, 300s);
    ASSERT_EQ(r.exit_code, 0) << describe(r);
  }
  static void TearDownTestSuite() { delete scratch; }
  static std::string db() { return "sqlite:" + scratch->file("tpcc.db"); }
  static std::string file(const std::string& name) { return scratch->file(name); }

  // A short run with scaled waits; `more` are extra flags.
  static binary_result run(const std::vector<std::string>& more) {
    std::vector<std::string> args{
        "run",          "--db", db(),         "--warmup", "1500ms",        "--duration", "3s",
        "--wait-scale", "0.01", "--interval", "1s",       "--no-progress", "--seed",     "7"};
    args.insert(args.end(), more.begin(), more.end());
    return run_binary(args, 300s);
  }
};

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

TEST_F(audited_run, TheMeasurementIntervalsOfTheJsonSeriesAddUpToTheWindowsTotals) {
  const std::string out = file("series.json");
  const binary_result r = run({"--json", out});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const json doc = read_json(out);
  const json& totals = doc["transactions"];
  ASSERT_EQ(totals.size(), 5U);
  std::vector<std::uint64_t> committed(5, 0), rolled_back(5, 0), responses(5, 0);
  for (const json& s : doc["series"]) {
    if (s["phase"] != "measuring") continue;
    for (std::size_t k = 0; k < 5; ++k) {
      committed[k] += s["transactions"][k]["committed"].get<std::uint64_t>();
      rolled_back[k] += s["transactions"][k]["rolled_back"].get<std::uint64_t>();
      responses[k] += s["transactions"][k]["histograms"]["response"]["count"].get<std::uint64_t>();
    }
  }
  std::uint64_t all = 0;
  for (std::size_t k = 0; k < 5; ++k) {
    const json& t = totals[k];
    EXPECT_EQ(committed[k], t["committed"].get<std::uint64_t>()) << t["type"];
    EXPECT_EQ(rolled_back[k], t["rolled_back"].get<std::uint64_t>()) << t["type"];
    EXPECT_EQ(responses[k], t["histograms"]["response"]["count"].get<std::uint64_t>()) << t["type"];
    all += committed[k];
  }
  EXPECT_GT(all, 50U);
  // The phases follow the time: warm-up, then measuring, then draining, never back.
  std::string previous = "warmup";
  for (const json& s : doc["series"]) {
    const std::string phase = s["phase"];
    if (previous == "measuring") {
      EXPECT_NE(phase, "warmup");
    }
    if (previous == "draining") {
      EXPECT_EQ(phase, "draining");
    }
    previous = phase;
  }
}

// The MiB figure after `label` in `text`; -1 when absent.
double mib_after(const std::string& text, const std::string& label) {
  const auto at = text.find(label);
  if (at == std::string::npos) return -1;
  return std::stod(text.substr(at + label.size()));
}

TEST_F(audited_run, ThePeakRssIsMeasuredAgainOnceEveryReportIsWritten) {
  const std::string out = file("rss.json");
  const binary_result r = run({"--json", out, "--html", file("rss.html")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const double before = mib_after(r.out, "peak RSS before the reports ");
  const double after = mib_after(r.out, "peak RSS with every report written ");
  ASSERT_GT(before, 0) << r.out;
  ASSERT_GT(after, 0) << r.out;
  // A high-water mark, but Linux syncs its RSS counters lazily: it may read a hair lower.
  EXPECT_GE(after, before - 0.5);
  const json doc = read_json(out);
  EXPECT_NEAR(doc["client"]["peak_rss_bytes"].get<double>() / 1048576.0, before, 0.1);
}

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  return lines;
}

TEST_F(audited_run, TheDeliveryResultFileHasOneLinePerDeferredDelivery) {
  const std::string log = file("deliveries.log");
  const std::string out = file("deliveries.json");
  const binary_result r = run({"--json", out, "--delivery-log", log, "--deliverers", "2"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const std::vector<std::string> lines = lines_of(log);
  const json doc = read_json(out);
  const json& d = doc["deferred_delivery"];
  // Every deferred Delivery of the run is in the file, the window's and the others'.
  EXPECT_GE(lines.size(), d["completed"].get<std::size_t>() + d["failed"].get<std::size_t>());
  ASSERT_FALSE(lines.empty());
  for (const std::string& line : lines) {
    EXPECT_TRUE(contains(line, "queued=")) << line;
    EXPECT_TRUE(contains(line, " completed=")) << line;
    EXPECT_TRUE(contains(line, " w_id=")) << line;
    EXPECT_TRUE(contains(line, " carrier=")) << line;
    EXPECT_TRUE(contains(line, " d1=")) << line;
    EXPECT_TRUE(contains(line, " d10=")) << line;
  }
  const binary_result help = run_binary({"--help"});
  EXPECT_TRUE(contains(help.out, "--delivery-log")) << help.out;
}

}  // namespace
