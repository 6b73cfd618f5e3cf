// SPDX-License-Identifier: Apache-2.0
// tests/app/loader/citus_nodes_test.cpp: what init says of a Citus cluster's nodes
// (schema::nodes_summary): every node takes queries, some workers do not, or unknown.
#include <gtest/gtest.h>

#include <string>

#include "schema/apply.hpp"

namespace {

using tpcc::schema::init_report;
using tpcc::schema::nodes_summary;

init_report with_workers(std::int64_t workers, std::int64_t without_metadata) {
  init_report r;
  r.workers = workers;
  r.workers_without_metadata = without_metadata;
  return r;
}

TEST(citus_nodes, EveryNodeWithMetadataTakesQueries) {
  EXPECT_EQ(nodes_summary(with_workers(2, 0)),
            "; every node takes queries (the coordinator and 2 workers with metadata): `run` may "
            "take each as a --db (docs/tpcc/endpoints.md)");
}

TEST(citus_nodes, WorkersWithoutMetadataAreCounted) {
  const std::string said = nodes_summary(with_workers(3, 1));
  EXPECT_EQ(said.rfind("; 1 of 3 workers have no synced metadata and take no queries", 0), 0U)
      << said;
}

TEST(citus_nodes, NothingIsSaidWhenTheCatalogDidNotSay) {
  EXPECT_EQ(nodes_summary(init_report()), "");
  EXPECT_EQ(nodes_summary(with_workers(0, 0)), "; no worker: the coordinator holds every shard");
}

}  // namespace
