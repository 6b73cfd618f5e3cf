// SPDX-License-Identifier: Apache-2.0
// CH-benCHmark's analytic streams (run/analytic.hpp) on a throwaway MariaDB: a stream ended while
// its query runs (a test-only statement that sleeps for ten minutes) is ended by KILL QUERY on a
// connection of its own, not by the hard stop: the query is counted cancelled, the server runs
// it no more, and the stream's connection is kept. One server for the program.
#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "loader_support.hpp"
#include "run/analytic.hpp"
#include "support/running_pool.hpp"
#include "testing/mariadb_server.hpp"
#include "testing/required_in_ci.hpp"

namespace {

using namespace std::chrono_literals;
using shoal::task;
using tpcc::testing::mariadb_server;

template <class T>
T on_maria_workers(shoal::thread_pool& pool, task<T> body) {
  return shoal::sync_wait([](shoal::thread_pool& p, task<T> b) -> task<T> {
    co_await p.schedule();
    co_return co_await std::move(b);
  }(pool, std::move(body)));
}

// The sleeping statement, seen by the server as running.
bool maria_sleeping(const mariadb_server& server) {
  return server.sql("SELECT count(*) FROM information_schema.processlist WHERE info LIKE "
                    "'SELECT SLEEP(600)%'") == "1\n";
}

const tpcc::driver::statement maria_slow{"ch_test_sleep", "SELECT SLEEP(600)"};

TEST(ch_streams_mariadb, AStreamEndedMidQueryIsKilledByTheServerAndCountedCancelled) {
  if (!mariadb_server::available()) {
    tpcc::testing::require_in_ci("MariaDB's server binaries");
    GTEST_SKIP() << "MariaDB server binaries not found: skipping";
  }
  const std::unique_ptr<mariadb_server> server = mariadb_server::start_one();
  shoal::testing::running_pool workers(2);
  auto stream_db = on_maria_workers(workers.pool, tpcc::testing::opened(server->uri(), 1));
  tpcc::run::analytic_plan plan;
  plan.databases = {stream_db.get()};
  plan.dialect = tpcc::driver::engine::mysql;
  plan.window_start = tpcc::stats::clock::now();
  plan.window_end = plan.window_start + 1h;
  plan.only = &maria_slow;
  plan.grace = 10min;  // only KILL QUERY can end it within the test's time limit
  tpcc::run::analytic_streams streams(workers.pool, std::move(plan));
  streams.start();
  // No event tells the client that the server has started the statement: ask the server (on
  // this thread, not a worker's).
  for (int i = 0; i < 3000 && !maria_sleeping(*server); ++i) std::this_thread::sleep_for(10ms);
  EXPECT_TRUE(maria_sleeping(*server));  // stopped all the same, so that nothing outlives the test
  on_maria_workers(workers.pool, streams.stop());
  EXPECT_EQ(streams.hard_stopped(), 0u);  // KILL QUERY ended it, not the stop token
  const tpcc::run::ch_totals t = streams.take();
  EXPECT_EQ(t.queries[0].cancelled, 1u);  // stream 0 starts at Q1
  EXPECT_EQ(t.cancelled(), 1u);
  EXPECT_EQ(t.failed(), 0u);
  EXPECT_EQ(t.completed(), 0u);
  EXPECT_EQ(stream_db->stats().replaced, 0u);  // the connection was kept
  EXPECT_FALSE(maria_sleeping(*server));       // the server no longer runs it
  on_maria_workers(workers.pool, stream_db->close());
}

}  // namespace
