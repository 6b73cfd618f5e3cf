// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/init.cpp: `shoal-tpcc init`: the schema created (see commands.hpp).
#include <cstdio>

#include "commands/commands.hpp"
#include "schema/apply.hpp"

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
  std::fflush(stdout);
  if (!a.cfg.ch) co_return exit_ok;
  co_return co_await init_ch_tables(db);
}

}  // namespace tpcc::commands
