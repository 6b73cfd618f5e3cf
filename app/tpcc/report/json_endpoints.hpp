// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_endpoints.hpp: each endpoint of a run over several (run_result::endpoints)
// as the result document's "endpoints" array.
//
// What: [{"target", "first_warehouse", "last_warehouse", "tpmc", "completed", "failed", "lost",
// "transactions": [{"type", one count per outcome (stats/outcomes.hpp's keys), "retries",
// "response": {"count", "p50_us", "p90_us", "p99_us", "max_us"}}], "deliveries",
// "sessions_replaced", "outage" (report/endpoint_outage.hpp; null without one), "server" (0: the
// document's "server", k: "more_servers"[k - 1]; null: none read), "series" (its part of each
// interval: {"start_seconds", "end_seconds", "phase", "completed", "new_orders", "failed", "lost",
// "pool": {"size", "in_use", "waiting"}, "transactions": [{"type", "completed", "failed", "p90_us"
// (null when none completed)}]})}], in --db order; an empty array with one endpoint.
// more_servers_json(): the other distinct servers' figures, as "server" is written, each with
// the "endpoints" that reached it. Written only: the reader leaves both out and
// `merge` drops them, as it does the server's figures (docs/tpcc/endpoints.md). Thread-safety: pure
// functions.
#pragma once

#include <nlohmann/json.hpp>

#include "run_result/result.hpp"

namespace tpcc::report::detail {

[[nodiscard]] nlohmann::json endpoints_json(const run::run_result& r);
[[nodiscard]] nlohmann::json more_servers_json(const run::run_result& r);

}  // namespace tpcc::report::detail
