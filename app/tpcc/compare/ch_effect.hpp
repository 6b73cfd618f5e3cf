// SPDX-License-Identifier: Apache-2.0
// app/tpcc/compare/ch_effect.hpp: each run's tpmC with CH-benCHmark's analytic streams against
// without them, side by side in a comparison.
//
// What: when A or B carries the effect (report/ch_steps.hpp: one --schedule with complete steps
// of streams=N > 0 and streams=0; the result's ch.with_and_without_streams), both runs' ratios
// (with / without), their tpmC with and without and their queries per hour with streams, and B's
// ratio minus A's. A side without the effect is stated, not an error: "a TPC-C run (no analytic
// streams)" or "no complete step with streams and one without". Shown, not judged: each ratio
// comes from a few step windows, not the estimators of comparison.hpp's rows.
// Thread-safety: pure functions.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "report/ch_steps.hpp"

namespace tpcc::compare {

struct ch_effect_side {
  bool ran_streams = false;                      // CH-benCHmark: analytic streams ran
  std::optional<report::ch_step_effect> effect;  // nullopt: not measured (see above)
};

struct ch_effect_comparison {
  ch_effect_side a, b;
  /// Whether there is anything to show: either run carries the effect.
  [[nodiscard]] bool shown() const noexcept { return a.effect || b.effect; }
};

[[nodiscard]] ch_effect_comparison compare_ch_effect(const run::run_result& a,
                                                     const run::run_result& b);

/// The text block ("\n  tpmC with analytic streams against without ...\n" with one line per run
/// and B's ratio against A's); empty when not shown().
[[nodiscard]] std::string ch_effect_text(const ch_effect_comparison& c);
/// {"a": {...}, "b": {...}, "ratio_difference"} (each side: report::ch_step_effect_json's object,
/// or {"not_measured": why}); null when not shown().
[[nodiscard]] nlohmann::json ch_effect_json(const ch_effect_comparison& c);
/// An <h3> and a table; empty when not shown().
[[nodiscard]] std::string ch_effect_html(const ch_effect_comparison& c);

}  // namespace tpcc::compare
