// SPDX-License-Identifier: Apache-2.0
// tests/app/run/failures_test.cpp: a database that refuses every stock update, as a user would
// meet it (a trigger, a permission, a broken constraint): the run must show the error once
// with its SQLSTATE, count the failures in every output, show no New-Order percentile, fail
// the verdict and exit 3; with --tolerate-errors the same report and exit 0.
#include <gtest/gtest.h>

#include <signal.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "binary.hpp"
#include "temp_dir.hpp"
#include "testing/postgres_server.hpp"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

constexpr const char* frozen_stock = R"sql(
CREATE FUNCTION refuse_stock() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'stock is frozen for the test' USING ERRCODE = 'SF001';
END $$ LANGUAGE plpgsql;
CREATE TRIGGER frozen BEFORE UPDATE ON stock FOR EACH ROW EXECUTE FUNCTION refuse_stock();
)sql";

// A plain RAISE: SQLSTATE P0001, with a message that would run as script in a page that did not
// escape it.
constexpr const char* raising_stock = R"sql(
CREATE FUNCTION refuse_stock() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'no stock today <script>alert(1)</script>';
END $$ LANGUAGE plpgsql;
CREATE TRIGGER frozen BEFORE UPDATE ON stock FOR EACH ROW EXECUTE FUNCTION refuse_stock();
)sql";

json read(const std::string& file) {
  std::ifstream in(file);
  return json::parse(in);
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

std::vector<std::string> short_run(const std::string& db, const tpcc::testing::temp_dir& dir) {
  return {"run",
          "--db",
          db,
          "--warmup",
          "1s",
          "--duration",
          "6s",
          "--drain",
          "10s",
          "--wait-scale",
          "0.01",
          "--seed",
          "7",
          "--json",
          dir.file("r.json"),
          "--html",
          dir.file("r.html"),
          "--no-tui"};
}

// What both runs must show, whatever their exit status.
void expect_the_failures_shown(const binary_result& r, const tpcc::testing::temp_dir& dir) {
  // The error, once, with its SQLSTATE, the statement and the message.
  EXPECT_EQ(occurrences(r.err, "error (first of its kind): New-Order: failed, SQLSTATE SF001"), 1U)
      << r.err;
  EXPECT_TRUE(contains(r.err, "stock is frozen for the test")) << r.err;
  // The summary: failures counted by class, no New-Order percentile, the verdict failed.
  EXPECT_TRUE(contains(r.out, "FAILURES    New-Order")) << r.out;
  EXPECT_TRUE(contains(r.out, "SQLSTATE class SF x ")) << r.out;
  EXPECT_TRUE(contains(r.out, "verdict     FAIL")) << r.out;
  EXPECT_TRUE(contains(r.out, "every transaction type completed")) << r.out;
  EXPECT_TRUE(contains(r.out, "tpmC        0.00")) << r.out;
  // The JSON: counted, by class, no completed New-Order, no response sample.
  const json doc = read(dir.file("r.json"));
  const json& no = doc["transactions"][0];
  EXPECT_EQ(no["type"], "New-Order");
  EXPECT_EQ(no["completed"], 0U) << no.dump();
  EXPECT_GT(no["failed"].get<std::uint64_t>(), 0U) << no.dump();
  EXPECT_EQ(no["errors_by_sqlstate_class"]["SF"], no["failures"]) << no.dump();
  EXPECT_EQ(no["histograms"]["response"]["count"], 0U);
  EXPECT_GT(no["histograms"]["failed"]["count"].get<std::uint64_t>(), 0U);
  EXPECT_EQ(doc["verdict"]["result"], "FAIL");
  // The HTML: the failures section.
  std::ifstream html_file(dir.file("r.html"));
  const std::string html((std::istreambuf_iterator<char>(html_file)),
                         std::istreambuf_iterator<char>());
  EXPECT_TRUE(contains(html, "Failures (measurement interval)"));
  EXPECT_TRUE(contains(html, "<td>SF</td>"));
}

TEST(failures, EveryStockUpdateRefusedIsShownCountedAndFailsTheRun) {
  if (!tpcc::testing::postgres_server::available()) GTEST_SKIP() << "no PostgreSQL binaries";
  const tpcc::testing::postgres_server server;
  const std::string db = server.conninfo();
  binary_result r = run_binary({"init", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = run_binary({"load", "--db", db, "--warehouses", "1", "--no-progress"}, 300s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  server.sql(frozen_stock);

  const tpcc::testing::temp_dir dir("shoal-tpcc-failures");
  r = run_binary(short_run(db, dir), 120s);
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_TRUE(contains(r.err, "exit status 3 (--tolerate-errors to exit 0)")) << r.err;
  expect_the_failures_shown(r, dir);

  std::vector<std::string> tolerant = short_run(db, dir);
  tolerant.emplace_back("--tolerate-errors");
  r = run_binary(tolerant, 120s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.err, "exit status 0 (--tolerate-errors)")) << r.err;
  expect_the_failures_shown(r, dir);
}

// Every distinct error is in the results: the JSON lists the trigger's P0001 with its message,
// count and times; the HTML shows the message escaped.
TEST(failures, TheResultsListEveryDistinctErrorWithItsSqlstateAndMessage) {
  if (!tpcc::testing::postgres_server::available()) GTEST_SKIP() << "no PostgreSQL binaries";
  const tpcc::testing::postgres_server server;
  const std::string db = server.conninfo();
  binary_result r = run_binary({"init", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = run_binary({"load", "--db", db, "--warehouses", "1", "--no-progress"}, 300s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  server.sql(raising_stock);
  const tpcc::testing::temp_dir dir("shoal-tpcc-errors");
  r = run_binary(short_run(db, dir), 120s);
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  const json doc = read(dir.file("r.json"));
  const json& listed = doc["errors"]["listed"];
  bool found = false;
  for (const json& e : listed) {
    if (e["sqlstate"] != "P0001") continue;
    found = true;
    EXPECT_EQ(e["type"], "New-Order") << e.dump();
    EXPECT_TRUE(contains(e["message"].get<std::string>(), "no stock today <script>")) << e.dump();
    EXPECT_EQ(e["outcome"], "failed") << e.dump();
    EXPECT_FALSE(e["statement"].get<std::string>().empty()) << e.dump();
    EXPECT_GE(e["count"].get<std::uint64_t>(),
              doc["transactions"][0]["failed"].get<std::uint64_t>());
    EXPECT_LE(e["first"].get<std::string>(), e["last"].get<std::string>());
  }
  EXPECT_TRUE(found) << listed.dump();
  std::ifstream html_file(dir.file("r.html"));
  const std::string html((std::istreambuf_iterator<char>(html_file)),
                         std::istreambuf_iterator<char>());
  EXPECT_TRUE(contains(html, "no stock today &lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_FALSE(contains(html, "<script>alert(1)"));
}

// Stops (SIGSTOP) or resumes (SIGCONT) the server: the postmaster and every process it started,
// found by their parent's id in /proc; only this test's server.
void signal_server(const tpcc::testing::postgres_server& server, int sig) {
  std::ifstream pid_file(server.socket_dir() + "/data/postmaster.pid");
  pid_t postmaster = 0;
  pid_file >> postmaster;
  ASSERT_GT(postmaster, 0);
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    pid_t pid = 0, parent = 0;
    std::string name;
    char state = 0;
    if (!(stat >> pid >> name >> state >> parent)) continue;
    if (parent == postmaster) ::kill(pid, sig);
  }
  ::kill(postmaster, sig);
}

// A database that stops answering (SIGSTOP a second into the window, left frozen past the end):
// the run ends on time, counts the transactions in flight by type (abandoned ones too), treats
// them as responses at least as old as they were at the end, and names the stall.
TEST(failures, ADatabaseThatStopsAnsweringIsSeen) {
  if (!tpcc::testing::postgres_server::available()) GTEST_SKIP() << "no PostgreSQL binaries";
  const tpcc::testing::postgres_server server;
  const std::string db = server.conninfo();
  binary_result r = run_binary({"init", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = run_binary({"load", "--db", db, "--warehouses", "1", "--no-progress"}, 300s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const tpcc::testing::temp_dir dir("shoal-tpcc-stall");
  std::thread freeze([&server] {
    // Timed from the run's first connection, not from its launch (which a sanitizer build on a
    // loaded machine may take seconds over): a second into the window.
    const auto connected = [&server] {
      try {
        return server.sql(
                   "SELECT count(*) FROM pg_stat_activity WHERE application_name = "
                   "'shoal-tpcc'") != "0\n";
      } catch (const std::exception&) {
        return false;
      }
    };
    const auto give_up = std::chrono::steady_clock::now() + 60s;
    while (!connected() && std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(20ms);
    }
    std::this_thread::sleep_for(2s);
    signal_server(server, SIGSTOP);
  });
  r = run_binary({"run", "--db", db, "--warmup", "1s", "--duration", "10s", "--drain", "2s",
                  "--wait-scale", "0.1", "--seed", "3", "--json", dir.file("s.json"), "--no-tui"},
                 120s);
  freeze.join();
  signal_server(server, SIGCONT);  // before the server is stopped and removed
  EXPECT_FALSE(r.timed_out) << describe(r);
  EXPECT_TRUE(contains(r.out, "  stall       no transaction completed for ")) << r.out;
  EXPECT_TRUE(contains(r.out, "  in flight   at the window's end: ")) << r.out;
  const json doc = read(dir.file("s.json"));
  EXPECT_GT(doc["longest_stall"]["seconds"].get<double>(), 5.0) << doc["longest_stall"].dump();
  std::uint64_t in_flight = 0, old = 0, abandoned = 0;
  for (const json& t : doc["transactions"]) {
    in_flight += t["in_flight_at_end"].get<std::uint64_t>();
    old += t["in_flight_over_limit"].get<std::uint64_t>();
    abandoned += t["abandoned"].get<std::uint64_t>();
  }
  EXPECT_GT(in_flight, 0U) << doc["transactions"].dump();
  EXPECT_GT(old, 0U);
  EXPECT_GT(abandoned, 0U);
  bool stall_named = false;
  for (const json& i : doc["verdict"]["items"]) {
    stall_named = stall_named || i["name"] == "longest stall";
  }
  EXPECT_TRUE(stall_named) << doc["verdict"].dump();
  // What a user sees (in the test's log): the stall, the transactions in flight, the verdict.
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    if (contains(line, "stall") || contains(line, "in flight") || contains(line, " p90 ") ||
        contains(line, "verdict")) {
      std::printf("%s\n", line.c_str());
    }
  }
}

}  // namespace
