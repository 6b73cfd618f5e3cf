// SPDX-License-Identifier: Apache-2.0
// Creating, finding and dropping the stored procedures of --procedures (procedures.hpp).
#include "schema/procedures.hpp"

#include <span>
#include <utility>
#include <vector>

#include "schema/procedure_texts.hpp"
#include "schema/statements.hpp"

namespace tpcc::schema {
namespace {

using driver::call;
using driver::outcome;
using driver::statement;

constexpr std::array<statement, 5> postgres_drops{{
    {"tpcc_proc_drop_pg_new_order", "DROP FUNCTION IF EXISTS tpcc_new_order"},
    {"tpcc_proc_drop_pg_payment", "DROP FUNCTION IF EXISTS tpcc_payment"},
    {"tpcc_proc_drop_pg_order_status", "DROP FUNCTION IF EXISTS tpcc_order_status"},
    {"tpcc_proc_drop_pg_delivery", "DROP FUNCTION IF EXISTS tpcc_delivery"},
    {"tpcc_proc_drop_pg_stock_level", "DROP FUNCTION IF EXISTS tpcc_stock_level"},
}};

// Routines of this name in the current database (PostgreSQL: any schema on the search path's
// catalogue; MySQL: the connection's database).
constexpr statement count_routine{"tpcc_proc_count",
                                  "SELECT count(*) FROM pg_proc WHERE proname = $1",
                                  "SELECT count(*) FROM information_schema.routines "
                                  "WHERE routine_schema = DATABASE() AND routine_name = $1"};

outcome unsupported(driver::engine kind) {
  const char* what = kind == driver::engine::sqlite ? "SQLite"
                     : kind == driver::engine::sim  ? "the simulated database"
                                                    : "this database";
  return outcome::make(
      driver::outcome_kind::failed, "",
      std::string("stored procedures need PostgreSQL or MySQL/MariaDB, not ") + what);
}

bool supported(driver::engine kind) noexcept {
  return kind == driver::engine::postgres || kind == driver::engine::mysql;
}

// Every DROP of MySQL's list (the even entries), or PostgreSQL's.
std::vector<call> drop_calls(driver::engine kind) {
  if (kind == driver::engine::postgres) return calls_of(postgres_drops);
  std::vector<call> calls;
  const std::span<const statement> all = mysql_procedures();
  for (std::size_t i = 0; i < all.size(); i += 2) calls.push_back({&all[i], {}});
  return calls;
}

}  // namespace

shoal::task<outcome> create_procedures(driver::database& db, driver::engine kind) {
  if (!supported(kind)) co_return unsupported(kind);
  const std::span<const statement> texts =
      kind == driver::engine::postgres ? postgres_procedures() : mysql_procedures();
  co_return co_await run_on_lease(db, calls_of(texts));
}

shoal::task<outcome> drop_procedures(driver::database& db, driver::engine kind) {
  if (!supported(kind)) co_return unsupported(kind);
  co_return co_await run_on_lease(db, drop_calls(kind));
}

shoal::task<procedure_check> missing_procedure(driver::database& db) {
  procedure_check check;
  driver::lease l = co_await db.acquire();
  if (!l) {
    check.status = l.status();
    co_return check;
  }
  for (const std::string_view name : procedure_names) {
    std::vector<driver::value> params;
    params.emplace_back(std::string(name));
    const counted found = co_await count_query(*l, count_routine, std::move(params));
    if (!found.status.ok()) {
      check.status = found.status;
      co_return check;
    }
    if (found.count == 0) {
      check.missing = std::string(name);
      co_return check;
    }
  }
  co_return check;
}

}  // namespace tpcc::schema
