// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_server.hpp: the database's own figures (server_stats/figures.hpp) as the
// result document's "server" object.
//
// What: {"collected", "source", "not_collected", "figures": [{"key", "kind"}], "series":
// [{"start_seconds", "end_seconds", "phase", "sample_ms", "values": {key: number or null}}],
// "window": {"seconds", "values": {...}} (null when no reading fell in the window),
// "top_statements": [{"query", "calls", "total_ms", "rows"}], "notes": [...], "cost":
// {"samples", "mean_ms", "max_ms"}}, and "endpoints": [target, ...] when given (a run over several
// endpoints: those whose server it is, report/servers.hpp). Counters are what they grew by over the
// interval, gauges their value at its end; null where the database refused or did not say. Written
// only: the reader leaves it out and `merge` drops it (docs/tpcc/server-figures.md). Thread-safety:
// pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "server_stats/figures.hpp"

namespace tpcc::report::detail {

[[nodiscard]] nlohmann::json server_json(const server_stats::server_figures& f,
                                         const std::vector<std::string>& endpoints = {});

}  // namespace tpcc::report::detail
