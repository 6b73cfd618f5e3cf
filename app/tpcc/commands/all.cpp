// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/all.cpp: the default job: a fresh database, loaded, run, checked, then
// cleaned unless --keep (see commands.hpp).
#include <optional>

#include "commands/commands.hpp"
#include "commands/steps.hpp"

namespace tpcc::commands {
namespace {

// The next step may start: the last one succeeded and no Ctrl-C came.
bool go_on(const app& a, int& status) {
  if (status == exit_ok && a.interrupt.stop_requested()) status = a.console.interrupt_status();
  return status == exit_ok;
}

}  // namespace

// The run's summary and reports come after the consistency check, so that they say what it
// found. A run judged FAIL still gets its check and clean-up; its status is kept.
shoal::task<int> all_commands(app& a, driver::database& db) {
  int status = co_await clean_command(a, db);
  if (go_on(a, status)) status = co_await init_command(a, db);
  if (go_on(a, status)) status = co_await load_command(a, db);
  std::optional<run::run_result> ran;
  int run_status = exit_ok;
  if (go_on(a, status)) status = run_status = co_await run_step(a, db, ran);
  if (go_on(a, status)) status = co_await check_step(a, db, ran ? &*ran : nullptr);
  int judged = ran ? finish_run(a, *ran, db.describe(), run_status) : exit_ok;
  if (judged != exit_judged && judged != exit_ok && status == exit_ok) status = judged;
  if (judged != exit_judged) judged = exit_ok;
  if (go_on(a, status) && !a.cfg.keep) status = co_await clean_command(a, db);
  co_return status == exit_ok ? judged : status;
}

}  // namespace tpcc::commands
