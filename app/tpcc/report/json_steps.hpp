// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/json_steps.hpp: a schedule's steps as the result document's "steps" array and
// its "knee" (report/steps.hpp).
//
// What: "steps": [{"index" (1-based), "offered_tpm", "start_seconds", "window_start_seconds",
// "end_seconds" (since the terminals started), "window_seconds", "intervals", "partial",
// "tpmc", "tpm_total", "tpm_total_ci95": [low, high] (null when unknown), "worst_p90_seconds",
// "p90_within_limits", "failed", "transactions": [{"type", "ended", "completed", "failed",
// "p90_seconds", "p99_seconds"}], "pacing": the step window's --rate figures and backlog
// (json_pace.hpp; absent in results written before it)}]; "knee": {"step" (1-based, null:
// none), "why"}. Both are written only with a schedule; the reader reads the windows and their
// "pacing" back and recomputes the rest.
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>

#include "run_result/result.hpp"

namespace tpcc::report::detail {

/// Adds "steps" and "knee" to `doc` when `r` ran a schedule.
void add_steps_json(nlohmann::json& doc, const run::run_result& r);

}  // namespace tpcc::report::detail
