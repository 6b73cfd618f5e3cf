// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html.hpp: the HTML report of a run (--html FILE; `merge --html` for a merged
// result).
//
// What: one self-contained page: no network needed to view it (no CDN, fonts or external
// scripts; inline CSS, inline SVG charts drawn here, and a small inline script that only adds
// legend toggles and marks each chart as drawn once the browser has laid it out). It shows: a
// header (target, warehouses, tpmC, efficiency, the phase boundaries; "simulated database: not
// a database result" for the capacity mode (run_result::simulated or a sim: target); "NOT TPC-C"
// when waits were scaled; interrupted, stopped by an error, client-bound); throughput over time per
// transaction type with warm-up, measurement and drain shaded; p50/p90/p99 response time over time
// per type; the response-time distribution per type over the measurement interval; the
// database's own figures (html_server.hpp); and the per-type table. Long runs are downsampled for
// drawing by merging consecutive intervals (html_data.hpp). Every string embedded is escaped.
// Layout and how to read it: docs/tpcc/design/tpcc-html-report.md. Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

// `target` is the database as the user should see it (password redacted).
[[nodiscard]] std::string format_html(const run::run_result& r, const std::string& target);
// nullopt when written; otherwise the error, naming the path.
[[nodiscard]] std::optional<std::string> write_html(const run::run_result& r,
                                                    const std::string& target,
                                                    const std::string& path);

}  // namespace tpcc::report
