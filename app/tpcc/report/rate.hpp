// SPDX-License-Identifier: Apache-2.0
// app/tpcc/report/rate.hpp: what every report says about a `run --rate` run: its mode (not
// TPC-C), offered against achieved, and whether the database kept up.
//
// What: the achieved rate is every transaction that ended in the measurement window (any type,
// any outcome) per minute; the offered one is --rate as asked, beside the intended starts the
// window held. The database kept up unless the backlog grew over the window
// (stats::pace_totals::grew): then the backlog is named with its size (intended starts behind
// at the window's end, the oldest's lag) against the window's start. Results without --rate
// get empty strings. Thread-safety: pure functions.
#pragma once

#include <string>

#include "run_result/result.hpp"

namespace tpcc::report {

/// Every transaction ended in the window, per minute; 0 when nothing was measured.
[[nodiscard]] double achieved_tpm(const run::run_result& r);

/// "NOT TPC-C: --rate 60000 tpm (Poisson arrivals instead of keying and think times)"; empty
/// when not paced.
[[nodiscard]] std::string rate_mode_text(const run::run_result& r);

/// One sentence: offered against achieved and whether the database kept up, the backlog named
/// when it grew; empty when not paced.
[[nodiscard]] std::string rate_outcome_text(const run::run_result& r);

/// The text summary's lines (`  rate ...`, and `  BACKLOG ...` when it grew); empty when not
/// paced.
[[nodiscard]] std::string rate_summary_lines(const run::run_result& r);

}  // namespace tpcc::report
