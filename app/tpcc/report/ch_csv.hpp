// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/ch_csv.hpp: CH-benCHmark's per-query table as CSV, beside --csv.
//
// What: written by write_csv (csv.hpp) to ch_csv_path (FILE with ".csv" replaced by ".ch.csv")
// when analytic streams ran (run_result::ch), nothing otherwise. One header line, then one row
// per query (1..22): query, completed (inside the measurement interval), failed and cancelled
// (in any phase), p50_ms, p90_ms, p99_ms, max_ms, mean_ms (of the completed ones; empty cells
// when none completed), last_rows (of the last completed execution; empty when none),
// queries_per_hour (its completed x 3600 / the measured seconds); then one row "all": the totals
// and the run's queries per hour (the summary's QphH-like figure), its latency cells empty. A
// table of the measurement interval; the series over time is ch_series_csv.hpp's. RFC 4180,
// "\r\n" line ends; no field needs quoting. Thread-safety: pure functions.
#pragma once

#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

[[nodiscard]] std::string format_ch_csv(const run::run_result& r);
// "a.csv" -> "a.ch.csv", "a" -> "a.ch.csv".
[[nodiscard]] std::string ch_csv_path(const std::string& csv_path);

}  // namespace tpcc::report
