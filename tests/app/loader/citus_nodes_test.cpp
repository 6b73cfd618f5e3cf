// SPDX-License-Identifier: Apache-2.0
// tests/app/loader/citus_nodes_test.cpp: what init says of a Citus cluster's nodes
// (schema::nodes_summary): every node takes queries, some workers do not, or unknown; and each
// node as a ready-to-use --db (schema::endpoints_lines, driver::node_target).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "driver/node_target.hpp"
#include "schema/apply.hpp"
#include "schema/citus_nodes.hpp"

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

// ---- each node as a --db endpoint (schema/citus_nodes.hpp, driver/node_target.hpp) ----

namespace {

using tpcc::driver::node_target;
using tpcc::schema::citus_node;
using tpcc::schema::endpoints_lines;

citus_node worker_node(std::string name, std::int64_t port, bool synced) {
  citus_node n;
  n.name = std::move(name);
  n.port = port;
  n.active = true;
  n.has_metadata = n.metadata_synced = synced;
  return n;
}

citus_node coordinator_node(std::string name, std::int64_t port) {
  citus_node n = worker_node(std::move(name), port, false);
  n.coordinator = true;
  return n;
}

TEST(citus_node_target, KeepsEverySettingButTheServer) {
  const std::string made = node_target(
      "postgresql://tpcc:pw@coord:6000/bench?sslmode=disable&hostaddr=10.0.0.1", "worker-1", 5432);
  EXPECT_TRUE(made.starts_with("host=worker-1 port=5432 ")) << made;
  EXPECT_NE(made.find("user=tpcc"), std::string::npos) << made;
  EXPECT_NE(made.find("password=pw"), std::string::npos) << made;
  EXPECT_NE(made.find("dbname=bench"), std::string::npos) << made;
  EXPECT_NE(made.find("sslmode=disable"), std::string::npos) << made;
  EXPECT_EQ(made.find("coord"), std::string::npos) << made;
  EXPECT_EQ(made.find("hostaddr"), std::string::npos) << made;
  EXPECT_EQ(made.find("6000"), std::string::npos) << made;
}

TEST(citus_node_target, QuotesWhatASpaceOrAQuoteWouldBreak) {
  EXPECT_EQ(node_target("host=c dbname='my db' application_name='it\\'s'", "/tmp/w 1", 7),
            "host='/tmp/w 1' port=7 dbname='my db' application_name='it\\'s'");
}

TEST(citus_node_target, IsEmptyForATargetLibpqCannotRead) {
  EXPECT_EQ(node_target("host=c dbname", "w", 5432), "");
}

TEST(citus_endpoints, EveryNodeIsAReadyToUseDb) {
  const std::vector<citus_node> nodes{coordinator_node("coord", 5432),
                                      worker_node("w1", 5433, true), worker_node("w2", 5434, true)};
  EXPECT_EQ(endpoints_lines(nodes, "postgresql://tpcc@coord/tpcc"),
            "init: every node as an endpoint of `run`: --db 'postgresql://tpcc@coord/tpcc' --db "
            "'host=w1 port=5433 user=tpcc dbname=tpcc' --db 'host=w2 port=5434 user=tpcc "
            "dbname=tpcc'\n");
}

TEST(citus_endpoints, TheCoordinatorIsListedWithoutItsOwnRow) {
  EXPECT_EQ(endpoints_lines({worker_node("w1", 5433, true)}, "host=coord dbname=tpcc"),
            "init: every node as an endpoint of `run`: --db 'host=coord dbname=tpcc' --db "
            "'host=w1 port=5433 dbname=tpcc'\n");
}

TEST(citus_endpoints, AWorkerWithoutMetadataIsNamedWithWhyAndTheFix) {
  citus_node inactive = worker_node("w3", 5435, true);
  inactive.active = false;
  const std::string said = endpoints_lines(
      {worker_node("w1", 5433, true), worker_node("w2", 5434, false), inactive}, "host=c");
  EXPECT_EQ(said,
            "init: 2 of 4 nodes as endpoints of `run`: --db 'host=c' --db 'host=w1 port=5433'\n"
            "init: worker w2:5434 takes no queries: no metadata (Citus before 11, or added "
            "without it: SELECT start_metadata_sync_to_node('w2', 5434) on the coordinator)\n"
            "init: worker w3:5435 takes no queries: inactive (SELECT citus_activate_node('w3', "
            "5435) on the coordinator)\n");
}

TEST(citus_endpoints, APasswordIsHiddenAndAQuoteShellEscaped) {
  const std::string said = endpoints_lines({worker_node("w1", 5433, true)},
                                           "host=c password=s3cret application_name=o'k");
  EXPECT_EQ(said.find("s3cret"), std::string::npos) << said;
  EXPECT_NE(said.find("password=***"), std::string::npos) << said;
  EXPECT_NE(said.find("application_name=o'\\''k"), std::string::npos) << said;
}

TEST(citus_endpoints, NothingIsPrintedWithoutANodeList) {
  EXPECT_EQ(endpoints_lines({}, "host=c"), "");
}

}  // namespace
