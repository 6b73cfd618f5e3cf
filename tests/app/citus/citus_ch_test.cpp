// SPDX-License-Identifier: Apache-2.0
// CH-benCHmark on a three-node Citus cluster (citus_cluster.hpp): the 22 queries, with the
// setup the analytic streams probe for (ch/citus_joins.hpp: repartition joins on), return the
// same rows as on SQLite from the same data (tests/app/ch/ch_cross_db.hpp), the CH and TPC-C
// tables placed by init's Citus calls. Label "citus" only, like the rest of tests/app/citus.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "ch_cross_db.hpp"
#include "citus_cluster.hpp"

namespace {

using tpcc::testing::citus_cluster;

TEST(citus_ch, AnswersEveryQueryAsSQLiteDoesOnTheSameData) {
  const std::string why = citus_cluster::unavailable_reason();
  if (!why.empty()) GTEST_SKIP() << why;
  std::unique_ptr<citus_cluster> cluster;
  try {
    cluster = std::make_unique<citus_cluster>();
  } catch (const std::exception& e) {
    GTEST_SKIP() << "cannot start a Citus cluster: " << e.what();
  }
  tpcc::testing::loader_scratch scratch;
  const auto sqlite = scratch.run(tpcc::testing::sqlite_cross_db_answers(scratch.sqlite_target()));
  const auto citus = scratch.run(
      tpcc::testing::server_cross_db_answers(cluster->target(), tpcc::driver::engine::postgres));
  tpcc::testing::expect_same_answers(sqlite, citus, "Citus");
  // The tables the queries joined were Citus's: ORDER_LINE and STOCK hash-distributed, the
  // three CH tables reference tables.
  EXPECT_EQ(cluster->coordinator().sql("SELECT count(*) FROM pg_dist_partition WHERE logicalrelid "
                                       "IN ('order_line'::regclass, 'stock'::regclass) AND "
                                       "partmethod = 'h'"),
            "2\n");
  EXPECT_EQ(cluster->coordinator().sql("SELECT count(*) FROM pg_dist_partition WHERE logicalrelid "
                                       "IN ('supplier'::regclass, 'nation'::regclass, "
                                       "'region'::regclass) AND partmethod = 'n'"),
            "3\n");
}

}  // namespace
