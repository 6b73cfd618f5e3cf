// SPDX-License-Identifier: Apache-2.0
// tests/app/run/mysql_binary_test.cpp: shoal-tpcc against a real MariaDB, run as users run it.
//
// One throwaway server (app/tpcc/testing/mariadb_server.hpp) for the whole program, one load of 2
// warehouses, then in order: a short run without a failure (protocol=text); a short run whose
// result has the server's own figures; the server killed (SIGKILL) and restarted in the middle of
// a run: what was lost is counted, commits resume, and the
// check passes; a trigger refusing every stock update: shown once with its SQLSTATE, counted, exit
// status 3; two endpoints of the server, one's connections killed mid-run: lost on it alone;
// clean. The tests depend on each other's database, so the program is one
// ctest test (ONE_PROCESS) and its tests run in this order. About 50 s in a release build.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <exception>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "binary.hpp"
#include "support/verdict_count.hpp"
#include "temp_dir.hpp"
#include "testing/mariadb_server.hpp"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::mariadb_server;
using tpcc::testing::run_binary;
using tpcc::testing::verdict_count;

json read(const std::string& file) {
  std::ifstream in(file);
  return json::parse(in);
}

std::uint64_t sum_of(const json& doc, const char* field) {
  std::uint64_t total = 0;
  for (const json& t : doc["transactions"]) total += t[field].get<std::uint64_t>();
  return total;
}

// Whether a note "...: this server has no A, B" names the variable whose key is `key` (lower
// case).
bool names_variable(std::string note, const std::string& key) {
  std::transform(note.begin(), note.end(), note.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  const std::string word = std::string(" ").append(key);
  return note.find(word + ",") != std::string::npos || note.ends_with(word);
}

class mysql_binary : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!mariadb_server::available()) return;
    try {
      server = mariadb_server::start_one();
      db = server->uri() + "&protocol=prepared";  // the first run overrides it with text
      binary_result r = run_binary({"init", "--db", db});
      if (r.exit_code != 0) throw std::runtime_error("init: " + describe(r));
      r = run_binary({"load", "--db", db, "--warehouses", "2", "--no-progress"}, 300s);
      if (r.exit_code != 0) throw std::runtime_error("load: " + describe(r));
    } catch (const std::exception& e) {
      setup_failure = e.what();
    }
  }
  static void TearDownTestSuite() { server.reset(); }

  void SetUp() override {
    if (!setup_failure.empty()) FAIL() << setup_failure;
    if (!server) GTEST_SKIP() << "MariaDB server binaries not found (install mariadb-server)";
  }

  static std::vector<std::string> short_run(const tpcc::testing::temp_dir& dir) {
    return {"run",        "--db",   db,        "--warmup", "1s",
            "--duration", "4s",     "--drain", "10s",      "--wait-scale",
            "0.01",       "--seed", "7",       "--json",   dir.file("r.json"),
            "--no-tui"};
  }

  static std::unique_ptr<mariadb_server> server;
  static std::string db;
  static std::string setup_failure;
};

std::unique_ptr<mariadb_server> mysql_binary::server;
std::string mysql_binary::db;
std::string mysql_binary::setup_failure;

// protocol=text here (the default: a batch per round trip); the other runs use prepared
// statements, so the binary is tested with both.
TEST_F(mysql_binary, ARunCommitsWithoutAFailure) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-mysql");
  std::vector<std::string> args = short_run(dir);
  args[2] += "&protocol=text";
  binary_result r = run_binary(args, 120s);
  EXPECT_EQ(r.exit_code == 0 || r.exit_code == 3, true) << describe(r);  // the verdict may judge
  EXPECT_TRUE(contains(r.out, "tpmC")) << r.out;
  const json doc = read(dir.file("r.json"));
  EXPECT_GT(sum_of(doc, "committed"), 0U);
  EXPECT_EQ(sum_of(doc, "failed"), 0U) << r.out << r.err;
  EXPECT_EQ(sum_of(doc, "lost"), 0U);
  // PostgreSQL's round trips: at most 2 an attempt (a retried deadlock or lock-wait timeout is
  // one attempt more, its round trips counted with its transaction's).
  for (const json& t : doc["transactions"]) {
    const auto attempts = t["completed"].get<std::uint64_t>() + t["failures"].get<std::uint64_t>() +
                          t["retries"].get<std::uint64_t>();
    EXPECT_LE(t["round_trips"].get<std::uint64_t>(), 2 * attempts) << t.dump();
    // Delivery's locking read and its one statement per table (txn/delivery_locked.hpp) ran:
    // the check after the later runs covers what they wrote.
    if (t["type"] == "Delivery") {
      EXPECT_GT(t["committed"].get<std::uint64_t>(), 0U) << t.dump();
    }
  }
}

// The database's own figures (SHOW GLOBAL STATUS, read on a connection of their own with
// prepared statements here): every interval has them, and the server counted at least the
// COMMITs the client's window did (the warm-up's are on top).
TEST_F(mysql_binary, ARunReadsTheServersOwnFigures) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-mysql");
  binary_result r = run_binary(short_run(dir), 120s);
  EXPECT_EQ(r.exit_code == 0 || r.exit_code == 3, true) << describe(r);
  const json doc = read(dir.file("r.json"));
  const json& s = doc["server"];
  ASSERT_TRUE(s["collected"].get<bool>()) << s.dump();
  EXPECT_EQ(s["source"], "mysql");
  ASSERT_GE(s["series"].size(), 4U);
  // A variable this server lacks (MariaDB 10.6 and later: Innodb_rows_*) is named once, in the
  // notes and on stderr; the others are read in every interval.
  const std::string absent = s["notes"].empty() ? "" : s["notes"][0].get<std::string>();
  EXPECT_LE(s["notes"].size(), 1U) << s["notes"].dump();
  if (!absent.empty()) {
    EXPECT_TRUE(contains(r.err, std::string("server figures: ").append(absent))) << r.err;
  }
  double commits = 0;
  for (const json& i : s["series"]) {
    for (const auto& [key, value] : i["values"].items()) {
      EXPECT_EQ(value.is_null(), names_variable(absent, key)) << key << " in " << i.dump();
    }
    commits += i["values"]["com_commit"].get<double>();
    if (i["phase"] == "measuring") {
      EXPECT_GT(i["values"]["com_commit"].get<double>(), 0);
    }
  }
  EXPECT_GE(commits, static_cast<double>(sum_of(doc, "committed")));
  EXPECT_GT(s["window"]["values"]["handler_update"].get<double>(), 0);
}

TEST_F(mysql_binary, ARunOutlivesTheServerKilledAndRestarted) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-mysql");
  // Terminals without waits keep transactions in flight when the server dies; --tolerate-errors:
  // what was lost is counted and judged, the exit status stays 0. The run on a thread of its
  // own, the crash and restart on this one: the server dies with the thread that started it.
  // The window outlasts the restart by more than the pool's longest reconnect back-off (5 s,
  // session_pool_options::max_backoff): the tries after the kill come at about 0.05, 0.15, 0.35,
  // 0.75, 1.55, 3.15, 6.35 and 11.35 s, so a restart slower than 3 s on a loaded machine is
  // still followed by a try inside the window.
  binary_result r;
  std::thread running([&r, &dir] {
    r = run_binary(
        {"run", "--db", db, "--warmup", "1s", "--duration", "20s", "--no-wait", "--connections",
         "4", "--json", dir.file("r.json"), "--no-progress", "--tolerate-errors"},
        180s);
  });
  std::this_thread::sleep_for(5s);  // after the warm-up even if the binary is slow to start
  server->stop_now();
  server->start();
  running.join();
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  const json doc = read(dir.file("r.json"));
  EXPECT_GT(sum_of(doc, "lost"), 0U) << r.out;
  EXPECT_GT(sum_of(doc, "committed"), 0U) << r.out;
  // The verdict prints its lost-transactions line either way: its count is what says so.
  EXPECT_GT(verdict_count(r.out, "lost transactions").value_or(0), 0U) << r.out;
  // Commits resumed after the restart: an interval after the first with a loss has commits.
  bool lost_seen = false;
  bool resumed = false;
  for (const json& interval : doc["series"]) {
    if (lost_seen && sum_of(interval, "committed") > 0) resumed = true;
    if (sum_of(interval, "lost") > 0) lost_seen = true;
  }
  EXPECT_TRUE(lost_seen);
  EXPECT_TRUE(resumed) << r.out;
  // The consistency conditions hold over both runs' work and the crash.
  r = run_binary({"check", "--db", db}, 300s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "check: all conditions passed")) << r.out;
}

// Two endpoints of the one server (root, and password_user with its password): password_user's
// connections killed mid-run are lost on that endpoint alone (its outage named, exit 3); the
// other goes on, and the check passes afterwards. The password is never printed.
TEST_F(mysql_binary, OneEndpointsConnectionsKilledAreLostOnItAlone) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-mysql");
  const std::string other =
      server->uri(mariadb_server::password_user(), mariadb_server::password());
  binary_result r;
  std::atomic<bool> ended{false};
  std::thread running([&r, &dir, &other, &ended] {
    r = run_binary({"run", "--db", server->uri(), "--db", other, "--warmup", "0s", "--duration",
                    "8s", "--no-wait", "--connections", "4", "--json", dir.file("r.json"),
                    "--no-progress", "--no-tui"},
                   180s);
    ended = true;
  });
  // No warm-up, so what is lost from the first transaction on is in the measurement (a fixed
  // sleep let a binary slow to start under load be killed in its warm-up, its losses outside
  // the window): wait until one of the endpoint's connections runs a statement, then kill them
  // all (one idle in the pool loses nothing: the pool replaces it). The wait ends with the run
  // at the latest (a hang guard beyond it).
  const std::string user = mariadb_server::password_user();
  const std::string in_transaction =
      "SELECT COUNT(*) FROM information_schema.processlist WHERE user = '" + user +
      "' AND command = 'Query'";
  const auto until = std::chrono::steady_clock::now() + 120s;
  while (!ended && server->sql(in_transaction).starts_with("0") &&
         std::chrono::steady_clock::now() < until) {
    std::this_thread::sleep_for(20ms);
  }
  const std::string ids =
      server->sql("SELECT id FROM information_schema.processlist WHERE user = '" + user + "'");
  std::string kills;
  std::size_t from = 0;
  for (std::size_t end = ids.find('\n'); end != std::string::npos; end = ids.find('\n', from)) {
    kills += "KILL " + ids.substr(from, end - from) + ";";
    from = end + 1;
  }
  if (!kills.empty()) server->sql(kills);
  running.join();
  EXPECT_FALSE(kills.empty()) << "no connection of the second endpoint was found to kill";
  // An endpoint lost for part of the run: exit 3 without --tolerate-errors, the outage named on
  // that endpoint alone (docs/tpcc/endpoints.md); one server behind both, sampled once.
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_TRUE(contains(r.err, "endpoint 2/2 (")) << r.err;
  EXPECT_FALSE(contains(r.out + r.err, mariadb_server::password())) << r.out << r.err;
  const json doc = read(dir.file("r.json"));
  const json& e = doc["endpoints"];
  ASSERT_EQ(e.size(), 2U) << r.out;
  EXPECT_EQ(e[0]["lost"], 0U) << r.out;
  EXPECT_GT(e[1]["lost"].get<std::uint64_t>(), 0U) << r.out;
  // Its losses are the run's: its transactions' and its deferred Deliveries' (a deliverer whose
  // connection was killed mid-Delivery loses that Delivery on this endpoint).
  const std::uint64_t deferred_lost = doc["deferred_delivery"]["lost"].get<std::uint64_t>();
  EXPECT_EQ(e[1]["deliveries"]["lost"].get<std::uint64_t>(), deferred_lost) << r.out;
  EXPECT_EQ(e[1]["lost"].get<std::uint64_t>(), sum_of(doc, "lost") + deferred_lost) << r.out;
  EXPECT_GT(e[0]["completed"].get<std::uint64_t>(), 0U) << r.out;
  EXPECT_TRUE(e[0]["outage"].is_null()) << e[0].dump();
  EXPECT_GT(e[1]["outage"]["lost"].get<std::uint64_t>(), 0U) << e[1].dump();
  EXPECT_EQ(e[0]["server"], 0) << e[0].dump();
  EXPECT_EQ(e[1]["server"], 0) << e[1].dump();
  r = run_binary({"check", "--db", db}, 300s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "check: all conditions passed")) << r.out;
}

TEST_F(mysql_binary, EveryStockUpdateRefusedIsShownCountedAndExits3) {
  server->sql(
      "CREATE TRIGGER frozen BEFORE UPDATE ON stock FOR EACH ROW "
      "SIGNAL SQLSTATE 'SF001' SET MESSAGE_TEXT = 'stock is frozen for the test'");
  const tpcc::testing::temp_dir dir("shoal-tpcc-mysql");
  binary_result r = run_binary(short_run(dir), 120s);
  server->sql("DROP TRIGGER frozen");
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_TRUE(contains(r.err, "error (first of its kind): New-Order: failed, SQLSTATE SF001"))
      << r.err;
  EXPECT_TRUE(contains(r.err, "stock is frozen for the test")) << r.err;
  EXPECT_TRUE(contains(r.out, "FAILURES    New-Order")) << r.out;
  const json doc = read(dir.file("r.json"));
  const json& no = doc["transactions"][0];
  EXPECT_EQ(no["type"], "New-Order");
  EXPECT_EQ(no["completed"], 0U) << no.dump();
  EXPECT_GT(no["failed"].get<std::uint64_t>(), 0U) << no.dump();
  EXPECT_EQ(no["errors_by_sqlstate_class"]["SF"], no["failures"]) << no.dump();
}

// MySQL 8 has no CREATE INDEX IF NOT EXISTS: the MySQL forms build an index only when
// information_schema does not list it, so a second load (nothing left to load, the indexes
// built again) succeeds where a plain CREATE INDEX would fail with 1061 (duplicate key name).
TEST_F(mysql_binary, ALoadOverALoadedDatabaseBuildsEachIndexOnce) {
  const std::string query =
      "SELECT count(DISTINCT index_name) FROM information_schema.statistics WHERE table_schema = "
      "DATABASE() AND index_name IN ('customer_by_name', 'orders_by_customer', "
      "'history_by_district', 'history_by_customer')";
  EXPECT_EQ(server->sql(query), "4\n");
  const binary_result r = run_binary({"load", "--db", db, "--warehouses", "2", "--no-progress"});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(server->sql(query), "4\n");
  server->sql("DROP INDEX history_by_customer ON history");
  const binary_result again =
      run_binary({"load", "--db", db, "--warehouses", "2", "--no-progress"});
  EXPECT_EQ(again.exit_code, 0) << describe(again);
  EXPECT_EQ(server->sql(query), "4\n");  // the missing one built again
}

TEST_F(mysql_binary, CleanDropsEveryTable) {
  binary_result r = run_binary({"clean", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_EQ(server->sql("SHOW TABLES"), "");
}

}  // namespace
