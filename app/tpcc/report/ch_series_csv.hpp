// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/ch_series_csv.hpp: CH-benCHmark's analytic series as CSV, beside --csv.
//
// What: written by write_csv (csv.hpp) to ch_series_csv_path (FILE with ".csv" replaced by
// ".ch_series.csv") when analytic streams ran and the result holds their series
// (run_result/ch_result.hpp: none in results written before it was recorded), nothing
// otherwise. One header line, then one row per interval of the series, on the same cuts as the
// transactions' CSV: start_s, end_s (seconds since the terminals started), completed, failed,
// cancelled (the queries that ended in the interval, every phase), p90_ms (of the completed
// ones; empty when none completed) and queries_per_hour (completed x 3600 / the interval's
// seconds). In a merged result each interval's p90 is the largest of the shards' (an upper
// bound of the merged one, not it): the column is then named p90_ms_max_of_shards.
// RFC 4180, "\r\n" line ends; no field needs quoting. Thread-safety: pure functions.
#pragma once

#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

[[nodiscard]] std::string format_ch_series_csv(const run::run_result& r);
// "a.csv" -> "a.ch_series.csv", "a" -> "a.ch_series.csv".
[[nodiscard]] std::string ch_series_csv_path(const std::string& csv_path);

}  // namespace tpcc::report
