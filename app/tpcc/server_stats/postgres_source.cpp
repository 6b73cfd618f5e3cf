// SPDX-License-Identifier: Apache-2.0
// app/tpcc/server_stats/postgres_source.cpp: PostgreSQL's own figures (see kinds.hpp).
//
// Each part is one statement returning one row whose columns are consecutive figures; a part
// refused (no privilege, a view or column missing in this version, a standby without a WAL
// position) is said once and its figures stay NaN.
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "server_stats/kinds.hpp"

namespace tpcc::server_stats {
namespace {

using driver::statement;

constexpr statement pg_database{"tpcc_srv_database",
                                "SELECT xact_commit, xact_rollback, blks_hit, blks_read, "
                                "tup_returned, tup_fetched, tup_inserted, tup_updated, "
                                "tup_deleted, deadlocks, conflicts, temp_bytes "
                                "FROM pg_stat_database WHERE datname = current_database()"};
constexpr statement pg_wal{"tpcc_srv_wal",
                           "SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint"};
constexpr statement pg_bgwriter{"tpcc_srv_bgwriter",
                                "SELECT checkpoints_timed + checkpoints_req, "
                                "buffers_checkpoint + buffers_clean + buffers_backend "
                                "FROM pg_stat_bgwriter"};
constexpr statement pg_locks{"tpcc_srv_lock_waits",
                             "SELECT count(*) FROM pg_stat_activity "
                             "WHERE wait_event_type = 'Lock' AND datname = current_database()"};
constexpr statement pg_has_statements{
    "tpcc_srv_has_statements",
    "SELECT count(*) FROM pg_extension WHERE extname = 'pg_stat_statements'"};
constexpr statement pg_statements{
    "tpcc_srv_statements",
    "SELECT queryid::text || '/' || userid::text, query, calls, total_exec_time, rows "
    "FROM pg_stat_statements WHERE queryid IS NOT NULL AND dbid = "
    "(SELECT oid FROM pg_database WHERE datname = current_database())"};

// A running PostgreSQL server: when its postmaster started (to the microsecond) and its port.
// Not its address: one server reached over TCP and over a socket is one server. Not
// pg_control_system()'s identifier: a streaming replica shares its primary's.
constexpr statement pg_identity{
    "tpcc_srv_identity",
    "SELECT pg_postmaster_start_time()::text || ' port ' || current_setting('port')"};

struct pg_part {
  const statement* stmt;
  std::string_view what;  // as the refusal names it
  std::size_t first, count;
  bool refused = false;
};

std::vector<figure_info> pg_figures() {
  std::vector<figure_info> out;
  for (const char* key :
       {"xact_commit", "xact_rollback", "blks_hit", "blks_read", "tup_returned", "tup_fetched",
        "tup_inserted", "tup_updated", "tup_deleted", "deadlocks", "conflicts", "temp_bytes",
        "wal_bytes", "checkpoints", "buffers_written"}) {
    const std::string_view k(key);
    out.push_back({std::string(k), measure::counter,
                   k == "xact_commit" || k == "xact_rollback" || k == "blks_read"});
  }
  out.push_back({"lock_waits", measure::gauge, false});
  return out;
}

class postgres_source final : public source {
 public:
  [[nodiscard]] std::string name() const override { return "postgresql"; }
  [[nodiscard]] const std::vector<figure_info>& figures() const override { return figures_; }

  shoal::task<reading> read(driver::session& s) override {
    reading out;
    out.values.assign(figures_.size(), std::numeric_limits<double>::quiet_NaN());
    for (pg_part& p : parts_) {
      if (p.refused) continue;
      const driver::statement_result r = co_await query_alone(s, *p.stmt);
      if (!r.ok() || r.rows.size() != 1 || r.rows[0].size() != p.count) {
        p.refused = true;
        out.refused.push_back(refusal(std::string(p.what), r.ok() ? no_row() : r.status));
        continue;
      }
      for (std::size_t i = 0; i < p.count; ++i) {
        out.values[p.first + i] = number_of(r.rows[0].at(i));
      }
    }
    co_return out;
  }

  [[nodiscard]] const statement* identity_query() const override { return &pg_identity; }

  shoal::task<statements_reading> statements(driver::session& s) override {
    statements_reading out;
    if (!statements_checked_) {
      statements_checked_ = true;
      std::optional<std::string> missing = co_await check_statements(s);
      if (missing) out.refused.push_back(std::move(*missing));
    }
    if (statements_off_) co_return out;
    const driver::statement_result r = co_await query_alone(s, pg_statements);
    if (!r.ok()) {
      statements_off_ = true;
      out.refused.push_back(refusal("pg_stat_statements", r.status));
      co_return out;
    }
    for (const driver::row& row : r.rows) {
      if (row.size() != 5 || row.null_at(0)) continue;
      out.totals[row.text_at(0)] = {row.null_at(1) ? std::string() : row.text_at(1),
                                    number_of(row.at(2)), number_of(row.at(3)),
                                    number_of(row.at(4))};
    }
    co_return out;
  }

 private:
  // nullopt when pg_stat_statements is installed in the run's database, else why not.
  shoal::task<std::optional<std::string>> check_statements(driver::session& s) {
    const driver::statement_result r = co_await query_alone(s, pg_has_statements);
    if (r.ok() && r.rows.size() == 1 && number_of(r.rows[0].at(0)) > 0) co_return std::nullopt;
    statements_off_ = true;
    if (!r.ok()) co_return refusal("pg_extension", r.status);
    co_return std::string(
        "pg_stat_statements is not installed in this database (CREATE EXTENSION "
        "pg_stat_statements, with it in shared_preload_libraries): no top statements");
  }

  static driver::outcome no_row() {
    return driver::outcome::make(driver::outcome_kind::failed, "", "no row for this database");
  }

  std::vector<figure_info> figures_ = pg_figures();
  std::array<pg_part, 4> parts_{{{&pg_database, "pg_stat_database", 0, 12},
                                 {&pg_wal, "pg_current_wal_lsn", 12, 1},
                                 {&pg_bgwriter, "pg_stat_bgwriter", 13, 2},
                                 {&pg_locks, "pg_stat_activity", 15, 1}}};
  bool statements_checked_ = false, statements_off_ = false;
};

}  // namespace

std::unique_ptr<source> make_postgres_source() { return std::make_unique<postgres_source>(); }

}  // namespace tpcc::server_stats
