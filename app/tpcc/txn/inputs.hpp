// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/inputs.hpp: what a terminal keys in for each transaction (clauses 2.4.1-2.8.1).
//
// What: plain values, produced by txn/generate.hpp from the terminal's random stream and
// consumed by the transaction bodies (txn/*.hpp). Keeping inputs apart from execution lets the
// input-variability audit count what was asked (rollbacks, remote lines, by-name lookups)
// whatever the database answered. Thread-safety: plain values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tpcc::txn {

struct order_line_input {
  std::int64_t i_id = 0;         // NURand(8191, 1, 100000); 100001 for the rollback line
  std::int64_t supply_w_id = 0;  // home warehouse, or a remote one (1%)
  std::int64_t quantity = 0;     // uniform 1..10
};

// Clause 2.4.1.
struct new_order_input {
  std::int64_t w_id = 0;
  std::int64_t d_id = 0;                // uniform 1..10
  std::int64_t c_id = 0;                // NURand(1023, 1, 3000)
  std::vector<order_line_input> lines;  // 5..15 lines
  bool rollback = false;                // 1%: the last line names an unused item (2.4.1.4)
  [[nodiscard]] bool all_local() const noexcept {
    for (const auto& l : lines) {
      if (l.supply_w_id != w_id) return false;
    }
    return true;
  }
};

// A customer chosen by number or by last name (60% by name), clauses 2.5.1.2 and 2.6.1.2.
struct customer_choice {
  bool by_last_name = false;
  std::int64_t c_id = 0;  // NURand(1023, 1, 3000) when by number
  std::string c_last;     // from NURand(255, 0, 999) when by name
};

// Clause 2.5.1.
struct payment_input {
  std::int64_t w_id = 0;
  std::int64_t d_id = 0;
  std::int64_t c_w_id = 0;  // home (85%) or remote (15%) warehouse
  std::int64_t c_d_id = 0;
  customer_choice customer;
  double h_amount = 0;  // uniform 1.00..5000.00
};

// Clause 2.6.1.
struct order_status_input {
  std::int64_t w_id = 0;
  std::int64_t d_id = 0;
  customer_choice customer;
};

// Clause 2.7.1.
struct delivery_input {
  std::int64_t w_id = 0;
  std::int64_t o_carrier_id = 0;  // uniform 1..10
};

// Clause 2.8.1: the terminal's fixed district.
struct stock_level_input {
  std::int64_t w_id = 0;
  std::int64_t d_id = 0;
  std::int64_t threshold = 0;  // uniform 10..20
};

}  // namespace tpcc::txn
