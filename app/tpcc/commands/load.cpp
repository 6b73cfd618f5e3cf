// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/load.cpp: `shoal-tpcc load`: the population loaded, with its live display;
// `load --dry-run`: what it would take (see commands.hpp).
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "commands/commands.hpp"
#include "commands/display.hpp"
#include "driver/open.hpp"
#include "loader/ch_load.hpp"
#include "loader/estimate.hpp"
#include "loader/loader.hpp"
#include "random/rng.hpp"
#include "run/shard.hpp"
#include "shoal/stop.hpp"
#include "ui/load_screen.hpp"

namespace tpcc::commands {
namespace {

std::string fixed(double v, int digits) {
  std::array<char, 64> b{};
  std::snprintf(b.data(), b.size(), "%.*f", digits, v);
  return b.data();
}

// `load --shard I/N` (not the default job's load, which loads everything for its run's shard).
bool split_load(const cli::config& cfg) {
  return cfg.cmd == cli::command::load && cfg.shard_count > 1;
}

// load --shard I/N: shard I's warehouses, ITEM by shard 0, the indexes left to a plain load.
void take_shard(const cli::config& cfg, loader::load_options& options) {
  if (!split_load(cfg)) return;
  const run::warehouse_range range =
      run::shard_range(cfg.warehouses, {.index = cfg.shard_index, .count = cfg.shard_count});
  options.first_warehouse = range.first;
  options.last_warehouse = range.last;
  options.load_items = cfg.shard_index == 0;
  options.build_indexes = false;
}

// " --shard I/N --warehouses W" for a shard's resume command; empty otherwise.
std::string shard_words(const cli::config& cfg) {
  if (!split_load(cfg)) return {};
  return " --shard " + std::to_string(cfg.shard_index) + "/" + std::to_string(cfg.shard_count) +
         " --warehouses " + std::to_string(cfg.warehouses);
}

void print_shard_done(const cli::config& cfg) {
  if (!split_load(cfg)) return;
  std::printf(
      "load: shard %lld/%lld done; the secondary indexes and the planner's statistics are "
      "left to one plain `shoal-tpcc load --db %s` once every shard has ended\n",
      static_cast<long long>(cfg.shard_index), static_cast<long long>(cfg.shard_count),
      driver::redact(cfg.db.text).c_str());
}

// `--ch`: the three tables made if `init --ch` did not, then filled once.
shoal::task<int> load_ch_tables(app& a, driver::database& db, std::uint64_t seed) {
  const int made = co_await init_ch_tables(db);
  if (made != exit_ok) co_return made;
  const loader::ch_load_result done =
      co_await shoal::with_stop_token(a.interrupt.get_token(), loader::load_ch(db, seed));
  if (!done.status.ok()) {
    co_return a.console.interrupted() ? a.console.interrupt_status()
                                      : fail("load --ch", done.status.message);
  }
  if (done.already_loaded) {
    std::printf("load: CH-benCHmark's tables were already loaded: nothing written\n");
  } else {
    std::printf(
        "load: CH-benCHmark's tables loaded: %lld rows (region 5, nation 62, "
        "supplier 10000)\n",
        static_cast<long long>(done.rows));
  }
  std::fflush(stdout);
  co_return exit_ok;
}

}  // namespace

shoal::task<int> load_command(app& a, driver::database& db) {
  loader::load_options options;
  options.warehouses = a.cfg.warehouses;
  options.parallel = a.cfg.load_parallel;
  options.seed = a.cfg.seed != 0 ? a.cfg.seed : random::seed_from_time();
  take_shard(a.cfg, options);
  auto progress = std::make_unique<loader::load_progress>();
  auto shown = std::make_unique<shown_display>(a.console, a.cfg);
  shown->report(ui::load_reporter(shown->display(), *progress, db.describe()));
  const driver::outcome done = co_await shoal::with_stop_token(
      a.interrupt.get_token(), loader::load(db, options, *progress));
  shown->close();
  const loader::progress_snapshot last = progress->snapshot();
  if (shown->display().mode() == ui::display_mode::lines) {  // the last line, every table's end
    std::fprintf(stderr, "%s\n", ui::load_line(last).c_str());
  }
  if (!done.ok()) {
    if (last.warehouses_total > 0) {  // the count is recorded: a plain `load` resumes
      std::fprintf(stderr, "shoal-tpcc: load: resume it with: shoal-tpcc load --db %s%s\n",
                   driver::redact(a.cfg.db.text).c_str(), shard_words(a.cfg).c_str());
    }
    co_return a.console.interrupted() ? a.console.interrupt_status() : fail("load", done.message);
  }
  std::printf("load: %lld warehouse%s loaded, %lld rows in %s s (%s rows/s)\n",
              static_cast<long long>(last.warehouses_total), last.warehouses_total == 1 ? "" : "s",
              static_cast<long long>(last.rows), fixed(last.elapsed_seconds, 1).c_str(),
              fixed(last.rows_per_second, 0).c_str());
  print_shard_done(a.cfg);
  std::fflush(stdout);
  if (!a.cfg.ch) co_return exit_ok;
  co_return co_await load_ch_tables(a, db, options.seed);
}

int load_estimate(const cli::config& cfg) {
  std::printf("%s", loader::format_estimate(std::max<std::int64_t>(1, cfg.warehouses)).c_str());
  return exit_ok;
}

}  // namespace tpcc::commands
