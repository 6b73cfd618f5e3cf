// SPDX-License-Identifier: Apache-2.0
// CH-benCHmark on a throwaway MariaDB (app/tpcc/testing/mariadb_server.hpp): init --ch and
// load --ch (idempotent), then the 22 queries, in their MySQL/MariaDB forms, return the same rows
// as on SQLite from the same data (ch_cross_db.hpp). One server for the program.
#include <gtest/gtest.h>

#include <memory>

#include "ch_cross_db.hpp"
#include "testing/mariadb_server.hpp"
#include "testing/required_in_ci.hpp"

namespace {

using tpcc::testing::mariadb_server;

TEST(ch_mariadb, AnswersEveryQueryAsSQLiteDoesOnTheSameData) {
  if (!mariadb_server::available()) {
    tpcc::testing::require_in_ci("MariaDB's server binaries");
    GTEST_SKIP() << "MariaDB server binaries not found: skipping";
  }
  const std::unique_ptr<mariadb_server> server = mariadb_server::start_one();
  tpcc::testing::loader_scratch scratch;
  const auto sqlite = scratch.run(tpcc::testing::sqlite_cross_db_answers(scratch.sqlite_target()));
  const auto mariadb = scratch.run(
      tpcc::testing::server_cross_db_answers(server->uri(), tpcc::driver::engine::mysql));
  tpcc::testing::expect_same_answers(sqlite, mariadb, "MariaDB");
  EXPECT_EQ(server->sql("SELECT count(*) FROM supplier"), "10000\n");
}

}  // namespace
