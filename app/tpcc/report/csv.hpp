// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/csv.hpp: the interval series as CSV (--csv FILE), for spreadsheets and
// pandas.
//
// What: one header line, then one row per interval and transaction type: the interval's start
// and end (seconds since the terminals started), its phase (warm-up, measuring, draining), the
// type, each outcome's count under its JSON key (stats/outcomes.hpp: committed,
// retried_committed, rolled_back, failed_retries_exhausted, failed, lost, abandoned),
// completed, failures, retries, and the response
// time's p50, p90, p99 and max in milliseconds over the completed transactions of the interval
// (empty cells when it completed none), then the interval's tpmC and tpmTotal (completed
// New-Orders, and transactions of every type, per minute of the interval: the same on each of
// its rows). RFC 4180: comma-separated, "\r\n" line ends, no field
// needs quoting (type names have no comma).
// Beside it, the run's distinct errors (format_errors_csv, written by write_csv to
// errors_csv_path: FILE with ".csv" replaced by ".errors.csv"): one row per error, type,
// sqlstate, outcome, statement, message (the first one's), count, first, last (ISO 8601 UTC),
// then one row "unlisted" with the count of errors past the cap; fields quoted as RFC 4180
// asks (a database message may hold commas, quotes, line breaks). When the run read the
// database's own figures, a third file beside them: server_csv.hpp; when it had several
// endpoints, another: endpoints_csv.hpp; when analytic streams ran, the per-query table:
// ch_csv.hpp, and their series: ch_series_csv.hpp. Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

[[nodiscard]] std::string format_csv(const run::run_result& r);
[[nodiscard]] std::string format_errors_csv(const run::run_result& r);
// Where write_csv puts the errors: "a.csv" -> "a.errors.csv", "a" -> "a.errors.csv".
[[nodiscard]] std::string errors_csv_path(const std::string& csv_path);
// Writes both files. nullopt when written; otherwise why not, naming the path.
[[nodiscard]] std::optional<std::string> write_csv(const run::run_result& r,
                                                   const std::string& path);

}  // namespace tpcc::report
