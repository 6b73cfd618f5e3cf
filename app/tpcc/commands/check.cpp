// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/check.cpp: `shoal-tpcc check`: the consistency conditions of clause 3.3.2,
// with progress lines (see commands.hpp, steps.hpp: check_step).
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <variant>
#include <vector>

#include "check/print.hpp"
#include "commands/check_lines.hpp"
#include "commands/commands.hpp"
#include "commands/steps.hpp"
#include "schema/meta.hpp"
#include "shoal/stop.hpp"

namespace tpcc::commands {
namespace {

// What the reports of the run just before say of the check (see run::consistency_status).
run::consistency_status consistency_of(const std::vector<check::condition_result>& results) {
  run::consistency_status status;
  status.checked = true;
  for (const check::condition_result& c : results) {
    if (!c.applicable) continue;
    ++status.conditions;
    if (!c.passed) status.failing.emplace_back(c.clause);
  }
  return status;
}

}  // namespace

shoal::task<int> check_step(app& a, driver::database& db, run::run_result* ran) {
  auto meta = co_await schema::read_meta(db);
  if (auto* refused = std::get_if<driver::outcome>(&meta))
    co_return fail("check", refused->message);
  check::check_options options;
  options.last_warehouse = std::get<schema::load_meta>(meta).warehouses;
  options.chunk = a.cfg.check_chunk;
  if (auto why = std::get<schema::load_meta>(meta).incomplete()) co_return fail("check", *why);
  const auto started = std::chrono::steady_clock::now();
  auto lines = std::make_shared<check_lines>(options.last_warehouse);
  std::function<void(std::int64_t)> chunk_done;
  std::function<void(const check::check_step&)> step;
  if (a.cfg.progress) {
    chunk_done = [lines](std::int64_t done) { lines->chunk_done(done); };
    step = [lines](const check::check_step& s) { lines->step(s); };
  }
  const auto results = co_await shoal::with_stop_token(
      a.interrupt.get_token(), check::check_consistency(db, options, chunk_done, step));
  std::printf("%s", check::format_results(results).c_str());
  if (a.console.interrupted()) co_return a.console.interrupt_status();
  if (ran != nullptr) ran->consistency = consistency_of(results);
  const bool passed = check::all_passed(results);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
  std::printf("check: %s in %.1f s\n", passed ? "all conditions passed" : "FAILED", took.count());
  std::fflush(stdout);
  co_return passed ? exit_ok : exit_failed;
}

shoal::task<int> check_command(app& a, driver::database& db) { return check_step(a, db, nullptr); }

}  // namespace tpcc::commands
