// SPDX-License-Identifier: Apache-2.0
// CH-benCHmark's analytic streams (run/analytic.hpp) on a throwaway MariaDB: a stream ended while
// its query runs (a test-only statement that sleeps for ten minutes) is ended by KILL QUERY on a
// connection of its own, not by the hard stop: the query is counted cancelled, the server runs
// it no more, and the stream's connection is kept. One server for the program.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "ch_streams_support.hpp"
#include "support/running_pool.hpp"
#include "testing/mariadb_server.hpp"
#include "testing/required_in_ci.hpp"

namespace {

using tpcc::testing::mariadb_server;

// The sleeping statement, seen by the server as running.
bool maria_sleeping(const mariadb_server& server) {
  return server.sql(
             "SELECT count(*) FROM information_schema.processlist WHERE info LIKE "
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
  tpcc::testing::expect_server_cancels(workers.pool, server->uri(), tpcc::driver::engine::mysql,
                                       maria_slow, [&server] { return maria_sleeping(*server); });
}

}  // namespace
