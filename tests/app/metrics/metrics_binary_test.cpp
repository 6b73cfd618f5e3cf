// SPDX-License-Identifier: Apache-2.0
// tests/app/metrics/metrics_binary_test.cpp: `shoal-tpcc run --metrics-addr` as users run it:
// a short run on a real SQLite file, its endpoint found through the address printed on stderr,
// scraped over a real socket while the run runs (counters never go back), each page validated
// by `promtool check metrics` (Debian's prometheus package; its absence FAILS the test), the
// server gone when the run has ended or was interrupted; a run with a CH-benCHmark stream shows
// each query; and bad addresses refused before any work with exit status 2.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "binary.hpp"
#include "page_check.hpp"
#include "scrape.hpp"
#include "support/temp_dir.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::background_run;
using tpcc::testing::binary_result;
using tpcc::testing::body_of;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::file_text;
using tpcc::testing::http_get;
using tpcc::testing::run_binary;

constexpr const char* promtool = "/usr/bin/promtool";

// promtool's verdict on a page: empty when it passes, else what it said.
std::string promtool_problems(const tpcc::testing::temp_dir& dir, const std::string& page,
                              const std::string& name) {
  const std::string page_file = dir.file(name + ".txt");
  const std::string said = dir.file(name + ".promtool");
  std::ofstream(page_file) << page;
  const std::string command =
      std::string(promtool) + " check metrics < " + page_file + " > " + said + " 2>&1";
  const int status = std::system(command.c_str());  // NOLINT(cert-env33-c): the test's own tool
  if (status == 0 && file_text(said).empty()) return "";
  return "promtool check metrics: status " + std::to_string(status) + "\n" + file_text(said);
}

// The counters' samples (counters and histogram series) of a page, by series.
std::map<std::string, double> counter_samples(const std::string& page) {
  static const std::regex sample(
      R"(^(shoal_tpcc_\w+(_total|_bucket|_count|_sum)(\{[^}]*\})?) (\S+)$)");
  std::map<std::string, double> out;
  std::istringstream in(page);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, sample)) out[m[1]] = std::stod(m[4]);
  }
  return out;
}

// A loaded one-warehouse SQLite database in `dir`.
std::string loaded_database(const tpcc::testing::temp_dir& dir) {
  const std::string db = "sqlite:" + dir.file("metrics.db");
  binary_result r = run_binary({"init", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  r = run_binary({"load", "--db", db, "--warehouses", "1", "--no-progress"}, 300s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  return db;
}

std::vector<std::string> run_args(const std::string& db, const char* duration) {
  return {"run",      "--db",         db,           "--metrics-addr", "127.0.0.1:0",
          "--warmup", "1s",           "--duration", duration,         "--drain",
          "10s",      "--wait-scale", "0.01",       "--no-tui"};
}

// The page once the terminals run (its counters are there), within 30 s.
std::string page_with_counters(int port) {
  for (auto waited = 0ms; waited < 30s; waited += 100ms) {
    const auto got = http_get(port, "/metrics");
    if (got && contains(*got, "shoal_tpcc_transactions_total{")) return *got;
    std::this_thread::sleep_for(100ms);
  }
  return "";
}

TEST(metrics_binary, ARunIsScrapedTwiceWhileItRunsAndPromtoolAcceptsEveryPage) {
  ASSERT_EQ(access(promtool, X_OK), 0)
      << promtool << " is missing: install Debian's prometheus package "
      << "(sudo bash scripts/install-deps.sh); this test validates the page with it";
  const tpcc::testing::temp_dir dir("shoal-tpcc-metrics");
  const std::string db = loaded_database(dir);
  background_run run(dir, run_args(db, "8s"));
  const auto printed = run.metrics_port();
  ASSERT_TRUE(printed.has_value()) << run.stderr_text();
  const int port = printed.value_or(0);

  const std::string first = page_with_counters(port);
  ASSERT_FALSE(first.empty()) << "no page with counters\n" << run.stderr_text();
  EXPECT_EQ(first.rfind("HTTP/1.1 200 OK\r\n", 0), 0U) << first;
  EXPECT_TRUE(contains(first, "\r\nContent-Type: text/plain; version=0.0.4")) << first;
  std::this_thread::sleep_for(2s);
  const std::string second = http_get(port, "/metrics").value_or("");
  ASSERT_FALSE(second.empty());
  const std::string missing = http_get(port, "/").value_or("");
  EXPECT_EQ(missing.rfind("HTTP/1.1 404", 0), 0U) << missing;

  for (const auto& [name, page] :
       {std::pair{"first", body_of(first)}, std::pair{"second", body_of(second)}}) {
    EXPECT_EQ(promtool_problems(dir, page, name), "") << page;
    EXPECT_EQ(tpcc::testing::format_problems(page), std::vector<std::string>{}) << page;
  }
  const auto before = counter_samples(body_of(first));
  const auto after = counter_samples(body_of(second));
  ASSERT_FALSE(before.empty()) << first;
  for (const auto& [series, value] : before) {
    ASSERT_EQ(after.count(series), 1U) << series << " gone from the second page";
    EXPECT_GE(after.at(series), value) << series << " went back";
  }
  EXPECT_GT(after.at(R"(shoal_tpcc_transactions_total{type="New-Order",outcome="committed"})"), 0)
      << second;

  EXPECT_EQ(run.wait(90s), 0) << run.stdout_text() << run.stderr_text();
  EXPECT_TRUE(contains(run.stdout_text(), "tpmC")) << run.stdout_text();
  EXPECT_FALSE(http_get(port, "/metrics").has_value()) << "still served after the run ended";
}

// Two simulated endpoints: each one's counts under its `endpoint` label, and promtool accepts the
// page.
TEST(metrics_binary, EachEndpointOfARunIsOnThePage) {
  ASSERT_EQ(access(promtool, X_OK), 0) << promtool << " is missing";
  const tpcc::testing::temp_dir dir("shoal-tpcc-metrics");
  background_run run(dir, {"run", "--db", "sim:latency=1ms", "--db", "sim:latency=2ms",
                           "--warehouses", "2", "--metrics-addr", "127.0.0.1:0", "--warmup", "1s",
                           "--duration", "3s", "--wait-scale", "0.01", "--no-tui"});
  const auto printed = run.metrics_port();
  ASSERT_TRUE(printed.has_value()) << run.stderr_text();
  const std::string page = body_of(page_with_counters(printed.value_or(0)));
  EXPECT_EQ(promtool_problems(dir, page, "endpoints"), "") << page;
  EXPECT_TRUE(contains(page, "shoal_tpcc_endpoint_transactions_total{endpoint=\"sim:latency=2ms"))
      << page;
  EXPECT_TRUE(contains(page, "shoal_tpcc_endpoint_sessions{endpoint=\"sim:latency=2ms")) << page;
  EXPECT_EQ(run.wait(90s), 0) << run.stdout_text() << run.stderr_text();
}

TEST(metrics_binary, CtrlCStopsTheServerWithTheRun) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-metrics");
  const std::string db = loaded_database(dir);
  background_run run(dir, run_args(db, "10m"));
  const auto printed = run.metrics_port();
  ASSERT_TRUE(printed.has_value()) << run.stderr_text();
  const int port = printed.value_or(0);
  ASSERT_FALSE(page_with_counters(port).empty()) << run.stderr_text();
  run.interrupt();
  EXPECT_EQ(run.wait(90s), 130) << run.stdout_text() << run.stderr_text();
  EXPECT_FALSE(http_get(port, "/metrics").has_value()) << "still served after Ctrl-C";
}

// A run with one CH-benCHmark stream on a CH-loaded SQLite file (no warm-up, so that the
// stream's first query, Q1, ends inside the measurement interval): each query's counters and
// latency histogram on the page, the streams and the queries per hour, and promtool accepts it.
TEST(metrics_binary, AnAnalyticStreamsQueriesAreOnThePageWhileItRuns) {
  ASSERT_EQ(access(promtool, X_OK), 0) << promtool << " is missing";
  const tpcc::testing::temp_dir dir("shoal-tpcc-metrics-ch");
  const std::string db = "sqlite:" + dir.file("ch.db");
  binary_result made = run_binary({"init", "--ch", "--db", db});
  ASSERT_EQ(made.exit_code, 0) << describe(made);
  made = run_binary({"load", "--ch", "--db", db, "--warehouses", "1", "--no-progress"}, 300s);
  ASSERT_EQ(made.exit_code, 0) << describe(made);
  background_run run(dir, {"run", "--db", db, "--analytic-streams", "1", "--metrics-addr",
                           "127.0.0.1:0", "--warmup", "0s", "--duration", "6s", "--drain", "10s",
                           "--wait-scale", "0.01", "--no-tui"});
  const auto printed = run.metrics_port();
  ASSERT_TRUE(printed.has_value()) << run.stderr_text();
  const std::string q1 = R"(shoal_tpcc_ch_queries_total{query="Q1",outcome="completed"})";
  std::string page;
  for (auto waited = 0ms; waited < 30s; waited += 100ms) {
    page = body_of(http_get(printed.value_or(0), "/metrics").value_or(""));
    if (tpcc::testing::sample_value(page, q1).value_or(0) >= 1) break;
    std::this_thread::sleep_for(100ms);
  }
  ASSERT_GE(tpcc::testing::sample_value(page, q1).value_or(0), 1) << page << run.stderr_text();
  EXPECT_EQ(promtool_problems(dir, page, "ch"), "") << page;
  EXPECT_EQ(tpcc::testing::format_problems(page), std::vector<std::string>{}) << page;
  EXPECT_EQ(tpcc::testing::sample_value(page, "shoal_tpcc_ch_streams"), 1.0) << page;
  EXPECT_GT(tpcc::testing::sample_value(page, "shoal_tpcc_ch_queries_per_hour").value_or(0), 0)
      << page;
  for (int n = 1; n <= 22; ++n) {
    const std::string q = std::string("\"Q").append(std::to_string(n)).append("\"");
    EXPECT_TRUE(
        contains(page, "shoal_tpcc_ch_queries_total{query=" + q + ",outcome=\"cancelled\"}"))
        << q;
    EXPECT_TRUE(contains(page, "shoal_tpcc_ch_query_latency_seconds_count{query=" + q + "}")) << q;
  }
  EXPECT_GE(
      tpcc::testing::sample_value(page, R"(shoal_tpcc_ch_query_latency_seconds_count{query="Q1"})")
          .value_or(0),
      1)
      << page;
  EXPECT_EQ(run.wait(90s), 0) << run.stdout_text() << run.stderr_text();
}

// A listening socket of the test's own, on a free port of 127.0.0.1.
class held_port {
 public:
  held_port() : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (bind(fd_, reinterpret_cast<const sockaddr*>(&addr), sizeof addr) == 0 &&
        listen(fd_, 1) == 0 && getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      port_ = ntohs(addr.sin_port);
    }
  }
  held_port(const held_port&) = delete;
  held_port& operator=(const held_port&) = delete;
  ~held_port() { close(fd_); }
  [[nodiscard]] int port() const { return port_; }

 private:
  int fd_;
  int port_ = 0;
};

TEST(metrics_binary, ABadAddressIsRefusedBeforeAnyWork) {
  const tpcc::testing::temp_dir dir("shoal-tpcc-metrics");
  const std::string db_file = dir.file("never.db");
  const held_port taken;
  ASSERT_NE(taken.port(), 0) << "the test could not listen on a port of its own";
  const std::string busy = "127.0.0.1:" + std::to_string(taken.port());
  binary_result r = run_binary({"run", "--db", "sqlite:" + db_file, "--metrics-addr", busy});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--metrics-addr " + busy + ": ")) << r.err;
  EXPECT_TRUE(contains(r.err, "in use")) << r.err;
  EXPECT_FALSE(std::filesystem::exists(db_file)) << "work started before the address was bound";

  for (const char* wrong : {"9100", "127.0.0.1:65536", "example.org:9100"}) {
    r = run_binary({"run", "--db", "sqlite:" + db_file, "--metrics-addr", wrong});
    EXPECT_EQ(r.exit_code, 2) << wrong << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, "--metrics-addr expects HOST:PORT")) << r.err;
  }
  r = run_binary({"load", "--db", "sqlite:" + db_file, "--metrics-addr", "127.0.0.1:0"});
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_TRUE(contains(r.err, "--metrics-addr does not apply to `shoal-tpcc load`")) << r.err;
}

}  // namespace
