// SPDX-License-Identifier: Apache-2.0
// app/tpcc/driver/sim/answers.hpp: what the simulated database answers to each statement.
//
// What: `answer(call, world, draws)` gives the result a loaded TPC-C database would plausibly
// give, keyed by the statement's name (driver/statement.hpp: names are unique): the right
// columns in SELECT / RETURNING order with values of the declared types, the rows affected by
// writes, and no rows where a real database would find none:
//   - New-Order: every item 1..100000 exists, any other id (the intended 1% unused item) finds
//     no row, so the transaction rolls back as clause 2.4.2.3 asks;
//   - Delivery finds an undelivered order in every district and updates its rows;
//   - by-name lookups find 1..5 customers; Order-Status finds an order with 5..15 lines;
//   - the load bookkeeping (tpcc_meta, tpcc_loaded) describes a complete load of
//     world.warehouses warehouses.
// A statement it does not know fails with a message naming it (the simulation covers the
// five transactions and the run's meta read, nothing else). Nothing is stored: writes change
// nothing, so consecutive reads need not agree.
//
// Thread-safety: plain functions; `draws` belongs to one session.
#pragma once

#include <cstdint>

#include "driver/statement.hpp"

namespace tpcc::driver::sim {

struct world {
  std::int64_t warehouses = 1;
};

// A small generator for plausible values (splitmix64); one per session.
class draws {
 public:
  explicit draws(std::uint64_t seed) noexcept : state_(seed) {}
  std::uint64_t next() noexcept {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30U)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27U)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31U);
  }
  // Uniform-ish in [lo, hi] (modulo bias is irrelevant for plausible values).
  std::int64_t between(std::int64_t lo, std::int64_t hi) noexcept {
    return lo + static_cast<std::int64_t>(next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  double fraction() noexcept { return static_cast<double>(next() >> 11U) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

[[nodiscard]] statement_result answer(const call& c, const world& w, draws& d);

}  // namespace tpcc::driver::sim
