// SPDX-License-Identifier: Apache-2.0
// Transaction inputs (clauses 2.4.1-2.8.1): ranges, the spec's percentages within the
// input-variability tolerances, NURand with the run constants, nothing remote with one
// warehouse.
#include "txn/generate.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "random/nurand.hpp"
#include "random/rng.hpp"
#include "random/strings.hpp"
#include "statistics.hpp"

namespace {

using tpcc::random::rng;
using tpcc::random::testing::chi_square;
using tpcc::random::testing::chi_square_critical;
using tpcc::random::testing::nurand_mass;
using tpcc::txn::make_delivery;
using tpcc::txn::make_new_order;
using tpcc::txn::make_order_status;
using tpcc::txn::make_payment;
using tpcc::txn::make_stock_level;
using tpcc::txn::other_warehouse;
using tpcc::txn::unused_item_id;
using tpcc::txn::workload_scope;

workload_scope scope_of(std::int64_t warehouses) {
  workload_scope scope;
  scope.warehouses = warehouses;
  scope.constants.c_last = 157;
  scope.constants.c_id = 259;
  scope.constants.ol_i_id = 7911;
  return scope;
}

struct new_order_tally {
  std::int64_t orders = 0;
  std::int64_t lines = 0;
  std::int64_t remote_lines = 0;
  std::int64_t rollbacks = 0;
  std::int64_t out_of_range = 0;  // fields outside their clause 2.4.1 ranges
  std::set<std::int64_t> remote_warehouses;
  std::vector<std::int64_t> c_ids = std::vector<std::int64_t>(3000, 0);
};

bool within(std::int64_t v, std::int64_t lo, std::int64_t hi) { return v >= lo && v <= hi; }

// Plain counting rather than an assertion per field keeps 10^6 lines fast under sanitizers.
void tally_lines(const tpcc::txn::new_order_input& in, new_order_tally& t,
                 std::int64_t warehouses) {
  for (std::size_t i = 0; i < in.lines.size(); ++i) {
    const auto& line = in.lines[i];
    const bool rollback_line = in.rollback && i + 1 == in.lines.size();
    const bool item_ok = rollback_line ? line.i_id == unused_item_id : within(line.i_id, 1, 100000);
    const bool ok =
        item_ok && within(line.supply_w_id, 1, warehouses) && within(line.quantity, 1, 10);
    t.out_of_range += ok ? 0 : 1;
    ++t.lines;
    if (line.supply_w_id != in.w_id) {
      ++t.remote_lines;
      t.remote_warehouses.insert(line.supply_w_id);
    }
  }
}

void tally_new_order(const tpcc::txn::new_order_input& in, new_order_tally& t,
                     std::int64_t warehouses) {
  const bool ok = within(in.d_id, 1, 10) && within(in.c_id, 1, 3000) &&
                  within(static_cast<std::int64_t>(in.lines.size()), 5, 15);
  t.out_of_range += ok ? 0 : 1;
  if (!ok) return;
  ++t.orders;
  ++t.c_ids[static_cast<std::size_t>(in.c_id - 1)];
  t.rollbacks += in.rollback ? 1 : 0;
  tally_lines(in, t, warehouses);
}

new_order_tally new_orders(std::uint64_t seed, std::int64_t warehouses, std::int64_t w_id,
                           int count) {
  rng r{seed};
  const auto scope = scope_of(warehouses);
  new_order_tally t;
  for (int i = 0; i < count; ++i) {
    const auto in = make_new_order(r, scope, w_id);
    t.out_of_range += in.w_id == w_id ? 0 : 1;
    tally_new_order(in, t, warehouses);
  }
  return t;
}

double ratio(std::int64_t part, std::int64_t whole) {
  return static_cast<double>(part) / static_cast<double>(whole);
}

TEST(txn_generate, NewOrderMatchesTheSpecifiedMix) {
  const auto t = new_orders(501, 10, 4, 200000);
  EXPECT_EQ(t.out_of_range, 0);
  EXPECT_GE(ratio(t.lines, t.orders), 9.95);
  EXPECT_LE(ratio(t.lines, t.orders), 10.05);
  EXPECT_GE(ratio(t.remote_lines, t.lines), 0.009);
  EXPECT_LE(ratio(t.remote_lines, t.lines), 0.011);
  EXPECT_GE(ratio(t.rollbacks, t.orders), 0.009);
  EXPECT_LE(ratio(t.rollbacks, t.orders), 0.011);
  EXPECT_EQ(t.remote_warehouses, (std::set<std::int64_t>{1, 2, 3, 5, 6, 7, 8, 9, 10}));
}

TEST(txn_generate, NewOrderCustomerFollowsNurandWithTheRunConstant) {
  const auto t = new_orders(503, 10, 1, 200000);
  EXPECT_EQ(t.out_of_range, 0);
  const auto mass = nurand_mass(1023, 1, 3000, scope_of(10).constants.c_id);
  EXPECT_LT(chi_square(t.c_ids, mass), chi_square_critical(2999));
  const auto other_c = nurand_mass(1023, 1, 3000, 0);
  EXPECT_GT(chi_square(t.c_ids, other_c), 2 * chi_square_critical(2999));
}

TEST(txn_generate, NewOrderItemsFollowNurandWithTheRunConstant) {
  rng r{505};
  const auto scope = scope_of(1);
  std::vector<std::int64_t> counts(100000, 0);
  for (int i = 0; i < 100000; ++i) {
    const auto in = make_new_order(r, scope, 1);
    for (const auto& line : in.lines) {
      if (line.i_id != unused_item_id) ++counts[static_cast<std::size_t>(line.i_id - 1)];
    }
  }
  const auto mass = nurand_mass(8191, 1, 100000, scope.constants.ol_i_id);
  EXPECT_LT(chi_square(counts, mass), chi_square_critical(99999));
}

TEST(txn_generate, OneWarehouseMeansNothingIsRemote) {
  const auto t = new_orders(507, 1, 1, 50000);
  EXPECT_EQ(t.out_of_range, 0);
  EXPECT_EQ(t.remote_lines, 0);
  rng r{509};
  const auto scope = scope_of(1);
  for (int i = 0; i < 50000; ++i) {
    const auto in = make_payment(r, scope, 1);
    ASSERT_EQ(in.c_w_id, 1);
    ASSERT_EQ(in.c_d_id, in.d_id);
  }
}

TEST(txn_generate, OtherWarehouseIsUniformOverTheOthers) {
  rng r{511};
  std::vector<std::int64_t> counts(5, 0);
  for (int i = 0; i < 100000; ++i) {
    const auto w = other_warehouse(r, 5, 3);
    ASSERT_NE(w, 3);
    ASSERT_GE(w, 1);
    ASSERT_LE(w, 5);
    ++counts[static_cast<std::size_t>(w - 1)];
  }
  const std::vector<double> mass{0.25, 0.25, 0.0, 0.25, 0.25};
  EXPECT_LT(chi_square(counts, mass), chi_square_critical(3));
  EXPECT_EQ(other_warehouse(r, 1, 1), 1);
}

struct customer_tally {
  std::int64_t by_name = 0;
  std::map<std::string, std::int64_t> names;
};

void tally_customer(const tpcc::txn::customer_choice& c, customer_tally& t) {
  if (c.by_last_name) {
    ++t.by_name;
    ++t.names[c.c_last];
    EXPECT_EQ(c.c_id, 0);
  } else {
    EXPECT_GE(c.c_id, 1);
    EXPECT_LE(c.c_id, 3000);
    EXPECT_TRUE(c.c_last.empty());
  }
}

// The last names drawn match NURand(255, 0, 999) with the run's C_LAST, mapped through
// last_name (each number names one distinct last name).
void expect_last_names_follow_nurand(const customer_tally& t, std::int64_t c_last) {
  const auto mass = nurand_mass(255, 0, 999, c_last);
  std::vector<std::int64_t> counts(1000, 0);
  for (std::int64_t n = 0; n < 1000; ++n) {
    const auto it = t.names.find(tpcc::random::last_name(n));
    counts[static_cast<std::size_t>(n)] = it == t.names.end() ? 0 : it->second;
  }
  std::int64_t total = 0;
  for (const auto c : counts) total += c;
  EXPECT_EQ(total, t.by_name);  // every name drawn is one of the 1000
  EXPECT_LT(chi_square(counts, mass), chi_square_critical(999));
}

TEST(txn_generate, PaymentMatchesTheSpecifiedMix) {
  rng r{513};
  const auto scope = scope_of(10);
  constexpr int count = 200000;
  std::int64_t remote = 0;
  double amount = 0;
  customer_tally customers;
  for (int i = 0; i < count; ++i) {
    const auto in = make_payment(r, scope, 7);
    ASSERT_EQ(in.w_id, 7);
    ASSERT_GE(in.d_id, 1);
    ASSERT_LE(in.d_id, 10);
    ASSERT_GE(in.c_d_id, 1);
    ASSERT_LE(in.c_d_id, 10);
    if (in.c_w_id != in.w_id) {
      ++remote;
    } else {
      ASSERT_EQ(in.c_d_id, in.d_id);
    }
    ASSERT_GE(in.h_amount, 1.0);
    ASSERT_LE(in.h_amount, 5000.0);
    ASSERT_NEAR(in.h_amount * 100, std::round(in.h_amount * 100), 1e-6);  // whole cents
    amount += in.h_amount;
    tally_customer(in.customer, customers);
  }
  EXPECT_NEAR(ratio(remote, count), 0.15, 0.01);
  EXPECT_NEAR(ratio(customers.by_name, count), 0.60, 0.01);
  EXPECT_NEAR(amount / count, 2500.5, 25);
  expect_last_names_follow_nurand(customers, scope.constants.c_last);
}

TEST(txn_generate, OrderStatusMatchesTheSpecifiedMix) {
  rng r{515};
  const auto scope = scope_of(3);
  constexpr int count = 200000;
  customer_tally customers;
  for (int i = 0; i < count; ++i) {
    const auto in = make_order_status(r, scope, 2);
    ASSERT_EQ(in.w_id, 2);
    ASSERT_GE(in.d_id, 1);
    ASSERT_LE(in.d_id, 10);
    tally_customer(in.customer, customers);
  }
  EXPECT_NEAR(ratio(customers.by_name, count), 0.60, 0.01);
  expect_last_names_follow_nurand(customers, scope.constants.c_last);
}

TEST(txn_generate, DeliveryAndStockLevelDrawTheirRanges) {
  rng r{517};
  std::set<std::int64_t> carriers;
  std::set<std::int64_t> thresholds;
  for (int i = 0; i < 10000; ++i) {
    const auto delivery = make_delivery(r, 5);
    ASSERT_EQ(delivery.w_id, 5);
    carriers.insert(delivery.o_carrier_id);
    const auto stock = make_stock_level(r, 5, 8);
    ASSERT_EQ(stock.w_id, 5);
    ASSERT_EQ(stock.d_id, 8);
    thresholds.insert(stock.threshold);
  }
  EXPECT_EQ(carriers, (std::set<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  EXPECT_EQ(thresholds, (std::set<std::int64_t>{10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}));
}

}  // namespace
