// SPDX-License-Identifier: Apache-2.0
// tests/app/loader/load_split_support.hpp: what the tests of `load --shard` and `load --csv`
// share: shard processes started together, the check that must pass after them, and the imports
// of an export that docs/tpcc/csv-export.md shows, as scripts for the databases' own clients.
//
// What: load_shards_together starts `shards` processes `load --db DB --shard I/N --warehouses W
// --no-progress` (plus `extra`) at once, one thread each, and returns their results in shard
// order once all have ended. expect_check_passes runs `check --db DB` and expects exit 0 and
// every condition passed (gtest expectations). The script functions return the script importing
// every file of `dir` (the nine tables, tpcc_meta.csv and tpcc_loaded.csv) into a schema made by
// `shoal-tpcc init`:
//   sqlite_import_script: sqlite3's `.import --csv --skip 1`, then the two NULL columns
//                         (O_CARRIER_ID, OL_DELIVERY_D) set back to NULL from '';
//   copy_script:          psql's `\copy ... FROM 'file' (FORMAT csv, HEADER true)`;
//   load_data_script:     MariaDB's `LOAD DATA INFILE` with NULLIF for the two NULL columns.
// run_shell runs a command line, its output (stdout and stderr) written to `log_file` and read
// into `log`, and returns std::system's status (0 when it exited 0).
// Thread-safety: the script functions are pure; the others start processes, from one thread.
#pragma once

#include <string>
#include <vector>

#include "binary.hpp"

namespace tpcc::testing {

[[nodiscard]] std::vector<binary_result> load_shards_together(
    const std::string& db, int shards, const std::string& warehouses,
    const std::vector<std::string>& extra = {});
void expect_check_passes(const std::string& db);

[[nodiscard]] std::string sqlite_import_script(const std::string& dir);
[[nodiscard]] std::string copy_script(const std::string& dir);
[[nodiscard]] std::string load_data_script(const std::string& dir);
int run_shell(const std::string& command, const std::string& log_file, std::string& log);

}  // namespace tpcc::testing
