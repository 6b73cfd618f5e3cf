// SPDX-License-Identifier: Apache-2.0
// A Citus cluster's nodes as endpoints (citus_nodes.hpp).
#include "schema/citus_nodes.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "driver/node_target.hpp"
#include "driver/open.hpp"
#include "driver/statement.hpp"

namespace tpcc::schema {
namespace {

// Booleans as integers: the driver reads int4 as integers and bool as text.
constexpr driver::statement list_nodes{
    "tpcc_citus_nodes",
    "SELECT nodename, nodeport, (groupid = 0)::int, isactive::int, hasmetadata::int, "
    "metadatasynced::int FROM pg_dist_node WHERE noderole = 'primary' ORDER BY groupid, nodeid"};

citus_node node_of(const driver::row& r) {
  return {.name = r.text_at(0),
          .port = r.int_at(1),
          .coordinator = r.int_at(2) != 0,
          .active = r.int_at(3) != 0,
          .has_metadata = r.int_at(4) != 0,
          .metadata_synced = r.int_at(5) != 0};
}

// `text` as one shell word: in single quotes, each ' written '\''.
std::string shell_word(std::string_view text) {
  std::string out = "'";
  for (const char c : text) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out.push_back(c);
    }
  }
  return out + "'";
}

std::string node_address(const citus_node& n) { return n.name + ":" + std::to_string(n.port); }

// The --db of `n`: the coordinator's as given, a worker's from it; empty when not derivable.
std::string node_endpoint(const citus_node& n, const std::string& coordinator_target) {
  if (n.coordinator) return coordinator_target;
  return driver::node_target(coordinator_target, n.name, n.port);
}

}  // namespace

std::string why_no_queries(const citus_node& n) {
  if (n.coordinator) return {};
  const std::string call = "('" + n.name + "', " + std::to_string(n.port) + ") on the coordinator";
  if (!n.active) return "inactive (SELECT citus_activate_node" + call + ")";
  if (!n.has_metadata) {
    return "no metadata (Citus before 11, or added without it: SELECT "
           "start_metadata_sync_to_node" +
           call + ")";
  }
  if (!n.metadata_synced) {
    return "its metadata is not synced yet (the coordinator's maintenance daemon syncs it; "
           "SELECT start_metadata_sync_to_node" +
           call + ")";
  }
  return {};
}

shoal::task<driver::outcome> list_citus_nodes(driver::session& s, std::vector<citus_node>& nodes) {
  nodes.clear();
  const driver::outcome began = co_await s.begin();
  if (!began.ok()) co_return began;
  const driver::statement_result r = co_await s.execute(list_nodes, {});
  if (!r.ok()) {
    co_await s.rollback();
    co_return r.status;
  }
  const driver::outcome committed = co_await s.commit();
  if (!committed.ok()) co_return committed;
  for (const driver::row& row : r.rows) nodes.push_back(node_of(row));
  co_return driver::outcome::success();
}

std::string endpoints_lines(const std::vector<citus_node>& nodes,
                            const std::string& coordinator_target) {
  if (nodes.empty()) return {};
  std::vector<citus_node> listed = nodes;
  if (!listed.front().coordinator) {  // no row of its own: it takes queries all the same
    listed.insert(listed.begin(), citus_node());
    listed.front().coordinator = true;
  }
  std::string dbs, refused;
  std::size_t taking = 0;
  for (const citus_node& n : listed) {
    std::string why = why_no_queries(n);
    const std::string endpoint = node_endpoint(n, coordinator_target);
    if (why.empty() && endpoint.empty()) why = "its --db could not be made from the coordinator's";
    if (!why.empty()) {
      refused += "init: worker " + node_address(n) + " takes no queries: " + why + "\n";
      continue;
    }
    dbs += " --db " + shell_word(driver::redact(endpoint));
    ++taking;
  }
  const std::string head = taking == listed.size()
                               ? "every node as an endpoint of `run`:"
                               : std::to_string(taking) + " of " + std::to_string(listed.size()) +
                                     " nodes as endpoints of `run`:";
  return "init: " + head + dbs + "\n" + refused;
}

}  // namespace tpcc::schema
