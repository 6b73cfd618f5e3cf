// SPDX-License-Identifier: Apache-2.0
// tests/app/loader/csv_import.hpp: the imports of a `load --csv DIR` export that
// docs/tpcc/csv-export.md shows, as scripts for the databases' own clients.
//
// What: each function returns the script importing every file of `dir` (the nine tables,
// tpcc_meta.csv and tpcc_loaded.csv) into a schema made by `shoal-tpcc init`:
//   sqlite_import_script: sqlite3's `.import --csv --skip 1`, then the two NULL columns
//                         (O_CARRIER_ID, OL_DELIVERY_D) set back to NULL from '';
//   copy_script:          psql's `\copy ... FROM 'file' (FORMAT csv, HEADER true)`;
//   load_data_script:     MariaDB's `LOAD DATA INFILE` with NULLIF for the two NULL columns.
// run_shell runs a command line, its output (stdout and stderr) written to `log_file` and read
// into `log`, and returns std::system's status (0 when it exited 0).
// Thread-safety: pure functions but run_shell (one process per call).
#pragma once

#include <string>

namespace tpcc::testing {

[[nodiscard]] std::string sqlite_import_script(const std::string& dir);
[[nodiscard]] std::string copy_script(const std::string& dir);
[[nodiscard]] std::string load_data_script(const std::string& dir);
int run_shell(const std::string& command, const std::string& log_file, std::string& log);

}  // namespace tpcc::testing
