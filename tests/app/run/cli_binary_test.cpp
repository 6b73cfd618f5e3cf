// SPDX-License-Identifier: Apache-2.0
// tests/app/run/cli_binary_test.cpp: the command line as users meet it (issue 16): help per
// command in every spelling, options a command does not take, output paths checked before any
// work, and no SQLite file created where a path was mistyped.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "binary.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

TEST(cli_binary, EachCommandHasItsOwnHelpInEverySpelling) {
  for (const auto& args :
       {std::vector<std::string>{"help", "run"}, std::vector<std::string>{"run", "--help"},
        std::vector<std::string>{"run", "-h"}}) {
    const binary_result r = run_binary(args);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_TRUE(contains(r.out, "Usage: shoal-tpcc run [OPTIONS]")) << r.out;
    EXPECT_TRUE(contains(r.out, "--duration DURATION")) << r.out;
    EXPECT_TRUE(contains(r.out, "Example:\n  shoal-tpcc run --db")) << r.out;
    EXPECT_FALSE(contains(r.out, "--load-parallel")) << r.out;
  }
  const binary_result general = run_binary({"-h"});
  EXPECT_EQ(general.exit_code, 0) << describe(general);
  EXPECT_TRUE(contains(general.out, "shoal-tpcc help COMMAND")) << general.out;
  const binary_result unknown = run_binary({"help", "frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2) << describe(unknown);
}

TEST(cli_binary, AnOptionTheCommandDoesNotTakeIsRefusedNamingTheCommand) {
  const binary_result r = run_binary({"load", "--duration", "5m"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--duration does not apply to `shoal-tpcc load`")) << r.err;
}

TEST(cli_binary, AnOutputPathThatCannotBeWrittenIsRefusedBeforeAnyWork) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-cli");
  const std::string db_file = dir.file("never.db");
  for (const char* flag : {"--json", "--html", "--hdr-log", "--csv", "--delivery-log"}) {
    const binary_result r =
        run_binary({"--db", "sqlite:" + db_file, flag, dir.file("missing/out.file")});
    EXPECT_EQ(r.exit_code, 2) << flag << "\n" << describe(r);
    EXPECT_TRUE(
        contains(r.err, std::string(flag) + " " + dir.file("missing/out.file") + ": directory"))
        << r.err;
    EXPECT_TRUE(contains(r.err, "does not exist")) << r.err;
  }
  const binary_result into_dir = run_binary({"merge", "a.json", "--json", dir.path().string()});
  EXPECT_EQ(into_dir.exit_code, 2) << describe(into_dir);
  EXPECT_TRUE(contains(into_dir.err, "is a directory")) << into_dir.err;
  EXPECT_FALSE(std::filesystem::exists(db_file)) << "work started before the paths were checked";
}

TEST(cli_binary, CommandsOtherThanInitNeverCreateAMissingSqliteFile) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-cli");
  const std::string db_file = dir.file("typo.db");
  for (const char* cmd : {"check", "run", "load", "clean"}) {
    const binary_result r = run_binary({cmd, "--db", "sqlite:" + db_file, "--no-progress"});
    EXPECT_EQ(r.exit_code, 1) << cmd << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, "SQLite file '" + db_file + "' does not exist")) << r.err;
    EXPECT_FALSE(std::filesystem::exists(db_file)) << cmd << " created it";
  }
  const binary_result init = run_binary({"init", "--db", "sqlite:" + db_file});
  EXPECT_EQ(init.exit_code, 0) << describe(init);
  EXPECT_TRUE(std::filesystem::exists(db_file));
}

TEST(cli_binary, LoadDryRunPrintsEachTableAndTheTotalAndWritesNothing) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-cli");
  const std::string db_file = dir.file("dry.db");
  const binary_result r =
      run_binary({"load", "--db", "sqlite:" + db_file, "--warehouses", "10", "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "load --dry-run: 10 warehouses, nothing written")) << r.out;
  EXPECT_TRUE(contains(r.out, "  order_line           3000000")) << r.out;
  EXPECT_TRUE(contains(r.out, "  item                  100000")) << r.out;
  EXPECT_TRUE(contains(r.out, "  total")) << r.out;
  EXPECT_FALSE(std::filesystem::exists(db_file));
  const binary_result wrong = run_binary({"run", "--dry-run"});
  EXPECT_EQ(wrong.exit_code, 2) << describe(wrong);
}

// Every result says how it was obtained: the command line, the effective configuration (the
// warehouse count as loaded when not given), the build, the server's version, the host.
TEST(cli_binary, AResultCarriesItsProvenanceInTheSummaryAndTheJson) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-cli");
  const std::string db = "sqlite:" + dir.file("p.db");
  ASSERT_EQ(run_binary({"init", "--db", db}).exit_code, 0);
  ASSERT_EQ(run_binary({"load", "--db", db, "--warehouses", "1", "--no-progress"}, 300s).exit_code,
            0);
  const std::string out = dir.file("p.json");
  const binary_result r =
      run_binary({"run", "--db", db, "--warmup", "1s", "--duration", "2s", "--wait-scale", "0.01",
                  "--no-progress", "--seed", "77", "--json", out, "--csv", dir.file("p.csv"),
                  "--terminals", "3"});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "  server      SQLite 3.")) << r.out;
  EXPECT_TRUE(contains(r.out, "  client      shoal-tpcc ")) << r.out;
  EXPECT_TRUE(contains(r.out, "  command     shoal-tpcc run --db " + db)) << r.out;
  EXPECT_TRUE(contains(r.out, "  seed        77 ")) << r.out;
  std::ifstream in(out);
  const nlohmann::json doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["config"]["warehouses"], 1);
  // --terminals 3: three terminals ran, and the result says it is not TPC-C.
  EXPECT_EQ(doc["terminals"], 3);
  EXPECT_EQ(doc["config"]["terminals_per_warehouse"], 3);
  EXPECT_TRUE(contains(r.out, "terminals 3 (3 per warehouse: NOT TPC-C")) << r.out;
  bool judged = false;
  for (const nlohmann::json& item : doc["verdict"]["items"]) {
    if (item["name"] != "terminals per warehouse") continue;
    judged = true;
    EXPECT_EQ(item["measured"], "3");
    EXPECT_EQ(item["judgement"], "inconclusive") << item;
  }
  EXPECT_TRUE(judged) << doc["verdict"];
  const nlohmann::json& p = doc["provenance"];
  EXPECT_TRUE(p["command_line"].get<std::string>().starts_with("shoal-tpcc run --db " + db));
  EXPECT_TRUE(p["server_version"].get<std::string>().starts_with("SQLite 3.")) << p;
  EXPECT_FALSE(p["version"].get<std::string>().empty());
  EXPECT_FALSE(p["commit"].get<std::string>().empty());
  EXPECT_FALSE(p["host"].get<std::string>().empty());
  EXPECT_GE(p["cores"].get<int>(), 1);
  EXPECT_GE(p["workers"].get<int>(), 1);
  EXPECT_TRUE(doc["consistency_check"].is_null()) << "a bare run checks nothing";
  // --csv: a header, then one row per interval and type, the same intervals as the JSON.
  std::ifstream csv(dir.file("p.csv"));
  std::string line;
  std::getline(csv, line);
  EXPECT_TRUE(line.starts_with("start_s,end_s,phase,type,committed,")) << line;
  std::size_t rows = 0, new_orders = 0;
  while (std::getline(csv, line)) {
    ++rows;
    if (line.find(",New-Order,") != std::string::npos) ++new_orders;
  }
  EXPECT_EQ(rows, 5 * doc["series"].size());
  EXPECT_EQ(new_orders, doc["series"].size());
}

}  // namespace

// The default job checks the database before it writes the run's reports, so they carry what
// the check found: a verdict item judged on it, and the JSON's consistency_check.
TEST(cli_binary, TheDefaultJobsReportsSayWhatTheConsistencyCheckFound) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-cli");
  const std::string out = dir.file("job.json");
  const binary_result r =
      run_binary({"--db", "sqlite:" + dir.file("job.db"), "--warehouses", "1", "--warmup", "1s",
                  "--duration", "2s", "--wait-scale", "0.01", "--no-progress", "--json", out,
                  "--html", dir.file("job.html")},
                 300s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  std::ifstream in(out);
  const nlohmann::json doc = nlohmann::json::parse(in);
  const nlohmann::json& c = doc["consistency_check"];
  ASSERT_TRUE(c.is_object()) << doc.dump().substr(0, 400);
  EXPECT_EQ(c["passed"], true) << c;
  EXPECT_GE(c["conditions"].get<int>(), 11) << c;
  EXPECT_TRUE(c["failing"].empty()) << c;
  bool judged = false;
  for (const nlohmann::json& item : doc["verdict"]["items"]) {
    if (item["name"] != "consistency conditions") continue;
    judged = true;
    EXPECT_EQ(item["judgement"], "pass") << item;
  }
  EXPECT_TRUE(judged) << doc["verdict"];
  std::ifstream page(dir.file("job.html"));
  const std::string html((std::istreambuf_iterator<char>(page)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(contains(html, "consistency conditions")) << html.substr(0, 400);
}
