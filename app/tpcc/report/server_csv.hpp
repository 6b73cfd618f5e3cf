// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/server_csv.hpp: the database's own figures per interval as CSV, beside --csv.
//
// What: written by write_csv (csv.hpp) to server_csv_path (FILE with ".csv" replaced by
// ".server.csv") when the run collected server figures (server_stats/figures.hpp), nothing
// otherwise; a run over several endpoints reaching several servers writes each other server's
// (run_result::more_servers[k - 1], report/servers.hpp) to ".server-<k + 1>.csv" likewise: one
// header line, start_seconds,end_seconds,phase, each figure's key, sample_ms; then one row per
// reading: counters as their growth over the interval, gauges at its end, an empty cell where the
// database refused or did not say. RFC 4180, "\r\n" line ends; no field needs quoting (keys are
// lower-case identifiers). Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

[[nodiscard]] std::string format_server_csv(const server_stats::server_figures& f);
// "a.csv" -> "a.server.csv", "a" -> "a.server.csv"; server k > 0 (more_servers[k - 1]):
// "a.server-<k + 1>.csv".
[[nodiscard]] std::string server_csv_path(const std::string& csv_path, std::size_t server = 0);

}  // namespace tpcc::report
