// SPDX-License-Identifier: Apache-2.0
// app/tpcc/stats/outcomes.hpp: how a transaction ended, as the reports count it, and the one
// table every report, the JSON reader and writer, the merge and the dashboard iterate.
//
// What: every transaction a terminal or deliverer submits ends in exactly one outcome:
//   committed         committed on its first attempt;
//   retried           committed after one or more retries (serialization failure, deadlock);
//   rolled_back       rolled back by the spec (New-Order's unused item, clause 2.4.2.3);
//   failed_retries    failed: every attempt was refused for concurrency (retries exhausted);
//   failed            failed: a non-retryable error (permission, constraint, trigger, bug...);
//   lost              the connection or a node of the database was lost mid-transaction;
//   abandoned         cut short by the run's own shutdown (the drain bound ran out).
// The first three are "completed" (clause 5.4.2 counts the spec's rollbacks as completed
// New-Orders; response-time percentiles cover completed transactions only); the last four are
// failures, counted apart with their own latency. `outcome_counts` holds one count per
// outcome; `outcome_table` names each for text (`label`) and JSON (`key`).
// Thread-safety: constants and plain values.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "driver/outcome.hpp"

namespace tpcc::stats {

enum class txn_outcome : std::uint8_t {
  committed,
  retried,
  rolled_back,
  failed_retries,
  failed,
  lost,
  abandoned
};

inline constexpr std::size_t outcome_count = 7;

struct outcome_info {
  txn_outcome outcome;
  std::string_view key;    // the JSON field
  std::string_view label;  // the text reports' column
  bool completed;          // counts as a completed transaction
};

inline constexpr std::array<outcome_info, outcome_count> outcome_table{{
    {txn_outcome::committed, "committed", "committed", true},
    {txn_outcome::retried, "retried_committed", "retried", true},
    {txn_outcome::rolled_back, "rolled_back", "rollback", true},
    {txn_outcome::failed_retries, "failed_retries_exhausted", "exhaust", false},
    {txn_outcome::failed, "failed", "failed", false},
    {txn_outcome::lost, "lost", "lost", false},
    {txn_outcome::abandoned, "abandoned", "abandon", false},
}};

[[nodiscard]] constexpr std::size_t index(txn_outcome o) noexcept {
  return static_cast<std::size_t>(o);
}

// The outcome of a transaction whose last attempt ended with `status` after `retries`
// retries; `abandoned` when the run's shutdown cut it short.
[[nodiscard]] constexpr txn_outcome classify(driver::outcome_kind status, int retries,
                                             bool abandoned) noexcept {
  switch (status) {
    case driver::outcome_kind::ok:
      return retries > 0 ? txn_outcome::retried : txn_outcome::committed;
    case driver::outcome_kind::rolled_back:
      return txn_outcome::rolled_back;
    default:
      break;
  }
  if (abandoned) return txn_outcome::abandoned;
  switch (status) {
    case driver::outcome_kind::retryable:
      return txn_outcome::failed_retries;
    case driver::outcome_kind::connection_lost:
    case driver::outcome_kind::node_lost:
      return txn_outcome::lost;
    default:
      return txn_outcome::failed;
  }
}

// One count per outcome.
struct outcome_counts {
  std::array<std::uint64_t, outcome_count> n{};

  [[nodiscard]] std::uint64_t& operator[](txn_outcome o) noexcept { return n[index(o)]; }
  [[nodiscard]] std::uint64_t operator[](txn_outcome o) const noexcept { return n[index(o)]; }

  // Committed (first try or after retries) plus the spec's rollbacks.
  [[nodiscard]] std::uint64_t completed() const noexcept {
    std::uint64_t sum = 0;
    for (const outcome_info& i : outcome_table) sum += i.completed ? n[index(i.outcome)] : 0;
    return sum;
  }
  // Committed, first try or after retries.
  [[nodiscard]] std::uint64_t committed() const noexcept {
    return (*this)[txn_outcome::committed] + (*this)[txn_outcome::retried];
  }
  // Every outcome that is not completed.
  [[nodiscard]] std::uint64_t failures() const noexcept { return total() - completed(); }
  [[nodiscard]] std::uint64_t total() const noexcept {
    std::uint64_t sum = 0;
    for (const std::uint64_t c : n) sum += c;
    return sum;
  }

  outcome_counts& operator+=(const outcome_counts& o) noexcept {
    for (std::size_t i = 0; i < outcome_count; ++i) n[i] += o.n[i];
    return *this;
  }
  // `later - earlier` of two snapshots of the same monotonic counts.
  [[nodiscard]] friend outcome_counts operator-(const outcome_counts& later,
                                                const outcome_counts& earlier) noexcept {
    outcome_counts d;
    for (std::size_t i = 0; i < outcome_count; ++i) d.n[i] = later.n[i] - earlier.n[i];
    return d;
  }
  friend bool operator==(const outcome_counts&, const outcome_counts&) = default;
};

}  // namespace tpcc::stats
