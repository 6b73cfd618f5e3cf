// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_ch.hpp: the HTML report's table of CH-benCHmark's analytic queries.
//
// What: one <section id="ch">: the streams, the queries per hour beside tpmC, and a row per
// query (completed, failed, cancelled, p50/p90/p99/max ms, rows of the last completed
// execution), a failure marked as the outcome table marks one; tpmC with streams against
// without when one schedule had both (report/ch_steps.hpp); and a plot over time
// (id "ch-over-time"): tpmC per interval beside the analytic queries completed and failed per
// interval (run_result/ch_result.hpp's series). Empty when no stream ran.
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "run_result/result.hpp"

namespace tpcc::report::html {

[[nodiscard]] std::string ch_section(const run::run_result& r);

}  // namespace tpcc::report::html
