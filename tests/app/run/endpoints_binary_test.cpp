// SPDX-License-Identifier: Apache-2.0
// tests/app/run/endpoints_binary_test.cpp: `run` with --db given more than once, as users run it:
// bad endpoint lists refused before any work; three simulated endpoints splitting the warehouses,
// each endpoint's figures adding up to the totals; two endpoints of one throwaway PostgreSQL
// (the same server and database, two connection strings differing by application_name), one
// endpoint's sessions terminated mid-run: lost on that endpoint only, the other unaffected, the
// outage named in the summary, on stderr and in the JSON, exit 3, and `check` passes afterwards;
// each endpoint's series per type (counts adding up, p90s at or above its simulated latency), and
// drawn per type and endpoint in the HTML.
// One server for the program; about 30 s in a release build.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "binary.hpp"
#include "support/temp_dir.hpp"
#include "testing/postgres_server.hpp"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::testing::binary_result;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

json read_endpoints_doc(const std::string& file) {
  std::ifstream in(file);
  return json::parse(in);
}

std::string read_text_file(const std::string& file) {
  std::ifstream in(file);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint64_t sum_over_types(const json& doc, const char* field) {
  std::uint64_t total = 0;
  for (const json& t : doc["transactions"]) total += t[field].get<std::uint64_t>();
  return total;
}

std::size_t count_of_text(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The HTML's per-type chart of each endpoint: one small chart per endpoint, in --db order,
// with a line per type (titled with the endpoint and the type), and one legend of the types.
void expect_per_type_charts(const std::string& page, const std::vector<std::string>& targets) {
  const std::size_t from = page.find("<figure id=\"endpoint-types\">");
  ASSERT_NE(from, std::string::npos) << "no per-type chart per endpoint";
  const std::string figure = page.substr(from, page.find("</figure>", from) - from);
  std::size_t at = 0;
  for (const std::string& target : targets) {
    at = figure.find("<h3>" + target, at);
    ASSERT_NE(at, std::string::npos) << "no chart of " << target << " (or out of order)";
  }
  for (const char* type : {"new-order", "payment", "order-status", "delivery", "stock-level"}) {
    EXPECT_EQ(count_of_text(figure, std::string("data-series=\"") + type + "\" d=\""),
              targets.size())
        << type;
  }
  EXPECT_EQ(count_of_text(figure, " New-Order</title>"), targets.size());
  EXPECT_EQ(count_of_text(figure, " (warehouses "), targets.size());
  EXPECT_EQ(count_of_text(figure, "<button type=\"button\""), 5U) << "one legend of the types";
}

// Each endpoint's series has the run's cuts, and its intervals add up, over the endpoints, to
// what the run's series counted (every phase): nothing lost or counted twice between them.
void expect_series_add_up(const json& doc) {
  std::uint64_t run_completed = 0;
  for (const json& interval : doc["series"]) {
    for (const json& t : interval["transactions"]) {
      run_completed += t["committed"].get<std::uint64_t>() +
                       t["retried_committed"].get<std::uint64_t>() +
                       t["rolled_back"].get<std::uint64_t>();
    }
  }
  std::uint64_t endpoints_completed = 0, endpoints_sessions = 0;
  for (const json& one : doc["endpoints"]) {
    endpoints_sessions += one["series"].back()["pool"]["size"].get<std::uint64_t>();
    const json& series = one["series"];
    ASSERT_EQ(series.size(), doc["series"].size()) << one.dump();
    for (std::size_t i = 0; i < series.size(); ++i) {
      EXPECT_EQ(series[i]["end_seconds"], doc["series"][i]["end_seconds"]);
      endpoints_completed += series[i]["completed"].get<std::uint64_t>();
    }
    EXPECT_GT(series.back()["pool"]["size"].get<std::uint64_t>(), 0U) << one.dump();
  }
  EXPECT_GT(run_completed, 0U);
  EXPECT_EQ(endpoints_completed, run_completed);
  // The run's pool figures are every endpoint's pool added up (read after the drain: settled).
  EXPECT_EQ(doc["series"].back()["client"]["pool_size"].get<std::uint64_t>(), endpoints_sessions);
}

// Each endpoint's intervals have per type its completed, failed and p90; the types add up to
// the interval's counts; `latency_us` (the simulated round trip, a floor of every response that
// makes one) of endpoint k is at or below every p90 it reports but Delivery's (its terminal part
// only queues the deferred Delivery: no round trip).
void expect_per_type_series(const json& doc, const std::vector<std::uint64_t>& latency_us) {
  for (std::size_t k = 0; k < latency_us.size(); ++k) {
    std::size_t p90s = 0;
    for (const json& i : doc["endpoints"][k]["series"]) {
      ASSERT_EQ(i["transactions"].size(), 5U) << i.dump();
      std::uint64_t completed = 0;
      for (const json& t : i["transactions"]) {
        completed += t["completed"].get<std::uint64_t>();
        if (t["completed"] == 0) {
          EXPECT_TRUE(t["p90_us"].is_null()) << i.dump();
          continue;
        }
        if (t["type"] != "Delivery") {
          EXPECT_GE(t["p90_us"].get<std::uint64_t>(), latency_us[k]) << k << i.dump();
        }
        ++p90s;
      }
      EXPECT_EQ(completed, i["completed"].get<std::uint64_t>()) << i.dump();
      EXPECT_EQ(i["transactions"][0]["completed"], i["new_orders"]) << i.dump();
    }
    EXPECT_GT(p90s, 0U) << "endpoint " << k + 1 << " reported no p90";
  }
}

TEST(endpoints, BadEndpointListsAreRefusedNamingTheEndpoint) {
  binary_result r = run_binary({"run", "--db", "sim:latency=1ms", "--db", "sim:latency=1ms"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--db sim:latency=1ms is given twice")) << r.err;
  r = run_binary(
      {"run", "--db", "postgresql://u:topsecret@a/tpcc", "--db", "mysql://u:topsecret@b/tpcc"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--db mysql://u:***@b/tpcc is not the same kind")) << r.err;
  EXPECT_FALSE(contains(r.err, "topsecret")) << r.err;
  r = run_binary({"check", "--db", "postgresql://a/tpcc", "--db", "postgresql://b/tpcc"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "but `shoal-tpcc check` takes one")) << r.err;
  r = run_binary({"run", "--db", "sqlite:a.db", "--db", "sqlite:b.db"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "several SQLite files")) << r.err;
  r = run_binary({"run", "--db", "sim:latency=1ms", "--db", "nonsense"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "nonsense")) << r.err;
}

TEST(endpoints, MoreEndpointsThanWarehousesIsRefusedBeforeTheRun) {
  const binary_result r = run_binary({"run", "--db", "sim:latency=1ms", "--db", "sim:latency=2ms",
                                      "--db", "sim:latency=3ms", "--warehouses", "2"});
  EXPECT_EQ(r.exit_code, 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "3 endpoints (--db) but 2 warehouses")) << r.err;
}

TEST(endpoints, SimulatedEndpointsSplitTheWarehousesAndAddUpToTheTotals) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-endpoints");
  const binary_result r = run_binary({"run",
                                      "--db",
                                      "sim:latency=1ms",
                                      "--db",
                                      "sim:latency=2ms",
                                      "--db",
                                      "sim:latency=3ms",
                                      "--warehouses",
                                      "5",
                                      "--warmup",
                                      "1s",
                                      "--duration",
                                      "2s",
                                      "--wait-scale",
                                      "0.01",
                                      "--no-progress",
                                      "--no-tui",
                                      "--json",
                                      dir.file("r.json"),
                                      "--csv",
                                      dir.file("r.csv"),
                                      "--html",
                                      dir.file("r.html")});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "endpoint 3/3  sim:latency=3ms")) << r.out;
  const std::string csv = read_text_file(dir.file("r.endpoints.csv"));
  EXPECT_TRUE(csv.starts_with("endpoint,target,first_warehouse,last_warehouse,type,committed"))
      << csv;
  EXPECT_TRUE(contains(csv, "\r\n3,sim:latency=3ms")) << csv;
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 3 * 5) << csv;  // endpoints x types
  const std::string series_csv = read_text_file(dir.file("r.endpoint_series.csv"));
  EXPECT_TRUE(series_csv.starts_with("endpoint,start_seconds,end_seconds,phase,completed"))
      << series_csv;
  EXPECT_TRUE(contains(series_csv, "\r\n3,")) << series_csv;
  const std::string page = read_text_file(dir.file("r.html"));
  EXPECT_TRUE(contains(page, "<section id=\"endpoints\">")) << "no endpoints section";
  EXPECT_TRUE(contains(page, "<td>4-5</td>")) << "no row of the third endpoint";
  EXPECT_TRUE(contains(page, "<path class=\"line c-2\" data-series=\"endpoint-3\""))
      << "no line of the third endpoint in the per-endpoint chart";
  expect_per_type_charts(page, {"sim:latency=1ms", "sim:latency=2ms", "sim:latency=3ms"});
  const json doc = read_endpoints_doc(dir.file("r.json"));
  const json& e = doc["endpoints"];
  ASSERT_EQ(e.size(), 3U);
  // Ranges 1 of 3 of 5 warehouses, as shards split them: 1, 2-3, 4-5.
  EXPECT_EQ(e[0]["first_warehouse"], 1);
  EXPECT_EQ(e[0]["last_warehouse"], 1);
  EXPECT_EQ(e[1]["first_warehouse"], 2);
  EXPECT_EQ(e[2]["last_warehouse"], 5);
  std::uint64_t committed = 0;
  double tpmc = 0;
  for (const json& one : e) {
    EXPECT_GT(one["completed"].get<std::uint64_t>(), 0U) << one.dump();
    committed += sum_over_types(one, "committed");
    tpmc += one["tpmc"].get<double>();
  }
  EXPECT_EQ(committed, sum_over_types(doc, "committed"));
  EXPECT_NEAR(tpmc, doc["tpmc"].get<double>(), 1e-6);
  expect_series_add_up(doc);
  expect_per_type_series(doc, {1000, 2000, 3000});
  EXPECT_TRUE(contains(series_csv,
                       ",pool_waiting,new_order_completed,new_order_failed,"
                       "new_order_p90_ms,"))
      << series_csv;
  EXPECT_EQ(static_cast<std::size_t>(std::count(series_csv.begin(), series_csv.end(), '\n')),
            1 + 3 * doc["series"].size())
      << series_csv;  // a row per endpoint and interval
  // Each endpoint its deferred Delivery line; no outage, so no OUTAGE line and exit 0 above.
  EXPECT_EQ(count_of_text(r.out, "deferred Delivery: "), 1U + 3U) << r.out;
  EXPECT_FALSE(contains(r.out, "OUTAGE")) << r.out;
  for (const json& one : e) {
    EXPECT_TRUE(one["outage"].is_null()) << one["outage"].dump();
    EXPECT_TRUE(one["server"].is_null()) << "a simulated endpoint has no server figures";
  }
  // merge reads such a result (it leaves the endpoints out, as it does the server's figures).
  const binary_result m = run_binary({"merge", dir.file("r.json"), "--json", dir.file("m.json")});
  ASSERT_EQ(m.exit_code, 0) << describe(m);
  EXPECT_EQ(sum_over_types(read_endpoints_doc(dir.file("m.json")), "committed"), committed);
}

// Two endpoints of one PostgreSQL: the same server and database, told apart by application_name,
// which is also how the test finds the second endpoint's sessions.
class endpoints_postgres : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!tpcc::testing::postgres_server::available()) return;
    server = std::make_unique<tpcc::testing::postgres_server>();
    const std::string db = server->conninfo();
    binary_result r = run_binary({"init", "--db", db});
    ASSERT_EQ(r.exit_code, 0) << describe(r);
    r = run_binary({"load", "--db", db, "--warehouses", "2", "--no-progress"}, 300s);
    ASSERT_EQ(r.exit_code, 0) << describe(r);
  }
  static void TearDownTestSuite() { server.reset(); }
  void SetUp() override {
    if (!server) GTEST_SKIP() << "no PostgreSQL binaries";
  }
  static std::string endpoint(const char* name) {
    return server->conninfo() + " application_name=" + name;
  }
  static inline std::unique_ptr<tpcc::testing::postgres_server> server;
};

TEST_F(endpoints_postgres, OneEndpointsSessionsTerminatedAreLostOnItAlone) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-endpoints");
  binary_result r;
  // No waits keep transactions in flight when the sessions go; the window outlasts the pool's
  // reconnect back-off. The run on a thread of its own, the terminations on this one.
  std::thread running([&r, &dir] {
    r = run_binary({"run", "--db", endpoint("shoal-ep-a"), "--db", endpoint("shoal-ep-b"),
                    "--warmup", "1s", "--duration", "8s", "--no-wait", "--connections", "4",
                    "--json", dir.file("r.json"), "--no-progress", "--no-tui"},
                   180s);
  });
  // After the warm-up even if the binary is slow to start: terminate endpoint b's sessions
  // while its terminals use them. A session the client is not using at that instant (a slow
  // client, as under ASan, leaves them idle between statements) is replaced without a loss, so
  // its sessions are terminated again, every 100 ms for at most 2 s, until three of them were
  // busy (state other than idle) when terminated.
  std::this_thread::sleep_for(4s);
  int killed = 0;
  int busy = 0;
  for (int round = 0; round < 20 && busy < 3; ++round) {
    if (round > 0) std::this_thread::sleep_for(100ms);
    const std::string counts = server->sql(
        "SELECT count(*) FILTER (WHERE state <> 'idle') || ' ' || count(pg_terminate_backend(pid)) "
        "FROM pg_stat_activity WHERE application_name = 'shoal-ep-b'");
    busy += std::stoi(counts);
    killed += std::stoi(counts.substr(counts.find(' ') + 1));
  }
  running.join();
  EXPECT_GT(killed, 0) << "no session of endpoint b was found to terminate";
  EXPECT_GT(busy, 0) << "no session of endpoint b was busy when terminated";
  // An endpoint lost for part of the run: the run completes and reports, exit 3 (without
  // --tolerate-errors), the summary, stderr and the JSON naming that endpoint and its outage.
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_TRUE(contains(r.err, "endpoint 2/2 (PostgreSQL host=")) << r.err;
  EXPECT_TRUE(contains(r.err, "OUTAGE: ")) << r.err;
  EXPECT_FALSE(contains(r.err, "endpoint 1/2 (")) << r.err;
  EXPECT_EQ(count_of_text(r.out, "OUTAGE: "), 1U) << r.out;
  EXPECT_TRUE(contains(r.out, "1 endpoint(s) lost for part of the run: exit status 3")) << r.out;
  const json doc = read_endpoints_doc(dir.file("r.json"));
  const json& e = doc["endpoints"];
  ASSERT_EQ(e.size(), 2U) << r.out;
  EXPECT_EQ(e[0]["lost"], 0U) << r.out;
  EXPECT_TRUE(e[0]["outage"].is_null()) << e[0].dump();
  EXPECT_GT(e[1]["lost"].get<std::uint64_t>(), 0U) << r.out;
  const json& outage = e[1]["outage"];
  ASSERT_TRUE(outage.is_object()) << e[1].dump();
  EXPECT_GE(outage["lost"].get<std::uint64_t>(), e[1]["lost"].get<std::uint64_t>());
  EXPECT_GE(outage["intervals"].get<std::uint64_t>(), 1U);
  EXPECT_LE(outage["from_seconds"].get<double>(), outage["to_seconds"].get<double>());
  EXPECT_GT(outage["sessions_replaced"].get<std::uint64_t>(), 0U) << "no reconnect counted";
  expect_series_add_up(doc);
  // One server behind both endpoints: sampled once, both endpoints pointing at its figures.
  EXPECT_EQ(doc["server"]["source"], "postgresql") << doc["server"].dump();
  EXPECT_EQ(e[0]["server"], 0) << e[0].dump();
  EXPECT_EQ(e[1]["server"], 0) << e[1].dump();
  EXPECT_FALSE(doc.contains("more_servers")) << doc["more_servers"].dump();
  // Endpoint b's losses are the run's: its transactions' and its deferred Deliveries' (a
  // deliverer whose session was terminated mid-Delivery loses that Delivery on b).
  const std::uint64_t deferred_lost = doc["deferred_delivery"]["lost"].get<std::uint64_t>();
  EXPECT_EQ(e[1]["deliveries"]["lost"].get<std::uint64_t>(), deferred_lost) << r.out;
  EXPECT_EQ(e[1]["lost"].get<std::uint64_t>(), sum_over_types(doc, "lost") + deferred_lost)
      << r.out;
  EXPECT_GT(e[0]["completed"].get<std::uint64_t>(), 0U);
  EXPECT_TRUE(contains(r.out, "endpoint 2/2  PostgreSQL host=")) << r.out;
  EXPECT_TRUE(contains(r.out, "application_name=shoal-ep-b")) << r.out;
  r = run_binary({"check", "--db", server->conninfo()}, 300s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "check: all conditions passed")) << r.out;
}

}  // namespace
