// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/endpoint_render.hpp: each endpoint of a run over several on the metrics
// endpoint.
//
// What: render_endpoints() appends, when the run has several endpoints (run/endpoints.hpp):
//   shoal_tpcc_endpoint_transactions_total{endpoint,type,outcome}: transactions ended on the
//     endpoint since the terminals started (every phase);
//   shoal_tpcc_endpoint_measured_transactions_total{endpoint,type,outcome}: those ended inside
//     the measurement interval;
//   shoal_tpcc_endpoint_response_time_seconds{endpoint,type,percentile}: p90 and p99
//   (percentile="p90", "p99") of the
//     completed ones' response time since the terminals started (a gauge: a percentile of a
//     histogram the run keeps, not a summary Prometheus could aggregate).
// `endpoint` is the endpoint's target as every output names it (password redacted).
// Thread-safety: pure.
#pragma once

#include <vector>

#include "metrics/exposition.hpp"
#include "run/run.hpp"

namespace tpcc::metrics {

void render_endpoints(exposition& e, const std::vector<run::endpoint_totals>& endpoints);

}  // namespace tpcc::metrics
