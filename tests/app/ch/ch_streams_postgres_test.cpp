// SPDX-License-Identifier: Apache-2.0
// CH-benCHmark's analytic streams (run/analytic.hpp) on a throwaway PostgreSQL: one pass of a
// stream completes each of the 22 queries once on the small database of ch_cross_db.hpp, and a
// stream ended while its query runs (a test-only statement that sleeps for ten minutes) is
// ended by PostgreSQL's cancel request, not by the hard stop: the query is counted cancelled,
// the server runs it no more, and the connection is kept. One server for the program.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>

#include "ch_cross_db.hpp"
#include "ch_streams_support.hpp"
#include "run/analytic.hpp"
#include "support/running_pool.hpp"
#include "testing/postgres_server.hpp"
#include "testing/required_in_ci.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using tpcc::testing::postgres_server;

// The program's server, started by the first test that needs it.
const postgres_server* streams_server() {
  if (!postgres_server::available()) {
    tpcc::testing::require_in_ci("PostgreSQL's server binaries");
    return nullptr;
  }
  static const postgres_server server;
  return &server;
}

tpcc::run::analytic_plan plan_on(tpcc::driver::database& db) {
  tpcc::run::analytic_plan plan;
  plan.databases = {&db};
  plan.dialect = tpcc::driver::engine::postgres;
  const auto now = tpcc::stats::clock::now();
  plan.window_start = now - 1h;
  plan.window_end = now + 1h;
  return plan;
}

// One pass of one stream on the small database; its totals.
task<tpcc::run::ch_totals> one_pass(shoal::thread_pool& pool, std::string target) {
  auto setup = co_await tpcc::testing::opened(target, 1);
  co_await tpcc::testing::create_ch_everything(*setup);  // the small database of ch_cross_db.hpp
  const auto loaded = co_await tpcc::loader::load_ch(*setup, tpcc::testing::cross_db_ch_seed);
  EXPECT_TRUE(loaded.status.ok()) << loaded.status.message;
  co_await tpcc::testing::cross_db_dataset().write_all(*setup);
  co_await setup->close();
  auto stream_db = co_await tpcc::testing::opened(target, 1);
  tpcc::run::analytic_plan plan = plan_on(*stream_db);
  plan.passes = 1;
  tpcc::run::analytic_streams streams(pool, std::move(plan));
  streams.start();
  co_await streams.join();
  co_await stream_db->close();
  co_return streams.take();
}

TEST(ch_streams_postgres, OnePassOfAStreamCompletesEachQueryOnceWithItsRows) {
  const postgres_server* server = streams_server();
  if (server == nullptr) GTEST_SKIP() << "PostgreSQL server binaries not found: skipping";
  shoal::testing::running_pool workers(2);
  const tpcc::run::ch_totals t =
      tpcc::testing::on_stream_workers(workers.pool, one_pass(workers.pool, server->conninfo()));
  EXPECT_EQ(t.streams, 1);
  EXPECT_EQ(t.completed(), 22u);
  EXPECT_EQ(t.failed(), 0u);
  EXPECT_EQ(t.cancelled(), 0u);
  for (std::size_t i = 0; i < t.queries.size(); ++i) {
    EXPECT_EQ(t.queries[i].completed, 1u) << "Q" << i + 1;
    EXPECT_EQ(t.queries[i].latency.count(), 1u) << "Q" << i + 1;
    EXPECT_GT(t.queries[i].last_rows, 0) << "Q" << i + 1;  // every query meets rows here
  }
  EXPECT_DOUBLE_EQ(t.queries_per_hour(3600.0), 22.0);
}

// The sleeping statement, seen by the server as running.
bool sleeping_on(const postgres_server& server) {
  return server.sql(
             "SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query "
             "LIKE 'SELECT pg_sleep(600)%'") == "1\n";
}

const tpcc::driver::statement slow_statement{"ch_test_sleep", "SELECT pg_sleep(600)"};

TEST(ch_streams_postgres, AStreamEndedMidQueryIsCancelledByTheServerAndCountedCancelled) {
  const postgres_server* server = streams_server();
  if (server == nullptr) GTEST_SKIP() << "PostgreSQL server binaries not found: skipping";
  shoal::testing::running_pool workers(2);
  tpcc::testing::expect_server_cancels(workers.pool, server->conninfo(),
                                       tpcc::driver::engine::postgres, slow_statement,
                                       [server] { return sleeping_on(*server); });
}

}  // namespace
