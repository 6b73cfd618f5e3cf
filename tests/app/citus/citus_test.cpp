// SPDX-License-Identifier: Apache-2.0
// tests/app/citus/citus_test.cpp: shoal-tpcc against a three-node Citus cluster, as a user runs
// it: init (distribution, co-location, reference tables), load, a short run where every
// transaction type commits, check; a run with every node as an endpoint (the --db list init
// prints), each committing; and a worker stopped mid-run, counted as lost and survived.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <variant>
#include <vector>

#include "binary.hpp"
#include "citus_cluster.hpp"
#include "driver/database.hpp"
#include "driver/postgres/postgres.hpp"
#include "support/running_pool.hpp"

namespace {

using namespace std::chrono_literals;
using nlohmann::json;
using tpcc::driver::outcome;
using tpcc::driver::outcome_kind;
using tpcc::driver::statement;
using tpcc::driver::statement_result;
using tpcc::testing::binary_result;
using tpcc::testing::citus_cluster;
using tpcc::testing::contains;
using tpcc::testing::describe;
using tpcc::testing::run_binary;

constexpr std::size_t transaction_types = 5;

// A result file in a temporary directory, removed at the end.
struct result_file {
  std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("shoal-tpcc-citus-" + std::to_string(::getpid()) + "-" +
       std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) + ".json");
  result_file() = default;
  result_file(const result_file&) = delete;
  result_file& operator=(const result_file&) = delete;
  ~result_file() { std::filesystem::remove(path); }
  [[nodiscard]] json read() const {
    std::ifstream in(path);
    return json::parse(in);
  }
};

// A run with scaled waits (labelled NOT TPC-C), its result written to `file`.
std::vector<std::string> short_run(const std::string& db, const std::string& measure,
                                   const std::string& file) {
  return {"run",   "--db",          db,         "--warmup",     "2s",   "--duration",
          measure, "--drain",       "10s",      "--wait-scale", "0.01", "--seed",
          "42",    "--no-progress", "--no-tui", "--json",       file};
}

class citus_test : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string why = citus_cluster::unavailable_reason();
    if (!why.empty()) GTEST_SKIP() << why;
    try {
      cluster_ = std::make_unique<citus_cluster>();
    } catch (const std::exception& e) {
      GTEST_SKIP() << "cannot start a Citus cluster (CREATE EXTENSION citus or a node failed): "
                   << e.what();
    }
  }

  // init (asserting what it distributed) and load of `warehouses`; init's output.
  std::string init_and_load(const std::string& warehouses = "2") {
    binary_result r = run_binary({"init", "--db", db()});
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    EXPECT_TRUE(contains(r.out, "on Citus")) << r.out;
    // Citus 11+ syncs the workers' metadata when they are added: each takes queries.
    EXPECT_TRUE(contains(r.out, "every node takes queries (the coordinator and 2 workers"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "reference tables made: item, tpcc_meta, tpcc_loaded")) << r.out;
    EXPECT_TRUE(contains(r.out,
                         "warehouse, district, customer, history, orders, new_order, "
                         "order_line, stock"))
        << r.out;
    // Eight tables hash-distributed in one co-location group, three reference tables.
    EXPECT_EQ(cluster_->coordinator().sql(
                  "SELECT count(*) || ' ' || count(DISTINCT colocationid) FROM pg_dist_partition "
                  "WHERE partmethod = 'h'"),
              "8 1\n");
    EXPECT_EQ(cluster_->coordinator().sql(
                  "SELECT count(*) FROM pg_dist_partition WHERE partmethod = 'n'"),
              "3\n");
    const std::string init_out = r.out;
    r = run_binary({"load", "--db", db(), "--warehouses", warehouses, "--no-progress"}, 600s);
    EXPECT_EQ(r.exit_code, 0) << describe(r);
    return init_out;
  }

  [[nodiscard]] std::string db() const { return cluster_->target(); }

  std::unique_ptr<citus_cluster> cluster_;
};

std::uint64_t count_of(const json& doc, std::size_t kind, const char* field) {
  return doc["transactions"][kind][field].get<std::uint64_t>();
}

// Prints the figures of a run (for the closing note of the work that added this test).
void print_figures(const char* what, const json& doc) {
  std::cout << "[citus] " << what << ": tpmC " << doc["tpmc"] << "\n";
  for (std::size_t k = 0; k < transaction_types; ++k) {
    const json& t = doc["transactions"][k];
    std::cout << "[citus]   " << t["type"].get<std::string>() << ": committed " << t["committed"]
              << ", rolled back " << t["rolled_back"] << ", failed " << t["failed"] << ", lost "
              << t["lost"] << ", retries " << t["retries"] << "\n";
  }
}

// The distinct ERROR lines of a server log, each once with its SQLSTATE; digits in the message
// (ports, shard ids, socket names) masked so that one kind of error prints once.
void print_errors(const std::string& log) {
  std::set<std::string> seen;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    const std::size_t at = line.find("] ");
    if (line.find(" ERROR: ") == std::string::npos || at == std::string::npos) continue;
    std::string text = line.substr(at + 2);  // "SQLSTATE ERROR:  message"
    for (std::size_t i = 6; i < text.size(); ++i) {
      if (text[i] >= '0' && text[i] <= '9') text[i] = '#';
    }
    if (seen.insert(text).second) std::cout << "[citus] coordinator log: " << text << "\n";
  }
}

// Connections shoal-tpcc opened to a server so far (log_connections).
std::size_t client_connections(const std::string& log) {
  std::size_t n = 0;
  std::istringstream lines(log);
  for (std::string line; std::getline(lines, line);) {
    if (contains(line, "connection authorized") && contains(line, "application_name=shoal-tpcc")) {
      ++n;
    }
  }
  return n;
}

TEST_F(citus_test, InitLoadRunAndCheckCommitEveryTransactionType) {
  init_and_load();
  result_file out;
  binary_result r = run_binary(short_run(db(), "10s", out.path.string()), 300s);
  ASSERT_FALSE(r.timed_out) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);  // nothing failed: PASS or INCONCLUSIVE
  EXPECT_FALSE(contains(r.err, "error (first of its kind)")) << r.err;
  ASSERT_TRUE(std::filesystem::exists(out.path)) << describe(r);
  const json doc = out.read();
  print_figures("short run", doc);
  for (std::size_t k = 0; k < transaction_types; ++k) {
    SCOPED_TRACE(doc["transactions"][k]["type"].get<std::string>());
    EXPECT_GT(count_of(doc, k, "committed"), 0U);
    EXPECT_EQ(count_of(doc, k, "failed"), 0U) << describe(r);
    EXPECT_EQ(count_of(doc, k, "lost"), 0U) << describe(r);
  }
  r = run_binary({"check", "--db", db()}, 600s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
}

// The --db values of init's line "init: every node as an endpoint of `run`: --db '...' ...",
// each shell word unquoted ('\'' is a quote); empty when the line is missing.
std::vector<std::string> printed_endpoints(const std::string& init_out) {
  constexpr std::string_view head = "init: every node as an endpoint of `run`:";
  const std::size_t at = init_out.find(head);
  if (at == std::string::npos) return {};
  const std::string line = init_out.substr(at, init_out.find('\n', at) - at);
  std::vector<std::string> out;
  for (std::size_t p = line.find(" --db '"); p != std::string::npos; p = line.find(" --db '", p)) {
    std::string word;
    for (p += 7; p < line.size(); ++p) {
      if (line.compare(p, 4, "'\\''") == 0) {
        word += '\'';
        p += 3;
      } else if (line[p] == '\'') {
        break;
      } else {
        word += line[p];
      }
    }
    out.push_back(word);
  }
  return out;
}

// How the nodes' load compares: each endpoint's figures over the measurement interval.
void print_endpoints(const json& doc) {
  for (const json& e : doc["endpoints"]) {
    const json& no = e["transactions"][0];
    std::cout << "[citus] endpoint " << e["target"].get<std::string>() << ": warehouses "
              << e["first_warehouse"] << "-" << e["last_warehouse"] << ", tpmC " << e["tpmc"]
              << ", completed " << e["completed"] << ", failed " << e["failed"]
              << ", New-Order p90 " << no["response"]["p90_us"] << " us\n";
  }
}

TEST_F(citus_test, EveryNodeAsAnEndpointCommitsOnEachAndCheckPasses) {
  const std::string said = init_and_load("3");  // a warehouse per endpoint
  if (HasFailure()) return;
  const std::vector<std::string> endpoints = printed_endpoints(said);
  ASSERT_EQ(endpoints.size(), 3U) << "init printed no endpoint per node:\n" << said;
  EXPECT_EQ(endpoints[0], db()) << "the coordinator's endpoint is the --db init was given";
  result_file out;
  std::vector<std::string> args = short_run(db(), "10s", out.path.string());
  for (std::size_t k = 1; k < endpoints.size(); ++k)
    args.insert(args.end(), {"--db", endpoints[k]});
  const binary_result r = run_binary(args, 300s);
  ASSERT_FALSE(r.timed_out) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  ASSERT_TRUE(std::filesystem::exists(out.path)) << describe(r);
  const json doc = out.read();
  print_figures("every node an endpoint", doc);
  print_endpoints(doc);
  ASSERT_EQ(doc["endpoints"].size(), 3U) << doc["endpoints"].dump();
  for (std::size_t k = 0; k < endpoints.size(); ++k) {
    const json& e = doc["endpoints"][k];
    SCOPED_TRACE(e["target"].get<std::string>());
    EXPECT_EQ(e["first_warehouse"], k + 1);
    std::uint64_t committed = 0;
    for (const json& t : e["transactions"]) committed += t["committed"].get<std::uint64_t>();
    EXPECT_GT(committed, 0U) << "no transaction committed through this node";
    EXPECT_EQ(e["failed"], 0U);
    EXPECT_EQ(e["lost"], 0U);
  }
  const binary_result checked = run_binary({"check", "--db", db()}, 600s);
  EXPECT_EQ(checked.exit_code, 0) << describe(checked);
}

// CH-benCHmark's analytic stream as users run it on Citus: init --ch and load --ch, then one
// stream alone (--terminals 0) for long enough to pass through the 22 queries: each completes,
// none fails (Q7-Q9, Q15 and Q20 need repartition joins, which the stream turns on itself:
// ch/citus_joins.hpp; the rows are held to SQLite's by citus_ch_test.cpp).
TEST_F(citus_test, AnAnalyticStreamCompletesEveryQueryWithoutAFailure) {
  binary_result r = run_binary({"init", "--ch", "--db", db()});
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  r = run_binary({"load", "--ch", "--db", db(), "--warehouses", "1", "--no-progress"}, 600s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  result_file out;
  r = run_binary(
      {"run", "--db", db(), "--terminals", "0", "--analytic-streams", "1", "--warmup", "0s",
       "--duration", "60s", "--no-progress", "--no-tui", "--json", out.path.string()},
      300s);
  ASSERT_FALSE(r.timed_out) << describe(r);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  ASSERT_TRUE(std::filesystem::exists(out.path)) << describe(r);
  const json ch = out.read()["ch"];
  ASSERT_EQ(ch["queries"].size(), 22U) << ch.dump(1);
  for (const json& q : ch["queries"]) {
    EXPECT_GE(q["completed"].get<std::uint64_t>(), 1U) << q.dump();
    EXPECT_EQ(q["failed"], 0U) << q.dump();
  }
  std::cout << "[citus] one analytic stream, 1 warehouse, 60 s: " << ch["completed"] << " queries, "
            << ch["queries_per_hour"] << " per hour\n";
}

TEST_F(citus_test, AWorkerStoppedMidRunIsCountedAsLostAndTheRunSurvives) {
  init_and_load();
  result_file out;
  // 2 s warm-up, 24 s measured; worker 0 is down from about 8 s to about 14 s.
  const std::size_t connected_before = client_connections(cluster_->coordinator().log());
  auto running = std::async(std::launch::async, [&] {
    std::vector<std::string> args = short_run(db(), "24s", out.path.string());
    args.insert(args.end(), {"--connections", "8"});
    return run_binary(args, 300s);
  });
  std::this_thread::sleep_for(8s);
  cluster_->worker(0).stop_now();
  std::this_thread::sleep_for(6s);
  cluster_->worker(0).start();
  const binary_result r = running.get();
  ASSERT_FALSE(r.timed_out) << describe(r);
  // Lost transactions beyond 1 % of a type fail the verdict: exit status 3, said on stderr.
  EXPECT_EQ(r.exit_code, 3) << describe(r);
  EXPECT_TRUE(contains(r.err, "node lost, SQLSTATE 08006")) << r.err;
  EXPECT_TRUE(contains(r.err, "the database reported a lost node")) << r.err;
  EXPECT_TRUE(contains(r.out, "FAIL          lost transactions")) << r.out;
  ASSERT_TRUE(std::filesystem::exists(out.path)) << describe(r);
  const json doc = out.read();
  print_figures("worker 0 stopped for 6 s", doc);
  std::uint64_t lost = 0;
  std::uint64_t committed = 0;
  for (std::size_t k = 0; k < transaction_types; ++k) {
    lost += count_of(doc, k, "lost");
    committed += count_of(doc, k, "committed");
  }
  EXPECT_GT(lost, 0U) << "the transactions that needed the stopped worker";
  EXPECT_GT(committed, 0U);
  std::cout << "[citus] stderr of the run:\n" << r.err << "\n";
  print_errors(cluster_->coordinator().log());
  // node_lost keeps the client's connections: the run opened its pool's 8, the server
  // figures' own one (server_stats/collector.cpp), and no replacement.
  const std::size_t opened = client_connections(cluster_->coordinator().log()) - connected_before;
  std::cout << "[citus] connections the run opened: " << opened << "\n";
  EXPECT_EQ(opened, 8U + 1U) << "the pool churned connections after a worker was lost";
  // The cluster is whole again: the client and the data survived.
  const binary_result checked = run_binary({"check", "--db", db()}, 600s);
  EXPECT_EQ(checked.exit_code, 0) << describe(checked);
}

// ---- the driver's view of a stopped worker ----

constexpr statement bump{"citus_bump", "UPDATE kv SET v = v + 1 WHERE k = $1"};
constexpr std::int64_t keys = 16;

std::vector<tpcc::driver::call> bump_every_key() {
  std::vector<tpcc::driver::call> calls(keys);
  for (std::int64_t k = 0; k < keys; ++k) {
    calls[static_cast<std::size_t>(k)].stmt = &bump;
    calls[static_cast<std::size_t>(k)].params.emplace_back(k + 1);
  }
  return calls;
}

// One transaction updating every key (so both workers); the first failure, or ok.
shoal::task<outcome> bump_all(tpcc::driver::session& s) {
  const outcome began = co_await s.begin();
  if (!began.ok()) co_return began;
  const std::vector<tpcc::driver::call> calls = bump_every_key();
  const std::vector<statement_result> got =
      co_await s.execute_batch(calls, tpcc::driver::then::commit);
  for (const statement_result& r : got) {
    if (!r.ok()) {
      const outcome why = r.status;
      if (why.kind != outcome_kind::connection_lost) co_await s.rollback();
      co_return why;
    }
  }
  co_return outcome::success();
}

struct loss_seen {
  outcome while_down;
  bool healthy_after = false;
  outcome after_restart;
};

shoal::task<loss_seen> lose_a_worker(shoal::thread_pool& threads, citus_cluster& cluster) {
  co_await threads.schedule();
  loss_seen seen;
  tpcc::driver::open_result opened =
      co_await tpcc::driver::postgres::open({.target = cluster.target(), .connections = 1});
  auto* db = std::get_if<std::unique_ptr<tpcc::driver::database>>(&opened);
  if (db == nullptr) {
    seen.while_down = std::get<outcome>(opened);
    co_return seen;
  }
  {
    tpcc::driver::lease l = co_await (*db)->acquire();
    const outcome before = co_await bump_all(*l);
    EXPECT_TRUE(before.ok()) << before.message;
    cluster.worker(0).stop_now();
    seen.while_down = co_await bump_all(*l);
    seen.healthy_after = l->healthy();
    cluster.worker(0).start();
    seen.after_restart = co_await bump_all(*l);
  }
  co_await (*db)->close();
  co_return seen;
}

TEST_F(citus_test, AStoppedWorkerIsANodeLostErrorAndTheClientConnectionStaysUsable) {
  cluster_->coordinator().sql(
      "CREATE TABLE kv (k int PRIMARY KEY, v int NOT NULL); "
      "SELECT create_distributed_table('kv', 'k'); "
      "INSERT INTO kv SELECT g, 0 FROM generate_series(1, " +
      std::to_string(keys) + ") g");
  shoal::testing::running_pool threads(2);
  const loss_seen seen = shoal::sync_wait(lose_a_worker(threads.pool, *cluster_));
  std::cout << "[citus] a stopped worker, as the coordinator reports it: SQLSTATE "
            << seen.while_down.sqlstate << ", " << seen.while_down.message << "\n";
  EXPECT_EQ(seen.while_down.kind, outcome_kind::node_lost)
      << to_string(seen.while_down.kind) << ": " << seen.while_down.message;
  EXPECT_TRUE(seen.while_down.message.starts_with("the database reported a lost node: "))
      << seen.while_down.message;
  EXPECT_TRUE(seen.healthy_after) << "the client's own connection survives a lost worker";
  EXPECT_TRUE(seen.after_restart.ok()) << seen.after_restart.message;
  EXPECT_EQ(cluster_->coordinator().sql("SELECT sum(v) FROM kv"), std::to_string(2 * keys) + "\n")
      << "the two committed transactions, not the one that failed";
}

}  // namespace
