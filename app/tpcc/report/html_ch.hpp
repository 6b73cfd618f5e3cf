// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_ch.hpp: the HTML report's table of CH-benCHmark's analytic queries.
//
// What: one <section id="ch">: the streams, the queries per hour beside tpmC, and a row per
// query (completed, failed, cancelled, p50/p90/p99/max ms, rows of the last completed
// execution), a failure marked as the outcome table marks one. Empty when no stream ran. No
// plot over time yet (the series holds transactions only).
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "run_result/result.hpp"

namespace tpcc::report::html {

[[nodiscard]] std::string ch_section(const run::run_result& r);

}  // namespace tpcc::report::html
