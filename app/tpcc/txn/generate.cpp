// SPDX-License-Identifier: Apache-2.0
// Transaction input generation; see generate.hpp.
#include "txn/generate.hpp"

#include <cstddef>
#include <cstdint>

#include "random/strings.hpp"

namespace tpcc::txn {

namespace {

constexpr std::int64_t districts = 10;

// True with probability percent / 100.
bool chance(random::rng& r, std::int64_t percent) noexcept { return r.uniform(1, 100) <= percent; }

// Clauses 2.5.1.2 and 2.6.1.2: 60% by last name from NURand(255, 0, 999), else by number.
customer_choice choose_customer(random::rng& r, const workload_scope& scope) {
  customer_choice choice;
  choice.by_last_name = chance(r, 60);
  if (choice.by_last_name) {
    random::last_name(random::nurand(r, 255, 0, 999, scope.constants.c_last), choice.c_last);
  } else {
    choice.c_id = random::nurand(r, 1023, 1, 3000, scope.constants.c_id);
  }
  return choice;
}

// Clause 2.4.1.5: item NURand(8191, 1, 100000), 99% supplied by the home warehouse, quantity
// 1..10.
order_line_input make_line(random::rng& r, const workload_scope& scope, std::int64_t w_id) {
  order_line_input line;
  line.i_id = random::nurand(r, 8191, 1, 100000, scope.constants.ol_i_id);
  line.supply_w_id = w_id;
  if (scope.warehouses > 1 && chance(r, 1)) {
    line.supply_w_id = other_warehouse(r, scope.warehouses, w_id);
  }
  line.quantity = r.uniform(1, 10);
  return line;
}

}  // namespace

std::int64_t other_warehouse(random::rng& r, std::int64_t warehouses, std::int64_t w_id) noexcept {
  if (warehouses <= 1) return w_id;
  const std::int64_t drawn = r.uniform(1, warehouses - 1);
  return drawn >= w_id ? drawn + 1 : drawn;
}

new_order_input make_new_order(random::rng& r, const workload_scope& scope, std::int64_t w_id) {
  new_order_input input;
  input.w_id = w_id;
  input.d_id = r.uniform(1, districts);
  input.c_id = random::nurand(r, 1023, 1, 3000, scope.constants.c_id);
  const auto ol_cnt = static_cast<std::size_t>(r.uniform(5, 15));
  input.rollback = chance(r, 1);
  input.lines.reserve(ol_cnt);
  for (std::size_t i = 0; i < ol_cnt; ++i) input.lines.push_back(make_line(r, scope, w_id));
  if (input.rollback) input.lines.back().i_id = unused_item_id;
  return input;
}

payment_input make_payment(random::rng& r, const workload_scope& scope, std::int64_t w_id) {
  payment_input input;
  input.w_id = w_id;
  input.d_id = r.uniform(1, districts);
  if (scope.warehouses <= 1 || chance(r, 85)) {
    input.c_w_id = w_id;
    input.c_d_id = input.d_id;
  } else {
    input.c_w_id = other_warehouse(r, scope.warehouses, w_id);
    input.c_d_id = r.uniform(1, districts);
  }
  input.customer = choose_customer(r, scope);
  input.h_amount = static_cast<double>(r.uniform(100, 500000)) / 100.0;
  return input;
}

order_status_input make_order_status(random::rng& r, const workload_scope& scope,
                                     std::int64_t w_id) {
  order_status_input input;
  input.w_id = w_id;
  input.d_id = r.uniform(1, districts);
  input.customer = choose_customer(r, scope);
  return input;
}

delivery_input make_delivery(random::rng& r, std::int64_t w_id) {
  delivery_input input;
  input.w_id = w_id;
  input.o_carrier_id = r.uniform(1, 10);
  return input;
}

stock_level_input make_stock_level(random::rng& r, std::int64_t w_id, std::int64_t d_id) {
  stock_level_input input;
  input.w_id = w_id;
  input.d_id = d_id;
  input.threshold = r.uniform(10, 20);
  return input;
}

}  // namespace tpcc::txn
