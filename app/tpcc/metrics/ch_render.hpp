// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/ch_render.hpp: CH-benCHmark's analytic streams on the metrics endpoint.
//
// What: render_ch() appends, while streams run (run_control::analytic(); `query` labels "Q1" to
// "Q22", as every report names them):
//   shoal_tpcc_ch_streams (gauge): the streams this process runs;
//   shoal_tpcc_ch_active_streams (gauge): those running now (fewer in a --schedule step with
//     streams=N, 0 in one with streams=0; ch_totals::active_streams, left out when not known);
//   shoal_tpcc_ch_queries_total{query,outcome} (counter): outcome "completed" counts the queries
//     that ended ok inside the measurement interval (what the result counts: 0 during the
//     warm-up), "failed" those that ended with an error and "cancelled" those the run's end or
//     Ctrl-C stopped, both in any phase (run/analytic.hpp);
//   shoal_tpcc_ch_query_latency_seconds{query} (histogram): the completed queries' latency, at
//     render.hpp's response_bounds (histogram_samples.hpp);
//   shoal_tpcc_ch_queries_per_hour (gauge): completed queries x 3600 / the measured seconds so
//     far (the summary's QphH-like figure; 0 before the measurement interval).
// Thread-safety: pure.
#pragma once

#include "metrics/exposition.hpp"
#include "run_result/ch_result.hpp"

namespace tpcc::metrics {

void render_ch(exposition& e, const run::ch_totals& ch, double measured_seconds);

}  // namespace tpcc::metrics
