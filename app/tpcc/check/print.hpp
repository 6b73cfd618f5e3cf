// SPDX-License-Identifier: Apache-2.0
// app/tpcc/check/print.hpp: the consistency report as text.
//
// What: one line per condition, its clause, its relationship padded with dots, and its verdict:
//   3.3.2.1   W_YTD = sum(D_YTD) ................................. PASS (20 checked, 3.1 ms)
//   3.3.2.9   D_YTD = sum(H_AMOUNT) .............................. FAIL (2 of 20, 1.25 s)
//       W_ID=1 D_ID=3: D_YTD=24.30, sum(H_AMOUNT)=23.15
// The time is the condition's duration (check.hpp), left out when it is zero (it did not run).
// A failed condition is followed by its offenders (as many as were kept, check_options::
// max_offenders) indented, and "... and N more" when there were more; a condition that could
// not be evaluated reads ERROR with the reason; one not applicable reads N/A.
// Thread-safety: plain functions.
#pragma once

#include <string>
#include <vector>

#include "check/check.hpp"

namespace tpcc::check {

[[nodiscard]] std::string format_results(const std::vector<condition_result>& results);

// True when every applicable condition was evaluated and passed.
[[nodiscard]] bool all_passed(const std::vector<condition_result>& results);

}  // namespace tpcc::check
