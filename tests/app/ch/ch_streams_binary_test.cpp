// SPDX-License-Identifier: Apache-2.0
// `--analytic-streams` as users run it, on SQLite files: the default job with --ch and one
// stream reports each query and a queries-per-hour figure beside tpmC (summary, JSON, HTML); then
// `run --terminals 0` on the kept database measures the analytic side alone, and Ctrl-C ends it
// with the query in flight counted cancelled; a database without the CH tables, a bad N,
// --terminals 0 without streams, streams on the simulation and in the default job without --ch
// are refused with exit 2.
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
  const binary_result job = run_binary({"--analytic-streams", "1"});
  EXPECT_EQ(job.exit_code, 2) << describe(job);
  EXPECT_TRUE(contains(job.err, "needs --ch")) << job.err;
}

}  // namespace
