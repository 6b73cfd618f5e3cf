// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/init.cpp: `shoal-tpcc init`: the schema created (see commands.hpp).
#include <cstdio>

#include "commands/commands.hpp"
#include "schema/apply.hpp"
#include "schema/procedures.hpp"

namespace tpcc::commands {

shoal::task<int> init_ch_tables(driver::database& db) {
  schema::init_report report;
  const driver::outcome done = co_await schema::create_ch_schema(db, report);
  if (!done.ok()) co_return fail("init --ch", done.message);
  std::printf("init: CH-benCHmark's %zu tables ready (supplier, nation, region)%s\n", report.tables,
              schema::distribution_summary(report).c_str());
  std::fflush(stdout);
  co_return exit_ok;
}

shoal::task<int> init_command(app& a, driver::database& db) {
  schema::init_report report;
  const driver::outcome done = co_await schema::create_schema(db, report);
  if (!done.ok()) co_return fail("init", done.message);
  const char* engine = a.cfg.is_sqlite() ? "SQLite"
                       : a.cfg.db.kind == driver::engine::mysql
                           ? "MySQL/MariaDB"
                           : schema::to_string(report.detected);
  std::printf("init: %zu tables ready on %s%s\n", report.tables, engine,
              schema::distribution_summary(report).c_str());
  std::fputs(schema::endpoints_lines(report.nodes, a.cfg.db.text).c_str(), stdout);
  std::fflush(stdout);
  if (a.cfg.ch) {
    const int made = co_await init_ch_tables(db);
    if (made != exit_ok) co_return made;
  }
  if (!a.cfg.procedures) co_return exit_ok;
  const driver::outcome made = co_await schema::create_procedures(db, a.cfg.db.kind);
  if (!made.ok()) co_return fail("init --procedures", made.message);
  std::printf("init: %zu stored procedures ready (tpcc_new_order ... tpcc_stock_level)%s\n",
              schema::procedure_names.size(),
              report.detected == schema::engine::citus ? " on the coordinator" : "");
  std::fflush(stdout);
  co_return exit_ok;
}

}  // namespace tpcc::commands
