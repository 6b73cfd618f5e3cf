// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/ch_report.hpp: CH-benCHmark's analytic side of a result, in the summary and
// the JSON document.
//
// What: ch_summary_text is the summary's per-query table (count, failed, cancelled, p50/p90/
// p99/max in ms, rows of the last completed execution) with the totals and queries per hour
// beside tpmC; empty when no stream ran. ch_json is the document's "ch" object: {"streams",
// "completed", "failed", "cancelled", "queries_per_hour", "measured_seconds", "tpmc",
// "queries": [{"query", "title", "completed", "failed", "cancelled", "p50_ms", "p90_ms",
// "p99_ms", "max_ms", "mean_ms", "last_rows"}]}, null when no stream ran; the writer adds each
// query's "latency" histogram (json_write.cpp), which the reader reads back with the counts for
// `merge` and `compare` (docs/tpcc/ch-benchmark.md); "series": the analytic side per interval
// ([{"start_seconds", "end_seconds", "completed", "failed", "cancelled", "p90_us"}], every phase;
// "series_p90": "exact", or in a merged result "max of the merged shards' (an upper bound)")
// and "with_and_without_streams": tpmC with streams against without (report/ch_steps.hpp).
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

// The name every output gives the benchmark: "CH-benCHmark" when streams ran, else "TPC-C".
[[nodiscard]] const char* benchmark_name(const run::run_result& r) noexcept;
[[nodiscard]] std::string ch_summary_text(const run::run_result& r);
[[nodiscard]] nlohmann::json ch_json(const run::run_result& r);

}  // namespace tpcc::report
