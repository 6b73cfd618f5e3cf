// SPDX-License-Identifier: Apache-2.0
// tests/app/server_stats/two_servers_postgres_test.cpp: one run over two distinct PostgreSQL
// servers, as users run it (the binary, --json, --html, --csv, --metrics-addr).
//
// Two throwaway servers, each loaded with the same database (2 warehouses, the same seed; loaded
// side by side), then one short run without waits with both as endpoints. Server B alone has a
// trigger that inserts 40 rows for each history row (each Payment), so its own figures show
// several times the rows inserted per commit that A's do: each server's figures are its own,
// not one read twice. Each appears separately in the JSON (named by its endpoint), the HTML (a
// section each), the CSV (a file each), the endpoints' CSV (which server is whose) and the
// metrics endpoint, scraped while the run runs (a `server` label each); each endpoint's series
// has its per-type counts and p90s, in the JSON and the series CSV; merge and compare still read
// the result. One program, one ctest test (ONE_PROCESS).
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "binary.hpp"
#include "page_check.hpp"
#include "scrape.hpp"
#include "temp_dir.hpp"
#include "testing/postgres_server.hpp"
#include "testing/required_in_ci.hpp"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::file_text;
using tpcc::testing::postgres_server;
using tpcc::testing::run_binary;

// init and load of 2 warehouses with seed 7 on `server`; empty, or what failed.
std::string load_two_warehouses(const postgres_server& server) {
  binary_result r = run_binary({"init", "--db", server.conninfo()});
  if (r.exit_code != 0) return "init: " + describe(r);
  r = run_binary(
      {"load", "--db", server.conninfo(), "--warehouses", "2", "--seed", "7", "--no-progress"},
      600s);
  return r.exit_code == 0 ? std::string() : "load: " + describe(r);
}

// A counter's growth over every reading of a server's series.
double grown(const json& server, const char* key) {
  double n = 0;
  for (const json& i : server["series"]) n += i["values"][key].get<double>();
  return n;
}

class two_servers_pg : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!postgres_server::available()) return;
    try {
      a = std::make_unique<postgres_server>();
      b = std::make_unique<postgres_server>();
      std::string failed_b;
      std::thread loading_b([&failed_b] { failed_b = load_two_warehouses(*b); });
      const std::string failed_a = load_two_warehouses(*a);
      loading_b.join();
      if (!failed_a.empty() || !failed_b.empty()) throw std::runtime_error(failed_a + failed_b);
      b->sql(
          "CREATE TABLE payment_echo (n int); "
          "CREATE FUNCTION echo_payment() RETURNS trigger LANGUAGE plpgsql AS "
          "$$ BEGIN INSERT INTO payment_echo SELECT generate_series(1, 40); RETURN NEW; END $$; "
          "CREATE TRIGGER echo AFTER INSERT ON history FOR EACH ROW EXECUTE FUNCTION "
          "echo_payment()");
    } catch (const std::exception& e) {
      setup_failure = e.what();
    }
  }
  static void TearDownTestSuite() {
    a.reset();
    b.reset();
  }
  void SetUp() override {
    if (!setup_failure.empty()) FAIL() << setup_failure;
    if (!a) {
      tpcc::testing::require_in_ci("PostgreSQL's server binaries");
      GTEST_SKIP() << "PostgreSQL server binaries not found";
    }
  }

  static std::unique_ptr<postgres_server> a, b;
  static std::string setup_failure;
};

std::unique_ptr<postgres_server> two_servers_pg::a;
std::unique_ptr<postgres_server> two_servers_pg::b;
std::string two_servers_pg::setup_failure;

void expect_each_server_its_own(const json& doc) {
  const json& first = doc["server"];
  ASSERT_TRUE(first["collected"].get<bool>()) << first.dump();
  ASSERT_EQ(doc["more_servers"].size(), 1U) << doc.dump();
  const json& second = doc["more_servers"][0];
  ASSERT_TRUE(second["collected"].get<bool>()) << second.dump();
  const json& e = doc["endpoints"];
  ASSERT_EQ(e.size(), 2U);
  EXPECT_EQ(e[0]["server"], 0);
  EXPECT_EQ(e[1]["server"], 1);
  EXPECT_EQ(first["endpoints"], json::array({e[0]["target"]}));
  EXPECT_EQ(second["endpoints"], json::array({e[1]["target"]}));
  // Rows inserted per commit, by each server's own count: B's trigger adds 40 per Payment (43%
  // of the mix), several times A's (about 6 per transaction).
  const double a_commits = grown(first, "xact_commit"), b_commits = grown(second, "xact_commit");
  ASSERT_GT(a_commits, 0) << first.dump();
  ASSERT_GT(b_commits, 0) << second.dump();
  const double a_rows = grown(first, "tup_inserted") / a_commits;
  const double b_rows = grown(second, "tup_inserted") / b_commits;
  EXPECT_GT(b_rows, 2 * a_rows) << "A " << a_rows << " rows per commit, B " << b_rows;
  ::testing::Test::RecordProperty("a_rows_per_commit", std::to_string(a_rows));
  ::testing::Test::RecordProperty("b_rows_per_commit", std::to_string(b_rows));
  EXPECT_GT(first["window"]["values"]["xact_commit"].get<double>(), 0);
  EXPECT_GT(second["window"]["values"]["xact_commit"].get<double>(), 0);
}

// Each endpoint's intervals: per type, counts adding up to the interval's and a p90 where any
// completed.
void expect_per_type_series(const json& doc) {
  for (const json& endpoint : doc["endpoints"]) {
    std::uint64_t with_p90 = 0;
    for (const json& i : endpoint["series"]) {
      ASSERT_EQ(i["transactions"].size(), 5U) << i.dump();
      std::uint64_t completed = 0, failed = 0;
      for (const json& t : i["transactions"]) {
        completed += t["completed"].get<std::uint64_t>();
        failed += t["failed"].get<std::uint64_t>();
        EXPECT_EQ(t["p90_us"].is_null(), t["completed"] == 0) << i.dump();
        if (!t["p90_us"].is_null()) ++with_p90;
      }
      EXPECT_EQ(completed, i["completed"].get<std::uint64_t>()) << i.dump();
      EXPECT_EQ(failed, i["failed"].get<std::uint64_t>()) << i.dump();
      EXPECT_EQ(i["transactions"][0]["completed"], i["new_orders"]) << i.dump();
    }
    EXPECT_GT(with_p90, 0U) << endpoint.dump();
  }
}

// The metrics page once it has both servers' readings (`first` and `second` begin their
// names), within 60 s; empty when it never did.
std::string page_with_both(int port, const std::string& first, const std::string& second) {
  const std::string samples = "shoal_tpcc_server_samples_total{server=\"";
  for (auto waited = 0ms; waited < 60s; waited += 100ms) {
    const std::string page =
        tpcc::testing::body_of(tpcc::testing::http_get(port, "/metrics").value_or(""));
    if (contains(page, samples + first) && contains(page, samples + second)) return page;
    std::this_thread::sleep_for(100ms);
  }
  return "";
}

// Each server's samples on the page under its own `server` label, the format kept.
void expect_labelled_servers(const std::string& page, const std::string& first,
                             const std::string& second) {
  ASSERT_FALSE(page.empty()) << "no page with both servers' figures";
  EXPECT_EQ(tpcc::testing::format_problems(page), std::vector<std::string>{}) << page;
  for (const std::string& name : {first, second}) {
    EXPECT_TRUE(contains(page, "shoal_tpcc_server_total{server=\"" + name)) << page;
    EXPECT_TRUE(contains(page, "shoal_tpcc_server_value{server=\"" + name)) << page;
  }
  EXPECT_FALSE(contains(page, "\nshoal_tpcc_server_samples_total ")) << "an unlabelled sample";
}

TEST_F(two_servers_pg, EachServersFiguresAppearSeparatelyInEveryOutput) {
  const tpcc::testing::temp_dir dir("shoal-two-servers");
  const std::string db_a = a->conninfo() + " application_name=shoal-a";
  const std::string db_b = b->conninfo() + " application_name=shoal-b";
  const std::string name_a = "PostgreSQL host=" + a->socket_dir() + " ";
  const std::string name_b = "PostgreSQL host=" + b->socket_dir() + " ";
  tpcc::testing::background_run run(dir, {"run",
                                          "--db",
                                          db_a,
                                          "--db",
                                          db_b,
                                          "--warmup",
                                          "1s",
                                          "--duration",
                                          "3s",
                                          "--no-wait",
                                          "--connections",
                                          "2",
                                          "--seed",
                                          "3",
                                          "--no-progress",
                                          "--no-tui",
                                          "--metrics-addr",
                                          "127.0.0.1:0",
                                          "--json",
                                          dir.file("r.json"),
                                          "--html",
                                          dir.file("r.html"),
                                          "--csv",
                                          dir.file("r.csv")});
  const std::optional<int> port = run.metrics_port();
  ASSERT_TRUE(port.has_value()) << run.stderr_text();
  expect_labelled_servers(page_with_both(*port, name_a, name_b), name_a, name_b);
  ASSERT_EQ(run.wait(300s), 0) << run.stdout_text() << run.stderr_text();
  const json doc = json::parse(file_text(dir.file("r.json")));
  expect_each_server_its_own(doc);
  expect_per_type_series(doc);
  const std::string html = file_text(dir.file("r.html"));
  const std::string heading = "<h2>The database's own figures: ";
  EXPECT_TRUE(contains(html, "<section id=\"server\">" + heading + name_a))
      << "no section of server A";
  EXPECT_TRUE(contains(html, "<section id=\"server-2\">" + heading + name_b))
      << "no section of server B";
  for (const char* file : {"r.server.csv", "r.server-2.csv"}) {
    const std::string csv = file_text(dir.file(file));
    EXPECT_TRUE(csv.starts_with("start_seconds,end_seconds,phase,xact_commit,")) << file << csv;
  }
  const std::string endpoints_csv = file_text(dir.file("r.endpoints.csv"));
  EXPECT_TRUE(contains(endpoints_csv, ",p90_ms,p99_ms,server\r\n")) << endpoints_csv;
  EXPECT_TRUE(contains(endpoints_csv, ",1\r\n2,") && endpoints_csv.ends_with(",2\r\n"))
      << endpoints_csv;
  const std::string series_csv = file_text(dir.file("r.endpoint_series.csv"));
  EXPECT_TRUE(contains(series_csv,
                       ",pool_waiting,new_order_completed,new_order_failed,"
                       "new_order_p90_ms,payment_completed"))
      << series_csv;
  EXPECT_TRUE(contains(series_csv, ",stock_level_p90_ms\r\n")) << series_csv;
  // The readers of results take it (they leave the endpoints and the servers out).
  const binary_result m = run_binary({"merge", dir.file("r.json"), "--json", dir.file("m.json")});
  EXPECT_EQ(m.exit_code, 0) << describe(m);
  const binary_result c = run_binary({"compare", dir.file("r.json"), dir.file("r.json")});
  EXPECT_EQ(c.exit_code, 0) << describe(c);
  EXPECT_TRUE(contains(c.out, "configuration: the same in every setting compared")) << c.out;
}

}  // namespace
