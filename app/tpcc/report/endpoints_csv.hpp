// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/endpoints_csv.hpp: each endpoint's figures over the measurement window as CSV,
// beside --csv.
//
// What: written by write_csv (csv.hpp) to endpoints_csv_path (FILE with ".csv" replaced by
// ".endpoints.csv") when the run had several endpoints (run_result::endpoints), nothing
// otherwise: one header line, endpoint (1 up, in --db order), target, first_warehouse,
// last_warehouse, type, each outcome's count under its JSON key (stats/outcomes.hpp), completed,
// failures, retries, p90_ms, p99_ms (empty when it completed none), server (whose figures are
// its server's: 1 ".server.csv", k ".server-k.csv" (server_csv.hpp); empty: none read); one row
// per endpoint and type. RFC 4180, "\r\n" line ends; the target quoted when it holds a comma or a
// quote. Beside it, endpoint_series_csv_path (".endpoint_series.csv"): each endpoint's series, one
// row per endpoint and interval: endpoint, start_seconds, end_seconds, phase, completed,
// new_orders, failed, lost, pool_size, pool_in_use, pool_waiting, then per type (new_order,
// payment, order_status, delivery, stock_level) <type>_completed, <type>_failed and <type>_p90_ms
// (empty when it completed none in the interval) (run_result::endpoints' series, as the JSON has
// it).
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

[[nodiscard]] std::string format_endpoints_csv(const run::run_result& r);
// "a.csv" -> "a.endpoints.csv", "a" -> "a.endpoints.csv".
[[nodiscard]] std::string endpoints_csv_path(const std::string& csv_path);
[[nodiscard]] std::string format_endpoint_series_csv(const run::run_result& r);
// "a.csv" -> "a.endpoint_series.csv".
[[nodiscard]] std::string endpoint_series_csv_path(const std::string& csv_path);

}  // namespace tpcc::report
