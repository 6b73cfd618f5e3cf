// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/server_render.hpp: the database's own figures on the metrics endpoint.
//
// What: render_server() appends, when the run reads them (server_stats/collector.hpp):
//   shoal_tpcc_server_total{source,figure}: a counter figure's growth since the run's first
//     reading (xact_commit, com_commit, ...: docs/tpcc/server-figures.md), absent while unknown;
//   shoal_tpcc_server_value{source,figure}: a gauge figure's latest value (lock_waits,
//     threads_running, ...);
//   shoal_tpcc_server_sample_seconds (gauge): what the latest reading cost;
//   shoal_tpcc_server_samples_total (counter): readings so far.
// Thread-safety: pure.
#pragma once

#include "metrics/exposition.hpp"
#include "server_stats/collector.hpp"

namespace tpcc::metrics {

void render_server(exposition& e, const server_stats::live_figures& f);

}  // namespace tpcc::metrics
