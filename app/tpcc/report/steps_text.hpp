// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/steps_text.hpp: a schedule's steps in the text summary: one row per step
// (offered, achieved tpmTotal with its 95 % interval, tpmC, New-Order's and the worst p90, the
// worst p99, the verdict's subset, whether the database kept up with a paced step's rate: its
// backlog) and the knee named below them (report/steps.hpp).
// Thread-safety: pure functions.
#pragma once

#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

/// The summary's steps block; empty without a schedule.
[[nodiscard]] std::string steps_summary_lines(const run::run_result& r);

}  // namespace tpcc::report
