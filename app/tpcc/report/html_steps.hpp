// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_steps.hpp: the HTML report's steps of `run --schedule`: the curve and a
// table.
//
// What: one <section id="steps">: two charts against the offered rate, throughput (tpmTotal
// achieved, and the offered rate as the line it would follow) and latency (the worst type's p90
// and p99 per step), then a row per step (report/steps.hpp's figures, with whether the database
// kept up: its backlog) and the knee in words.
// Empty without a schedule. Every string is escaped.
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "run_result/result.hpp"

namespace tpcc::report::html {

[[nodiscard]] std::string steps_section(const run::run_result& r);

}  // namespace tpcc::report::html
