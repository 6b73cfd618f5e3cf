// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/clean.cpp: `shoal-tpcc clean`: every table dropped, and on PostgreSQL and
// MySQL the stored procedures of --procedures if any (see commands.hpp).
#include <cstdio>

#include "commands/commands.hpp"
#include "schema/apply.hpp"
#include "schema/procedures.hpp"

namespace tpcc::commands {

shoal::task<int> clean_command(app& a, driver::database& db) {
  const driver::outcome done = co_await schema::drop_schema(db);
  if (!done.ok()) co_return fail("clean", done.message);
  const driver::engine kind = a.cfg.db.kind;
  const bool server = kind == driver::engine::postgres || kind == driver::engine::mysql;
  if (server) {
    const driver::outcome dropped = co_await schema::drop_procedures(db, kind);
    if (!dropped.ok()) co_return fail("clean", dropped.message);
  }
  std::printf("clean: every table%s dropped\n", server ? " and stored procedure" : "");
  std::fflush(stdout);
  co_return exit_ok;
}

}  // namespace tpcc::commands
