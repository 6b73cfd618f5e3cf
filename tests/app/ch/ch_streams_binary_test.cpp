// SPDX-License-Identifier: Apache-2.0
// `--analytic-streams` as users run it, on SQLite files: the default job with --ch and one
// stream reports each query and a queries-per-hour figure beside tpmC (summary, JSON, HTML); then
// `run --terminals 0` on the kept database measures the analytic side alone, and Ctrl-C ends it
// with the query in flight counted cancelled; a database without the CH tables, a bad N,
// --terminals 0 without streams, streams on the simulation and in the default job without --ch
// are refused with exit 2. The analytic series is in the JSON and plotted in the HTML; a
// --schedule step at 0 streams then one at 1 states tpmC with the stream against without.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "binary.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

json read_ch_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

// Every query has its counts; none failed; the totals add up; queries per hour as defined.
void expect_ch_object(const json& doc, std::int64_t streams) {
  ASSERT_TRUE(doc.contains("ch") && doc["ch"].is_object()) << doc.dump(1);
  const json& ch = doc["ch"];
  EXPECT_EQ(doc["benchmark"], "CH-benCHmark");
  EXPECT_EQ(ch["streams"], streams);
  ASSERT_EQ(ch["queries"].size(), 22u);
  std::uint64_t completed = 0, cancelled = 0;
  for (std::size_t i = 0; i < 22; ++i) {
    const json& q = ch["queries"][i];
    EXPECT_EQ(q["query"], i + 1);
    EXPECT_EQ(q["failed"], 0u) << q.dump();
    completed += q["completed"].get<std::uint64_t>();
    cancelled += q["cancelled"].get<std::uint64_t>();
    EXPECT_EQ(q["p50_ms"].is_null(), q["completed"] == 0u) << q.dump();
  }
  EXPECT_EQ(ch["completed"], completed);
  EXPECT_EQ(ch["cancelled"], cancelled);
  EXPECT_GE(completed + cancelled, 1u) << "the stream ran no query";
  const double seconds = ch["measured_seconds"].get<double>();
  ASSERT_GT(seconds, 0.0);
  EXPECT_NEAR(ch["queries_per_hour"].get<double>(), static_cast<double>(completed) * 3600 / seconds,
              1e-6);
}

// The analytic series: consecutive intervals, and every query that ended inside the measurement
// interval is in one (the series counts every phase).
void expect_ch_series(const json& doc) {
  const json& series = doc["ch"]["series"];
  ASSERT_TRUE(series.is_array() && !series.empty()) << doc["ch"].dump(1);
  std::uint64_t completed = 0;
  double last_end = 0;
  for (const json& i : series) {
    EXPECT_DOUBLE_EQ(i["start_seconds"].get<double>(), last_end) << i.dump();
    last_end = i["end_seconds"].get<double>();
    completed += i["completed"].get<std::uint64_t>();
  }
  EXPECT_GE(completed, doc["ch"]["completed"].get<std::uint64_t>()) << series.dump();
}

// On the kept database: a schedule's step without streams, then one with the stream: no query
// ends before the second step begins, and tpmC with the stream is stated against tpmC without.
void expect_schedule_with_and_without_streams(const tpcc::testing::temp_dir& dir,
                                              const std::string& db) {
  const std::string file = dir.file("steps.json");
  const binary_result r =
      run_binary({"run", "--db", db, "--terminals", "2", "--analytic-streams", "1", "--schedule",
                  "600:2s:streams=0,600:2s:streams=1", "--interval", "500ms", "--warmup", "0s",
                  "--json", file, "--no-progress"},
                 120s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "tpmC with streams ")) << r.out;
  const json doc = read_ch_json(file);
  ASSERT_EQ(doc["steps"].size(), 2u) << doc["steps"].dump(1);
  EXPECT_EQ(doc["steps"][0]["analytic_streams"], 0);
  EXPECT_EQ(doc["steps"][1]["analytic_streams"], 1);
  const json& effect = doc["ch"]["with_and_without_streams"];
  ASSERT_TRUE(effect.is_object()) << doc["ch"].dump(1);
  EXPECT_GT(effect["tpmc_without_streams"].get<double>(), 0.0) << effect.dump();
  EXPECT_GT(effect["tpmc_with_streams"].get<double>(), 0.0) << effect.dump();
  const double second_step = doc["steps"][1]["start_seconds"].get<double>();
  std::uint64_t before = 0, after = 0;
  for (const json& i : doc["ch"]["series"]) {
    const bool early = i["end_seconds"].get<double>() <= second_step;
    (early ? before : after) +=
        i["completed"].get<std::uint64_t>() + i["failed"].get<std::uint64_t>();
  }
  EXPECT_EQ(before, 0u) << "a query ran in the step without streams";
  EXPECT_GE(after, 1u) << doc["ch"]["series"].dump();
}

TEST(ch_streams_binary, DefaultJobWithChAndOneStreamReportsEveryQueryThenTheStreamsRunAlone) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-ch-streams");
  const std::string db = "sqlite:" + dir.file("job.db");
  const std::string json_file = dir.file("result.json");
  const binary_result r = run_binary({"--ch",
                                      "--analytic-streams",
                                      "1",
                                      "--db",
                                      db,
                                      "--warehouses",
                                      "1",
                                      "--terminals",
                                      "2",
                                      "--wait-scale",
                                      "0.01",
                                      "--warmup",
                                      "1s",
                                      "--duration",
                                      "3s",
                                      "--json",
                                      json_file,
                                      "--html",
                                      dir.file("result.html"),
                                      "--no-progress",
                                      "--keep"},
                                     300s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "shoal-tpcc result: CH-benCHmark (analytic streams beside")) << r.out;
  EXPECT_TRUE(contains(r.out, "queries per hour beside tpmC")) << r.out;
  EXPECT_TRUE(contains(r.out, "  Q22 ")) << r.out;
  expect_ch_object(read_ch_json(json_file), 1);
  std::ifstream html_in(dir.file("result.html"));
  const std::string html((std::istreambuf_iterator<char>(html_in)), {});
  EXPECT_TRUE(contains(html, "<section id=\"ch\">")) << "no CH table in the HTML report";
  EXPECT_TRUE(contains(html, "<td>Q22</td>"));
  EXPECT_TRUE(contains(html, "id=\"ch-over-time\"")) << "no analytic plot over time";
  expect_ch_series(read_ch_json(json_file));
  expect_schedule_with_and_without_streams(dir, db);
  // The kept database, without terminals; Ctrl-C three seconds in (no warm-up): the stream
  // always has a query in flight, and it is counted cancelled, not failed.
  const std::string alone_file = dir.file("alone.json");
  const binary_result alone =
      run_binary({"run", "--db", db, "--terminals", "0", "--analytic-streams", "1", "--warmup",
                  "0s", "--duration", "10m", "--json", alone_file, "--no-progress"},
                 120s, 3000ms);
  EXPECT_EQ(alone.exit_code, 130) << describe(alone);
  EXPECT_TRUE(contains(alone.out, "CH-benCHmark (the analytic streams alone)")) << alone.out;
  const json doc = read_ch_json(alone_file);
  expect_ch_object(doc, 1);
  EXPECT_GE(doc["ch"]["cancelled"].get<std::uint64_t>(), 1u) << doc["ch"].dump(1);
}

TEST(ch_streams_binary, BadStreamCountsAndARunOfNothingAreRefusedWithExitTwo) {
  for (const char* bad : {"-1", "x", "1001", ""}) {
    const binary_result r = run_binary({"run", "--analytic-streams", bad});
    EXPECT_EQ(r.exit_code, 2) << bad << ": " << describe(r);
    EXPECT_TRUE(contains(r.err, "--analytic-streams expects an integer from 0 to 1000")) << r.err;
  }
  const binary_result nothing = run_binary({"run", "--terminals", "0"});
  EXPECT_EQ(nothing.exit_code, 2) << describe(nothing);
  EXPECT_TRUE(contains(nothing.err, "--terminals 0 runs no terminals")) << nothing.err;
  const binary_result sim =
      run_binary({"run", "--db", "sim:latency=1ms", "--analytic-streams", "1"});
  EXPECT_EQ(sim.exit_code, 2) << describe(sim);
  const tpcc::testing::temp_dir dir("shoal-tpcc-ch-no-tables");
  const std::string db = "sqlite:" + dir.file("plain.db");
  ASSERT_EQ(run_binary({"init", "--db", db}).exit_code, 0);
  const binary_result no_tables =
      run_binary({"run", "--db", db, "--terminals", "0", "--analytic-streams", "1"});
  EXPECT_EQ(no_tables.exit_code, 2) << describe(no_tables);
  EXPECT_TRUE(contains(no_tables.err, "no CH-benCHmark tables loaded")) << no_tables.err;
  // A schedule's step asking for more streams than opened, or a malformed streams=N.
  const binary_result more = run_binary(
      {"run", "--analytic-streams", "1", "--schedule", "600:4s:streams=0,600:4s:streams=2"});
  EXPECT_EQ(more.exit_code, 2) << describe(more);
  EXPECT_TRUE(contains(more.err, "step 2 asks for 2 analytic streams")) << more.err;
  const binary_result malformed =
      run_binary({"run", "--analytic-streams", "1", "--schedule", "600:4s:streams=x"});
  EXPECT_EQ(malformed.exit_code, 2) << describe(malformed);
  EXPECT_TRUE(contains(malformed.err, "expects RATE:DURATION[:streams=N]")) << malformed.err;
  const binary_result job = run_binary({"--analytic-streams", "1"});
  EXPECT_EQ(job.exit_code, 2) << describe(job);
  EXPECT_TRUE(contains(job.err, "needs --ch")) << job.err;
}

}  // namespace
