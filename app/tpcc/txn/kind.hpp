// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/kind.hpp: the five TPC-C transaction types and their fixed per-type figures.
//
// What: the mix percentages (clause 5.2.3, as the deck of clause 5.2.4.2 deals them), the
// keying times (5.2.5.7), the mean think times (5.2.5.4) and the 90th-percentile response-time
// limits (5.2.5.3), indexed by `kind`; the deferred Delivery's completion limit (2.7.2.2).
// Thread-safety: constants.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

namespace tpcc::txn {

enum class kind : std::uint8_t { new_order, payment, order_status, delivery, stock_level };

inline constexpr std::size_t kind_count = 5;
inline constexpr std::array<kind, kind_count> all_kinds{
    kind::new_order, kind::payment, kind::order_status, kind::delivery, kind::stock_level};

[[nodiscard]] constexpr std::size_t index(kind k) noexcept { return static_cast<std::size_t>(k); }

[[nodiscard]] constexpr std::string_view name(kind k) noexcept {
  constexpr std::array<std::string_view, kind_count> names{"New-Order", "Payment", "Order-Status",
                                                           "Delivery", "Stock-Level"};
  return names[index(k)];
}

// Cards per type in one 100-card deck: exactly 45/43/4/4/4 %.
inline constexpr std::array<int, kind_count> deck_cards{45, 43, 4, 4, 4};
// Keying time, seconds (clause 5.2.5.7).
inline constexpr std::array<double, kind_count> keying_seconds{18, 3, 2, 2, 2};
// Mean think time, seconds (clause 5.2.5.4); the draw is truncated at 10x the mean.
inline constexpr std::array<double, kind_count> think_mean_seconds{12, 12, 10, 5, 5};
// 90th-percentile response-time limit, seconds (clause 5.2.5.3). Delivery's is the terminal's
// part of it, queueing the deferred Delivery (clause 2.7.2.2); its completion has its own rule
// below. The one table every output reads (verdict, summary, HTML, dashboard).
inline constexpr std::array<double, kind_count> p90_limit_seconds{5, 5, 5, 5, 20};
// The deferred Delivery: at least 90 % of those queued must complete within 80 s of being queued
// (clauses 2.7.2.2 and 5.2.5.3).
inline constexpr double deferred_delivery_limit_seconds = 80;
inline constexpr double deferred_delivery_on_time_share = 0.90;

}  // namespace tpcc::txn
