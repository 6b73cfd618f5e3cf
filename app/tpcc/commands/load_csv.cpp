// SPDX-License-Identifier: Apache-2.0
// app/tpcc/commands/load_csv.cpp: `shoal-tpcc load --csv DIR`: the population written as CSV
// files for the database's own importer, without a database (see commands.hpp).
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <system_error>

#include "commands/commands.hpp"
#include "driver/open.hpp"
#include "loader/csv_export.hpp"
#include "random/rng.hpp"
#include "run/shard.hpp"

namespace tpcc::commands {
namespace {

loader::csv_options csv_options_of(const cli::config& cfg) {
  loader::csv_options options;
  options.dir = cfg.csv_path;
  options.warehouses = cfg.warehouses != 0 ? cfg.warehouses : 1;
  options.seed = cfg.seed != 0 ? cfg.seed : random::seed_from_time();
  const run::warehouse_range range =
      run::shard_range(options.warehouses, {.index = cfg.shard_index, .count = cfg.shard_count});
  options.first_warehouse = range.first;
  options.last_warehouse = range.last;
  options.items = cfg.shard_index == 0;
  return options;
}

// --db is not connected to with --csv: said once when it names anything but the default.
void note_db_unused(const cli::config& cfg) {
  if (cfg.db.text == cli::config{}.db.text) return;
  std::fprintf(stderr,
               "shoal-tpcc: load --csv: --db %s is not connected to: the files are for the "
               "database's own importer (docs/tpcc/csv-export.md)\n",
               driver::redact(cfg.db.text).c_str());
}

std::int64_t total_of(const loader::csv_result& r) {
  std::int64_t total = 0;
  for (const std::int64_t rows : r.rows) total += rows;
  return total;
}

}  // namespace

int load_csv(const cli::config& cfg) {
  note_db_unused(cfg);
  loader::csv_options options = csv_options_of(cfg);
  std::error_code ec;
  std::filesystem::create_directory(options.dir, ec);
  if (ec) return fail("load --csv", "cannot create " + options.dir + ": " + ec.message());
  if (cfg.progress) {
    options.on_part = [](std::int64_t part) {
      if (part == 0) {
        std::fprintf(stderr, "load --csv: items written\n");
      } else {
        std::fprintf(stderr, "load --csv: warehouse %lld written\n", static_cast<long long>(part));
      }
    };
  }
  const auto began = std::chrono::steady_clock::now();
  const loader::csv_result written = loader::export_csv(options);
  if (!written.status.ok()) {
    return fail("load --csv", written.status.message +
                                  " (the export is incomplete: without tpcc_loaded.csv an "
                                  "import is not taken as loaded)");
  }
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - began;
  std::printf(
      "load --csv: warehouses %lld..%lld of %lld%s written to %s (seed %llu): %lld rows "
      "in %.1f s\n",
      static_cast<long long>(options.first_warehouse),
      static_cast<long long>(options.last_warehouse), static_cast<long long>(options.warehouses),
      options.items ? " and the items" : "", options.dir.c_str(),
      static_cast<unsigned long long>(options.seed), static_cast<long long>(total_of(written)),
      took.count());
  return exit_ok;
}

}  // namespace tpcc::commands
