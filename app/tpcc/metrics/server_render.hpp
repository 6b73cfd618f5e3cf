// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/server_render.hpp: the database's own figures on the metrics endpoint.
//
// What: render_servers() appends, when the run reads them (server_stats/collector.hpp):
//   shoal_tpcc_server_total{source,figure}: a counter figure's growth since the run's first
//     reading (xact_commit, com_commit, ...: docs/tpcc/server-figures.md), absent while unknown;
//   shoal_tpcc_server_value{source,figure}: a gauge figure's latest value (lock_waits,
//     threads_running, ...);
//   shoal_tpcc_server_sample_seconds (gauge): what the latest reading cost;
//   shoal_tpcc_server_samples_total (counter): readings so far.
// When the run reads several servers (endpoints reaching distinct servers), every sample of
// these families carries a first label `server`, the server's target as every output names it
// (run::server_totals); with one server there is no such label. Each family is written once.
// render_server() is the one-server form. Thread-safety: pure.
#pragma once

#include <vector>

#include "metrics/exposition.hpp"
#include "run/run.hpp"
#include "server_stats/collector.hpp"

namespace tpcc::metrics {

void render_servers(exposition& e, const std::vector<run::server_totals>& servers);
void render_server(exposition& e, const server_stats::live_figures& f);

}  // namespace tpcc::metrics
