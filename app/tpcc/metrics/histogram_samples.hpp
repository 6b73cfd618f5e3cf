// SPDX-License-Identifier: Apache-2.0
// app/tpcc/metrics/histogram_samples.hpp: one series of a Prometheus histogram family from the
// run's own log-linear histogram.
//
// What: histogram_samples() writes `name`_bucket{series, le} cumulative at render.hpp's
// response_bounds and at +Inf (== the count), `name`_sum and `name`_count (seconds), for one
// series (its label: `type` for a transaction type, `query` for an analytic query). The
// family's HELP and TYPE lines are the caller's (exposition::family before the first series).
// A bucket may hold values up to 3.1 % above its bound (stats/histogram.hpp's bucket width).
// Thread-safety: pure.
#pragma once

#include <string_view>

#include "metrics/exposition.hpp"
#include "stats/histogram.hpp"

namespace tpcc::metrics {

void histogram_samples(exposition& e, std::string_view name, label series,
                       const stats::histogram& h);

}  // namespace tpcc::metrics
