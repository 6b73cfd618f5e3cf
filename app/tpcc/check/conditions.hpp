// SPDX-License-Identifier: Apache-2.0
// app/tpcc/check/conditions.hpp: the twelve conditions of clause 3.3.2 as statements.
//
// What: one `condition` per clause 3.3.2.N, in clause order: its statement and how to read what
// the statement returns. Every statement takes $1 the first and $2 the last warehouse of a
// chunk, $3 the most offending groups to return, and (condition 11 only) $4 the orders per
// district the population delivered. Every statement returns the same shape of rows:
//   kind 0 (exactly one row): k1 = groups examined, k2 = groups that break the condition;
//   kind 1 (at most $3 rows, ordered by key): one offending group, keys k1..k4 (0 when unused)
//          and the compared values v1..v3 (v3 NULL when unused).
// Columns, in order: kind, k1, k2, k3, k4, v1, v2, v3.
//
// Lifetime: the statements are static (drivers key their prepared handles by address).
// Thread-safety: immutable after first use (a function-local static).
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include "driver/statement.hpp"

namespace tpcc::check {

// How the compared values read in an offender's description.
enum class shown : unsigned char { count, money, flag };

struct condition {
  std::string_view clause;  // "3.3.2.1"
  std::string_view title;
  const driver::statement* stmt = nullptr;
  std::array<std::string_view, 4> keys;    // labels of k1..k4; empty: unused
  std::array<std::string_view, 3> values;  // labels of v1..v3; empty: unused
  shown as = shown::count;
  bool needs_population = false;  // takes $4 (condition 11)
};

// Column positions in every row a condition statement returns.
inline constexpr std::size_t kind_column = 0;
inline constexpr std::size_t first_key_column = 1;
inline constexpr std::size_t first_value_column = 5;
inline constexpr std::size_t column_count = 8;

// The twelve conditions, clause order.
[[nodiscard]] std::span<const condition> conditions();

}  // namespace tpcc::check
