// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/ch_steps.hpp: tpmC with CH-benCHmark's analytic streams against tpmC without
// them, when one --schedule has steps of both (a step's streams=N, run_result/steps.hpp).
//
// What: the steps are split by whether analytic streams ran in them (N > 0) or not (N = 0);
// each side's tpmC is its steps' completed New-Orders over their windows' minutes added up
// (report/steps.hpp: each step's window without its settle time; partial steps left out), and
// the ratio is with / without: 0.8 means the streams cost the terminals a fifth of their tpmC.
// The analytic side's queries per hour are taken over the same windows of the steps with
// streams, from the analytic series (run_result/ch_result.hpp: intervals inside a window).
// Thread-safety: pure functions.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

struct ch_step_effect {
  double tpmc_without = 0, tpmc_with = 0;
  std::size_t steps_without = 0, steps_with = 0;
  double queries_per_hour_with = 0;  // the analytic side over the steps with streams
  [[nodiscard]] double ratio() const noexcept {
    return tpmc_without > 0 ? tpmc_with / tpmc_without : 0.0;
  }
};

/// The effect in `r`; nullopt unless streams ran and its schedule has a complete step of each
/// kind.
[[nodiscard]] std::optional<ch_step_effect> ch_step_effect_of(const run::run_result& r);
/// One line for the summary ("  tpmC with streams 1234.5 (2 steps) against 1500.0 without
/// (1 step): 0.82x; ..."), ending in a newline; empty when there is no effect.
[[nodiscard]] std::string ch_step_effect_text(const run::run_result& r);
/// {"tpmc_without_streams", "tpmc_with_streams", "ratio", "steps_without", "steps_with",
/// "queries_per_hour_with_streams"}; null when there is no effect.
[[nodiscard]] nlohmann::json ch_step_effect_json(const run::run_result& r);
/// The same object for an effect already computed.
[[nodiscard]] nlohmann::json ch_step_effect_json(const ch_step_effect& e);

}  // namespace tpcc::report
