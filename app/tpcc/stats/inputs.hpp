// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/inputs.hpp: the one table of the input-variability counters (what the
// terminals keyed in, stats::input_counts), which the JSON writer and reader and the merge
// iterate instead of naming each counter.
//
// What: `input_counter_table` names each counter for JSON (`key`) and points at its field;
// `think_seconds`, `think_relative` and the thinks' lateness, sums rather than counts, and
// `think_censored`, absent from older results, are outside it (their own keys). Thread-safety:
// constants.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "stats/recorder.hpp"

namespace tpcc::stats {

struct input_counter {
  std::string_view key;  // the JSON field
  std::uint64_t input_counts::* field;
};

inline constexpr std::array<input_counter, 10> input_counter_table{{
    {"new_orders", &input_counts::new_orders},
    {"order_lines", &input_counts::order_lines},
    {"remote_lines", &input_counts::remote_lines},
    {"rollbacks_asked", &input_counts::rollbacks_asked},
    {"payments", &input_counts::payments},
    {"remote_payments", &input_counts::remote_payments},
    {"payments_by_name", &input_counts::payments_by_name},
    {"order_statuses", &input_counts::order_statuses},
    {"order_statuses_by_name", &input_counts::order_statuses_by_name},
    {"think_times", &input_counts::think_times},
}};
inline constexpr std::string_view think_seconds_key = "think_seconds";
// Also outside it, as written since the thinks are counted by start (older results lack them).
inline constexpr std::string_view think_censored_key = "think_censored";
inline constexpr std::string_view think_relative_key = "think_relative";
// Also outside it, as written since each think's timer lateness is counted.
inline constexpr std::string_view think_late_seconds_key = "think_late_seconds";
inline constexpr std::string_view think_late_relative_key = "think_late_relative";

// a += b, counter by counter.
inline void add(input_counts& a, const input_counts& b) noexcept {
  for (const input_counter& c : input_counter_table) a.*c.field += b.*c.field;
  a.think_seconds += b.think_seconds;
  a.think_censored += b.think_censored;
  a.think_relative += b.think_relative;
  a.think_late_seconds += b.think_late_seconds;
  a.think_late_relative += b.think_late_relative;
}

}  // namespace tpcc::stats
