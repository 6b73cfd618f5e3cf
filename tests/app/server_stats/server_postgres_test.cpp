// SPDX-License-Identifier: Apache-2.0
// tests/app/server_stats/server_postgres_test.cpp: the database's own figures of a real
// PostgreSQL run, as users get them (the binary, --json, --html, --csv).
//
// One throwaway server with pg_stat_statements loaded and one load of 1 warehouse for the
// program (ONE_PROCESS), then two short runs without waits: as the superuser, the figures are
// there per interval, consistent with the client's counts, with the window's top statements, in
// the HTML and the CSV; as a role that may not read pg_stat_bgwriter (SELECT revoked from
// PUBLIC: a real refusal, SQLSTATE 42501), the refusal is said once, on stderr and in the
// result, and the run completes with the other figures.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "binary.hpp"
#include "temp_dir.hpp"
#include "testing/postgres_server.hpp"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::testing::binary_result;
using tpcc::testing::describe;
using tpcc::testing::postgres_server;
using tpcc::testing::run_binary;

json read_json_file(const std::string& file) {
  std::ifstream in(file);
  return json::parse(in);
}

std::string read_text(const std::string& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// Committed transactions of the measurement window, as the client counted them.
double client_commits(const json& doc) {
  double n = 0;
  for (const json& t : doc["transactions"]) {
    n += t["committed"].get<double>() + t["retried_committed"].get<double>();
  }
  return n;
}

class server_figures_pg : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!postgres_server::available()) return;
    try {
      server = std::make_unique<postgres_server>(postgres_server_options_with_statements());
      server->sql("CREATE EXTENSION pg_stat_statements");
      binary_result r = run_binary({"init", "--db", server->conninfo()});
      if (r.exit_code != 0) throw std::runtime_error("init: " + describe(r));
      r = run_binary({"load", "--db", server->conninfo(), "--warehouses", "1", "--no-progress"},
                     300s);
      if (r.exit_code != 0) throw std::runtime_error("load: " + describe(r));
    } catch (const std::exception& e) {
      setup_failure = e.what();
    }
  }
  static void TearDownTestSuite() { server.reset(); }

  static tpcc::testing::postgres_server_options postgres_server_options_with_statements() {
    return {{"shared_preload_libraries = 'pg_stat_statements'"}};
  }

  void SetUp() override {
    if (!setup_failure.empty()) FAIL() << setup_failure;
    if (!server) GTEST_SKIP() << "PostgreSQL server binaries not found";
  }

  // A stress run of 2 s after a 2 s warm-up; the result files in `dir`.
  static binary_result short_run(const std::string& db, const tpcc::testing::temp_dir& dir) {
    return run_binary(
        {"run", "--db", db, "--warmup", "2s", "--duration", "2s", "--no-wait", "--connections", "4",
         "--seed", "3", "--no-progress", "--json", dir.file("r.json"), "--html", dir.file("r.html"),
         "--csv", dir.file("r.csv")},
        120s);
  }

  static std::unique_ptr<postgres_server> server;
  static std::string setup_failure;
};

std::unique_ptr<postgres_server> server_figures_pg::server;
std::string server_figures_pg::setup_failure;

TEST_F(server_figures_pg, EveryIntervalHasTheServersFiguresConsistentWithTheClients) {
  const tpcc::testing::temp_dir dir("shoal-server-figures");
  const binary_result r = short_run(server->conninfo(), dir);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(r.err.find("server figures:"), std::string::npos) << r.err;  // nothing refused
  const json doc = read_json_file(dir.file("r.json"));
  const json& s = doc["server"];
  ASSERT_TRUE(s["collected"].get<bool>()) << s.dump();
  EXPECT_EQ(s["source"], "postgresql");
  EXPECT_TRUE(s["notes"].empty()) << s["notes"].dump();
  ASSERT_GE(s["series"].size(), 4U);  // 2 s of warm-up and 2 s of window at 1 s intervals
  double commits = 0;
  std::size_t measuring = 0;
  for (const json& i : s["series"]) {
    const json& v = i["values"];
    EXPECT_FALSE(v["xact_commit"].is_null()) << i.dump();
    EXPECT_FALSE(v["wal_bytes"].is_null()) << i.dump();
    EXPECT_FALSE(v["checkpoints"].is_null()) << i.dump();
    EXPECT_FALSE(v["lock_waits"].is_null()) << i.dump();
    commits += v["xact_commit"].get<double>();
    if (i["phase"] == "measuring") {
      ++measuring;
      EXPECT_GT(v["xact_commit"].get<double>(), 0) << i.dump();
      EXPECT_GT(v["wal_bytes"].get<double>(), 0) << i.dump();
    }
  }
  EXPECT_GE(measuring, 2U);
  // PostgreSQL's backends publish their counts at most once a second (docs/tpcc/
  // server-figures.md), later on a stalled machine: the run's last second may be missing from
  // the server's figures. Over the whole series (the warm-up's commits too, outside the client's
  // window) the server must count at least the client's window less one second of it.
  const double window_commits = client_commits(doc);
  const double per_second = window_commits / s["window"]["seconds"].get<double>();
  EXPECT_GE(commits + per_second, window_commits) << s.dump();
  EXPECT_GT(s["window"]["values"]["xact_commit"].get<double>(), 0);
  EXPECT_GT(s["window"]["seconds"].get<double>(), 1.5);
  ASSERT_FALSE(s["top_statements"].empty());
  EXPECT_GT(s["top_statements"][0]["calls"].get<double>(), 0);
  EXPECT_GE(s["cost"]["samples"].get<double>(), 5);
  EXPECT_GT(s["cost"]["mean_ms"].get<double>(), 0);
  const std::string html = read_text(dir.file("r.html"));
  EXPECT_NE(html.find("<section id=\"server\"><h2>The database's own figures</h2><figure>"),
            std::string::npos);
  EXPECT_NE(html.find("data-series=\"xact_commit\""), std::string::npos);
  const std::string csv = read_text(dir.file("r.server.csv"));
  EXPECT_EQ(csv.rfind("start_seconds,end_seconds,phase,xact_commit,", 0), 0U) << csv;
  EXPECT_EQ(occurrences(csv, "\r\n"), s["series"].size() + 1);
}

TEST_F(server_figures_pg, ARefusedViewIsSaidOnceAndTheRunGoesOnWithTheRest) {
  server->sql(
      "CREATE ROLE tpcc_watcher LOGIN; GRANT ALL ON ALL TABLES IN SCHEMA public TO tpcc_watcher; "
      "REVOKE SELECT ON pg_catalog.pg_stat_bgwriter FROM PUBLIC");
  const tpcc::testing::temp_dir dir("shoal-server-figures");
  const binary_result r = short_run(server->conninfo("tpcc_watcher"), dir);
  server->sql("GRANT SELECT ON pg_catalog.pg_stat_bgwriter TO PUBLIC");
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(occurrences(r.err, "server figures: pg_stat_bgwriter: "), 1U) << r.err;
  EXPECT_EQ(occurrences(r.err, "permission denied for view pg_stat_bgwriter"), 1U) << r.err;
  const json doc = read_json_file(dir.file("r.json"));
  const json& s = doc["server"];
  ASSERT_TRUE(s["collected"].get<bool>());
  ASSERT_EQ(s["notes"].size(), 1U) << s["notes"].dump();
  EXPECT_NE(s["notes"][0].get<std::string>().find("SQLSTATE 42501"), std::string::npos);
  for (const json& i : s["series"]) {
    EXPECT_TRUE(i["values"]["checkpoints"].is_null()) << i.dump();
    EXPECT_TRUE(i["values"]["buffers_written"].is_null()) << i.dump();
    EXPECT_FALSE(i["values"]["xact_commit"].is_null()) << i.dump();
  }
  EXPECT_GT(s["window"]["values"]["xact_commit"].get<double>(), 0);
  EXPECT_GT(client_commits(doc), 0);
}

}  // namespace
