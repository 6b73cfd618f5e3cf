// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_pace.hpp: --rate's figures of one window (stats/pace.hpp) as JSON, for
// the result's "rate" and each --schedule step's "pacing".
//
// What: {"offered_tpm", "window_seconds", "intended", "began", "max_lag_seconds",
// "backlog_at_start": {"behind", "oldest_seconds"}, "backlog_at_end": {...}, "kept_up"}; the
// reader (json_read.cpp) reads them back, kept_up recomputed.
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include "stats/pace.hpp"

namespace tpcc::report::detail {

/// The figures of `p` as a JSON object.
[[nodiscard]] nlohmann::json pace_json(const stats::pace_totals& p);

}  // namespace tpcc::report::detail
