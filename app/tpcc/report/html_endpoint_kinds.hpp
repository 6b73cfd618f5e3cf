// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/html_endpoint_kinds.hpp: each endpoint's throughput per transaction type over
// time, in the HTML report of a run over several endpoints (run_result::endpoints).
//
// What: endpoint_kinds_figure() is one <figure id="endpoint-types">: a small chart per endpoint
// (headed by its target and warehouses) with a line per type, that type's transactions
// committed or rolled back per minute over the run (its series' per-type counts, every phase,
// the phases shaded), every chart on the same y scale so that the nodes compare at a glance;
// one legend of the five types hides or shows a type in all of them. Empty with one endpoint
// or no series. endpoint_per_minute() is the points of one such line (or of all types),
// shared with the per-endpoint chart (html_endpoints.hpp). Every string is escaped.
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "report/html_chart.hpp"
#include "report/html_data.hpp"
#include "run_result/result.hpp"
#include "stats/series.hpp"

namespace tpcc::report::html {

// Completed transactions per minute of `s` (of type `kind`, a txn::index; of every type when
// `kind` is txn::kind_count), over groups of `per` intervals, at each group's middle.
[[nodiscard]] std::vector<point> endpoint_per_minute(const std::vector<stats::endpoint_interval>& s,
                                                     std::size_t per, std::size_t kind);

[[nodiscard]] std::string endpoint_kinds_figure(const run::run_result& r, const phases& p);

}  // namespace tpcc::report::html
