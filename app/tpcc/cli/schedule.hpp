// SPDX-License-Identifier: Apache-2.0
// app/tpcc/cli/schedule.hpp: `run --schedule STEPS`, `--sweep FROM:TO:STEPS[:DURATION]` and
// `--knee-p90 DURATION` read and checked.
//
// What: --schedule is a comma-separated list of rate steps, each `[rate=]TPM:DURATION`
// ("rate=30000:60s,rate=60000:60s" or "30000:60s,60000:60s"): an offered rate in transactions
// per minute (above 0, at most 10^9) and a positive duration, optionally `:streams=N` (0 to
// 1000): how many of CH-benCHmark's analytic streams run in the step (at most
// --analytic-streams; without it, all of them). --sweep FROM:TO:STEPS[:DURATION]
// is the same as STEPS evenly spaced rates from FROM to TO (FROM < TO, 2 to 100 steps), each
// DURATION long (default 60s). At most max_schedule_steps steps and 24 h in all. Steps of
// terminals per warehouse (`tpw=`) are refused: a run's terminal set is fixed. The steps replace
// --rate, --no-wait, --wait-scale and --duration (their sum is the measurement interval).
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cli/config.hpp"

namespace tpcc::cli {

inline constexpr std::size_t max_schedule_steps = 100;

/// The steps of `text` (--schedule), or what is wrong with it ("step 2 ('x') expects ...").
[[nodiscard]] std::variant<std::vector<schedule_step>, std::string> parse_schedule(
    std::string_view text);

/// The steps of `text` (--sweep), or what is wrong with it.
[[nodiscard]] std::variant<std::vector<schedule_step>, std::string> parse_sweep(
    std::string_view text);

/// What the rest of the command line contradicts in a schedule (--rate, --no-wait,
/// --wait-scale, --duration given with it; a step's streams=N above --analytic-streams; --knee-p90
/// without one; a step whose window, without its settle time, holds fewer than two --interval);
/// nullopt when nothing.
[[nodiscard]] std::optional<std::string> schedule_conflict(const config& c);

/// The highest rate of `steps`; 0 for none.
[[nodiscard]] double peak_schedule_rate(const std::vector<schedule_step>& steps) noexcept;

}  // namespace tpcc::cli
