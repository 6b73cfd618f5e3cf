// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/clean.cpp: `shoal-tpcc clean`: every table dropped (see commands.hpp).
#include <cstdio>

#include "commands/commands.hpp"
#include "schema/apply.hpp"

namespace tpcc::commands {

shoal::task<int> clean_command(app& a, driver::database& db) {
  static_cast<void>(a);
  const driver::outcome done = co_await schema::drop_schema(db);
  if (!done.ok()) co_return fail("clean", done.message);
  std::printf("clean: every table dropped\n");
  std::fflush(stdout);
  co_return exit_ok;
}

}  // namespace tpcc::commands
