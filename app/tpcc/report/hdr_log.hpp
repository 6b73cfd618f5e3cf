// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/hdr_log.hpp: a run's series as an HdrHistogram interval log (--hdr-log FILE),
// so standard tools (HistogramLogProcessor, HdrHistogram's plotters, jHiccup's tooling) read it.
//
// What: a "#[Histogram log format version 1.3]" line, "#[StartTime: ...]" and
// "#[BaseTime: ...]" (the wall-clock moment the terminals started, seconds since the epoch),
// the legend, then for every interval of run_result::series and every transaction type, three
// tagged lines, one per latency view:
//   Tag=NewOrder-response,START,LENGTH,MAX,BASE64
// (tags NewOrder, Payment, OrderStatus, Delivery, StockLevel; views response, queued, service).
// START is relative to BaseTime and LENGTH is in seconds; MAX is in milliseconds; the
// histogram's values are microseconds (report/hdr_encode.hpp: the mapping from our buckets).
// Intervals of every phase are written (warm-up and drain too): select the measurement
// interval by time. Works for a merged run_result as for one process's.
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

[[nodiscard]] std::string format_hdr_log(const run::run_result& r);
// nullopt when written; otherwise the error, naming the path.
[[nodiscard]] std::optional<std::string> write_hdr_log(const run::run_result& r,
                                                       const std::string& path);

}  // namespace tpcc::report
