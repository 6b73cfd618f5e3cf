// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_endpoints.hpp: the HTML report's table of each endpoint (a run over
// several: run_result::endpoints).
//
// What: one <section id="endpoints">: a row per endpoint (its target, warehouses, tpmC,
// completed, failed, lost, and New-Order's and Payment's p90 and p99 ms), a failure or a loss
// marked as the outcome table marks them, then a chart of each endpoint's completed
// transactions per minute over the run (its series; a line per endpoint, the phases shaded)
// and, per endpoint, its throughput per type over the run (html_endpoint_kinds.hpp).
// Empty with one endpoint. Every string is escaped.
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "report/html_data.hpp"
#include "run_result/result.hpp"

namespace tpcc::report::html {

[[nodiscard]] std::string endpoints_section(const run::run_result& r, const phases& p);

}  // namespace tpcc::report::html
