// SPDX-License-Identifier: Apache-2.0
// CH-benCHmark on a throwaway PostgreSQL (app/tpcc/testing/postgres_server.hpp): init --ch and
// load --ch (idempotent), then the 22 queries return the same rows as on SQLite from the same
// data (ch_cross_db.hpp). One server for the program.
#include <gtest/gtest.h>

#include <memory>

#include "ch_cross_db.hpp"
#include "testing/postgres_server.hpp"
#include "testing/required_in_ci.hpp"

namespace {

using tpcc::testing::postgres_server;

TEST(ch_postgres, AnswersEveryQueryAsSQLiteDoesOnTheSameData) {
  if (!postgres_server::available()) {
    tpcc::testing::require_in_ci("PostgreSQL's server binaries");
    GTEST_SKIP() << "PostgreSQL server binaries not found: skipping";
  }
  const postgres_server server;
  tpcc::testing::loader_scratch scratch;
  const auto sqlite = scratch.run(tpcc::testing::sqlite_cross_db_answers(scratch.sqlite_target()));
  const auto postgres = scratch.run(
      tpcc::testing::server_cross_db_answers(server.conninfo(), tpcc::driver::engine::postgres));
  tpcc::testing::expect_same_answers(sqlite, postgres, "PostgreSQL");
  EXPECT_EQ(server.sql("SELECT count(*) FROM supplier"), "10000\n");
}

}  // namespace
