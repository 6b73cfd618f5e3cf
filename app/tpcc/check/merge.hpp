// SPDX-License-Identifier: Apache-2.0
// app/tpcc/check/merge.hpp: folding what a condition's statement returned for one chunk into the
// condition's result (check.hpp), and describing an offending group in words.
//
// What: plain functions over the row shape of conditions.hpp. Chunks are folded in ascending
// warehouse order, each listing its offenders in key order, so the offenders kept (the first
// max_offenders) do not depend on the chunk size.
// Thread-safety: plain functions on caller-owned values.
#pragma once

#include <cstddef>
#include <string>

#include "check/check.hpp"
#include "check/conditions.hpp"
#include "driver/statement.hpp"
#include "driver/value.hpp"

namespace tpcc::check {

// A fresh, passing result for a condition.
[[nodiscard]] condition_result start_result(const condition& c);

// Adds one chunk's counts and offenders. Throws std::logic_error when the rows do not have the
// shape of conditions.hpp (a statement bug, never data).
void fold_chunk(condition_result& into, const condition& c, const driver::statement_result& chunk,
                std::size_t max_offenders);

// Marks a condition as not evaluated because of `why`.
void fail_with(condition_result& into, const driver::outcome& why);

// "W_ID=1 D_ID=3: D_YTD=30010.00, sum(H_AMOUNT)=30000.00"
[[nodiscard]] std::string describe_offender(const condition& c, const driver::row& r);

}  // namespace tpcc::check
