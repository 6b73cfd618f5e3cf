// SPDX-License-Identifier: Apache-2.0
// app/tpcc/server_stats/mysql_source.cpp: MySQL's and MariaDB's own figures (see kinds.hpp).
//
// One SHOW GLOBAL STATUS for the variables named below (rows of name and value, the value as
// text); the variables the server does not have (MariaDB 10.6 and later: Innodb_rows_*;
// MySQL: Rows_read) are named once and stay NaN; a refused statement is said once and not asked
// again.
#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <string_view>

#include "server_stats/kinds.hpp"

namespace tpcc::server_stats {
namespace {

struct status_variable {
  std::string_view name;  // as the server spells it
  measure kind;
  bool plotted;
};

constexpr std::array<status_variable, 20> my_variables{{
    {"Com_select", measure::counter, false},
    {"Com_insert", measure::counter, false},
    {"Com_update", measure::counter, false},
    {"Com_delete", measure::counter, false},
    {"Com_commit", measure::counter, true},
    {"Com_rollback", measure::counter, true},
    {"Innodb_rows_read", measure::counter, false},
    {"Innodb_rows_inserted", measure::counter, false},
    {"Innodb_rows_updated", measure::counter, false},
    {"Innodb_rows_deleted", measure::counter, false},
    {"Rows_read", measure::counter, false},  // MariaDB: rows read by every engine
    {"Handler_write", measure::counter, false},
    {"Handler_update", measure::counter, false},
    {"Handler_delete", measure::counter, false},
    {"Innodb_buffer_pool_reads", measure::counter, true},
    {"Innodb_buffer_pool_read_requests", measure::counter, false},
    {"Innodb_row_lock_waits", measure::counter, false},
    {"Innodb_row_lock_time", measure::counter, false},  // milliseconds
    {"Threads_running", measure::gauge, false},
    {"Innodb_row_lock_current_waits", measure::gauge, false},
}};

constexpr driver::statement my_status{
    "tpcc_srv_status",
    "SHOW GLOBAL STATUS WHERE Variable_name IN ('Com_select', 'Com_insert', 'Com_update', "
    "'Com_delete', 'Com_commit', 'Com_rollback', 'Innodb_rows_read', 'Innodb_rows_inserted', "
    "'Innodb_rows_updated', 'Innodb_rows_deleted', 'Rows_read', 'Handler_write', "
    "'Handler_update', 'Handler_delete', 'Innodb_buffer_pool_reads', "
    "'Innodb_buffer_pool_read_requests', 'Innodb_row_lock_waits', 'Innodb_row_lock_time', "
    "'Threads_running', 'Innodb_row_lock_current_waits')"};

// A running MySQL or MariaDB server: its host name, port and data directory (MariaDB has no
// server_uuid, and server_id is 1 on most servers).
constexpr driver::statement my_identity{"tpcc_srv_identity",
                                        "SELECT CONCAT(@@hostname, ':', @@port, ':', @@datadir)"};

std::string lower_key(std::string_view name) {
  std::string out(name);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::vector<figure_info> my_figures() {
  std::vector<figure_info> out;
  out.reserve(my_variables.size());
  for (const status_variable& v : my_variables) {
    out.push_back({lower_key(v.name), v.kind, v.plotted});
  }
  return out;
}

class mysql_source final : public source {
 public:
  [[nodiscard]] std::string name() const override { return "mysql"; }
  [[nodiscard]] const std::vector<figure_info>& figures() const override { return figures_; }

  [[nodiscard]] const driver::statement* identity_query() const override { return &my_identity; }

  shoal::task<reading> read(driver::session& s) override {
    reading out;
    out.values.assign(figures_.size(), std::numeric_limits<double>::quiet_NaN());
    if (refused_) co_return out;
    const driver::statement_result r = co_await query_alone(s, my_status);
    if (!r.ok()) {
      refused_ = true;
      out.refused.push_back(refusal("SHOW GLOBAL STATUS", r.status));
      co_return out;
    }
    for (const driver::row& row : r.rows) {
      if (row.size() < 2 || row.null_at(0)) continue;
      const std::string key = lower_key(row.text_at(0));
      for (std::size_t i = 0; i < figures_.size(); ++i) {
        if (figures_[i].key == key) out.values[i] = number_of(row.at(1));
      }
    }
    if (!absent_named_) name_absent(out);
    co_return out;
  }

 private:
  // Names, once, the variables this server did not return.
  void name_absent(reading& r) {
    absent_named_ = true;
    std::string absent;
    for (std::size_t i = 0; i < figures_.size(); ++i) {
      if (std::isfinite(r.values[i])) continue;
      absent += absent.empty() ? "" : ", ";
      absent += my_variables[i].name;
    }
    if (!absent.empty()) r.refused.push_back("SHOW GLOBAL STATUS: this server has no " + absent);
  }

  std::vector<figure_info> figures_ = my_figures();
  bool refused_ = false, absent_named_ = false;
};

}  // namespace

std::unique_ptr<source> make_mysql_source() { return std::make_unique<mysql_source>(); }

}  // namespace tpcc::server_stats
