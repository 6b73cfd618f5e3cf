// SPDX-License-Identifier: Apache-2.0
// app/tpcc/txn/generate.hpp: what a terminal keys in, drawn from its random stream
// (TPC-C clauses 2.4.1, 2.5.1, 2.6.1, 2.7.1, 2.8.1).
//
// What: one function per transaction type turning (rng, scope, home warehouse) into the input
// values of txn/inputs.hpp, with the spec's non-uniform customers and items (NURand, run
// constants), 1% rolled-back New-Orders, 1% remote order lines, 15% remote Payments and 60%
// lookups by last name. Remote warehouses are drawn uniformly among all the database's
// warehouses other than the home one; with a single warehouse nothing is remote.
// Lifetime: plain functions and values. Thread-safety: as thread-safe as the rng passed in
// (one rng per terminal).
#pragma once

#include <cstdint>

#include "random/nurand.hpp"
#include "random/rng.hpp"
#include "txn/inputs.hpp"

namespace tpcc::txn {

// What every draw needs to know about the run.
struct workload_scope {
  std::int64_t warehouses = 1;         // ALL warehouses of the database (remote ones come from all)
  random::nurand_constants constants;  // the run's C values (random::run_constants)
};

// Item ids 1..100000 exist; this one never does (the 1% rollback, clause 2.4.1.4).
inline constexpr std::int64_t unused_item_id = 100001;

// Clause 2.4.1: district, customer, 5..15 lines; 1% roll back on an unused last item.
[[nodiscard]] new_order_input make_new_order(random::rng& r, const workload_scope& scope,
                                             std::int64_t w_id);

// Clause 2.5.1: 85% home customer, 15% remote; 60% by last name; amount 1.00..5000.00.
[[nodiscard]] payment_input make_payment(random::rng& r, const workload_scope& scope,
                                         std::int64_t w_id);

// Clause 2.6.1: a home-warehouse customer, 60% by last name.
[[nodiscard]] order_status_input make_order_status(random::rng& r, const workload_scope& scope,
                                                   std::int64_t w_id);

// Clause 2.7.1: carrier 1..10.
[[nodiscard]] delivery_input make_delivery(random::rng& r, std::int64_t w_id);

// Clause 2.8.1: the terminal's fixed district, threshold 10..20.
[[nodiscard]] stock_level_input make_stock_level(random::rng& r, std::int64_t w_id,
                                                 std::int64_t d_id);

// A warehouse other than w_id, uniform over 1..warehouses; w_id itself when it is the only one.
[[nodiscard]] std::int64_t other_warehouse(random::rng& r, std::int64_t warehouses,
                                           std::int64_t w_id) noexcept;

}  // namespace tpcc::txn
