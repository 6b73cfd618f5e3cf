// SPDX-License-Identifier: Apache-2.0
// Creating, indexing and dropping the schema (apply.hpp).
#include "schema/apply.hpp"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schema/ch_tables.hpp"
#include "schema/schema.hpp"
#include "schema/statements.hpp"
#include "shoal/stop.hpp"

namespace tpcc::schema {
namespace {

using driver::call;
using driver::lease;
using driver::outcome;
using driver::statement;
using driver::value;

constexpr statement probe_citus{"tpcc_probe_citus",
                                "SELECT count(*) FROM pg_extension WHERE extname = 'citus'"};
constexpr statement is_distributed{
    "tpcc_citus_is_distributed",
    "SELECT count(*) FROM pg_dist_partition WHERE logicalrelid = $1::regclass"};
constexpr statement distribute{"tpcc_citus_distribute",
                               "SELECT create_distributed_table($1, $2, colocate_with => $3)"};
constexpr statement make_reference{"tpcc_citus_reference", "SELECT create_reference_table($1)"};
// How Citus places one table: by a warehouse column co-located with WAREHOUSE, or everywhere
// (a reference table) when `column` is empty.
struct placement {
  std::string_view table;
  std::string_view column;
};

// WAREHOUSE first: the others are co-located with it.
constexpr std::array<placement, 11> placements{{
    {"warehouse", "w_id"},
    {"district", "d_w_id"},
    {"customer", "c_w_id"},
    {"history", "h_w_id"},
    {"orders", "o_w_id"},
    {"new_order", "no_w_id"},
    {"order_line", "ol_w_id"},
    {"stock", "s_w_id"},
    {"item", ""},
    {"tpcc_meta", ""},
    {"tpcc_loaded", ""},
}};

// CH-benCHmark's tables (ch_tables.hpp): no warehouse column, read whole by the analytic
// queries, so a copy on every node.
constexpr std::array<placement, 3> ch_placements{
    {{"region", ""}, {"nation", ""}, {"supplier", ""}}};

std::vector<value> text_params(std::string_view a) {
  std::vector<value> out;
  out.emplace_back(std::string(a));
  return out;
}

std::vector<call> placement_calls(const placement& p) {
  std::vector<call> calls(1);
  if (p.column.empty()) {
    calls[0] = {&make_reference, text_params(p.table)};
    return calls;
  }
  std::vector<value> params = text_params(p.table);
  params.emplace_back(std::string(p.column));
  params.emplace_back(std::string(p.table == "warehouse" ? "default" : "warehouse"));
  calls[0] = {&distribute, std::move(params)};
  return calls;
}

// Distributes the tables of `wanted` not distributed yet; counts those it did.
shoal::task<outcome> apply_citus(driver::session& s, init_report& report,
                                 std::span<const placement> wanted) {
  for (const placement& p : wanted) {
    const counted found = co_await count_query(s, is_distributed, text_params(p.table));
    if (!found.status.ok()) co_return found.status;
    if (found.count > 0) {
      report.already_placed.emplace_back(p.table);
      continue;
    }
    const outcome placed = co_await run_transaction(s, placement_calls(p));
    if (!placed.ok()) co_return placed;
    ++report.distributed_now;
    (p.column.empty() ? report.reference_tables : report.distributed_tables).emplace_back(p.table);
  }
  report.distributed = true;
  co_return outcome::success();
}

// Which nodes take queries (init_report::nodes, workers); left unknown when the catalog does not
// say (a Citus without pg_dist_node's metadata columns).
shoal::task<void> count_citus_nodes(driver::session& s, init_report& report) {
  const outcome listed = co_await list_citus_nodes(s, report.nodes);
  if (!listed.ok()) co_return;
  report.workers = 0;
  report.workers_without_metadata = 0;
  for (const citus_node& n : report.nodes) {
    if (n.coordinator || !n.active) continue;
    ++report.workers;
    if (!n.has_metadata || !n.metadata_synced) ++report.workers_without_metadata;
  }
}

// Probes the engine; a failed probe (SQLite has no pg_extension) is "other", not an error.
shoal::task<outcome> probe_and_distribute(driver::session& s, init_report& report,
                                          std::span<const placement> wanted) {
  const counted probe = co_await count_query(s, probe_citus, std::vector<value>());
  const bool lost = probe.status.kind == driver::outcome_kind::connection_lost;
  if (lost || shoal::stop_requested()) co_return probe.status;
  if (!probe.status.ok()) {
    report.detected = engine::other;
    report.probe_message = probe.status.message;
    co_return outcome::success();
  }
  report.detected = probe.count > 0 ? engine::citus : engine::postgres;
  if (report.detected != engine::citus) co_return outcome::success();
  const outcome placed = co_await apply_citus(s, report, wanted);
  if (placed.ok()) co_await count_citus_nodes(s, report);
  co_return placed;
}

// Creates `statements` in one transaction, then probes the engine and on Citus places `wanted`.
shoal::task<outcome> create_and_place(driver::database& db, init_report& report,
                                      std::span<const statement> statements,
                                      std::span<const placement> wanted) {
  report = init_report();
  lease l = co_await db.acquire();
  if (!l) co_return l.status();
  const outcome created = co_await run_transaction(*l, calls_of(statements));
  if (!created.ok()) co_return created;
  report.tables = statements.size();
  co_return co_await probe_and_distribute(*l, report, wanted);
}

}  // namespace

shoal::task<outcome> create_schema(driver::database& db, init_report& report) {
  return create_and_place(db, report, create_statements(), placements);
}

shoal::task<outcome> create_ch_schema(driver::database& db, init_report& report) {
  return create_and_place(db, report, ch_create_statements(), ch_placements);
}

std::string nodes_summary(const init_report& report) {
  if (report.workers < 0) return {};
  const std::string n = std::to_string(report.workers);
  if (report.workers == 0) return "; no worker: the coordinator holds every shard";
  if (report.workers_without_metadata == 0) {
    return "; every node takes queries (the coordinator and " + n +
           (report.workers == 1 ? " worker" : " workers") +
           " with metadata): `run` may take each as a --db (docs/tpcc/endpoints.md)";
  }
  return "; " + std::to_string(report.workers_without_metadata) + " of " + n +
         " workers have no synced metadata and take no queries (SELECT "
         "start_metadata_sync_to_node(host, port) gives them it); the others and the coordinator "
         "do";
}

std::string distribution_summary(const init_report& report) {
  if (!report.distributed) return {};
  const auto joined = [](const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
  };
  std::string out = " (Citus";
  if (!report.distributed_tables.empty()) {
    out += ": distributed by warehouse id, co-located with warehouse: " +
           joined(report.distributed_tables);
  }
  if (!report.reference_tables.empty()) {
    out += "; reference tables made: " + joined(report.reference_tables);
  }
  if (!report.already_placed.empty()) out += "; already placed: " + joined(report.already_placed);
  return out + ")" + nodes_summary(report);
}

// Each index its own transaction, after its existence query: 0 on PostgreSQL and SQLite, whose
// CREATE INDEX IF NOT EXISTS decides; MySQL's counts it (index_statement).
shoal::task<outcome> create_indexes(driver::database& db) {
  lease l = co_await db.acquire();
  if (!l) co_return l.status();
  for (const index_statement& index : index_statements()) {
    const counted found = co_await count_query(*l, index.exists, std::vector<value>());
    if (!found.status.ok()) co_return found.status;
    if (found.count > 0) continue;
    const outcome made = co_await run_transaction(*l, calls_of({&index.create, 1}));
    if (!made.ok()) co_return made;
  }
  co_return outcome::success();
}

// ANALYZE, which PostgreSQL, Citus (propagated to the shards) and SQLite all take as is.
// MySQL names the tables.
constexpr statement analyze_all{"tpcc_analyze", "ANALYZE",
                                "ANALYZE TABLE item, warehouse, district, customer, history, "
                                "orders, new_order, order_line, stock"};

shoal::task<outcome> analyze_tables(driver::database& db) {
  return run_on_lease(db, calls_of(std::span<const statement>(&analyze_all, 1)));
}

shoal::task<outcome> drop_schema(driver::database& db) {
  return run_on_lease(db, calls_of(drop_statements()));
}

}  // namespace tpcc::schema
