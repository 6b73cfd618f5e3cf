// SPDX-License-Identifier: Apache-2.0
// The rows of clause 4.3.3.1 as population generates them, checked without a database: counts
// per table, column order and count, the sequential last names, the 10% ORIGINAL and BC rows,
// NEW_ORDER's 900 per district, O_C_ID permutations, carriers and delivery dates, value ranges,
// and determinism whatever the chunk size.
#include "loader/population.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "driver/bulk.hpp"
#include "random/nurand.hpp"
#include "random/strings.hpp"
#include "schema/schema.hpp"

namespace {

using tpcc::driver::bulk_rows;
using tpcc::driver::value;
using tpcc::loader::population;

constexpr std::uint64_t seed = 42;
constexpr tpcc::random::nurand_constants constants{.c_last = 123, .c_id = 456, .ol_i_id = 789};
constexpr const char* load_time = "2024-05-06 07:08:09";

population warehouse_rows(std::int64_t w_id = 3) {
  return population::warehouse(seed, w_id, constants, load_time);
}

using row_view = std::span<const value>;
using row_visitor = std::function<void(std::string_view table, row_view row)>;

// Calls `visit` for every row, chunk by chunk; returns the rows per table.
std::map<std::string, std::int64_t> each_row(population p, const row_visitor& visit,
                                             std::size_t chunk = 2000) {
  std::map<std::string, std::int64_t> counts;
  bulk_rows rows;
  while (p.next(rows, chunk)) {
    const std::size_t width = rows.columns.size();
    EXPECT_GT(rows.rows(), 0u);
    EXPECT_LE(rows.rows(), chunk);
    EXPECT_EQ(rows.values.size(), rows.rows() * width) << rows.table;
    for (std::size_t r = 0; r < rows.rows(); ++r) {
      visit(rows.table, row_view(rows.values).subspan(r * width, width));
    }
    counts[std::string(rows.table)] += static_cast<std::int64_t>(rows.rows());
  }
  EXPECT_EQ(rows.rows(), 0u);
  return counts;
}

std::int64_t int_of(const value& v) { return std::get<std::int64_t>(v); }
double number_of(const value& v) { return std::get<double>(v); }
const std::string& text_of(const value& v) { return std::get<std::string>(v); }

bool has_original(const value& v) { return text_of(v).find("ORIGINAL") != std::string::npos; }

TEST(population, OneWarehouseHasTheRowCountsOfClause4331) {
  std::int64_t lines_declared = 0;
  population p = warehouse_rows();
  const std::int64_t announced = p.total_rows();
  auto counts = each_row(std::move(p), [&](std::string_view table, row_view row) {
    if (table == "orders") lines_declared += int_of(row[6]);
  });
  EXPECT_EQ(counts.size(), 8u);
  EXPECT_EQ(counts["warehouse"], 1);
  EXPECT_EQ(counts["district"], 10);
  EXPECT_EQ(counts["customer"], 30'000);
  EXPECT_EQ(counts["history"], 30'000);
  EXPECT_EQ(counts["orders"], 30'000);
  EXPECT_EQ(counts["new_order"], 9'000);
  EXPECT_EQ(counts["stock"], 100'000);
  EXPECT_EQ(counts["order_line"], lines_declared);
  EXPECT_GT(lines_declared, 30'000 * 9);  // mean 10 lines per order
  EXPECT_LT(lines_declared, 30'000 * 11);
  std::int64_t total = 0;
  for (const auto& [table, n] : counts) total += n;
  EXPECT_EQ(total, announced);
  EXPECT_EQ(counts.count("item"), 0u);
}

TEST(population, ChunksNameTheirTableAndItsSchemaColumns) {
  population p = population::items(seed);
  bulk_rows rows;
  ASSERT_TRUE(p.next(rows, 10));
  EXPECT_EQ(rows.table, "item");
  const tpcc::schema::table* item = tpcc::schema::find_table("item");
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(rows.columns.data(), item->columns.data());
  EXPECT_EQ(rows.values.size(), 10 * item->columns.size());
  population w = warehouse_rows();
  std::set<std::string> seen;
  while (w.next(rows, 5000)) {
    const tpcc::schema::table* t = tpcc::schema::find_table(rows.table);
    ASSERT_NE(t, nullptr) << rows.table;
    EXPECT_EQ(rows.columns.size(), t->columns.size()) << rows.table;
    EXPECT_EQ(rows.columns.data(), t->columns.data()) << rows.table;
    seen.emplace(rows.table);
  }
  EXPECT_EQ(seen.size(), 8u);
}

TEST(population, ItemsHaveTheirRangesAndTenPercentOriginal) {
  std::int64_t original = 0;
  std::int64_t next_id = 1;
  auto counts = each_row(population::items(seed), [&](std::string_view, row_view row) {
    EXPECT_EQ(int_of(row[0]), next_id++);
    EXPECT_GE(int_of(row[1]), 1);
    EXPECT_LE(int_of(row[1]), 10'000);
    const std::size_t name = text_of(row[2]).size();
    EXPECT_TRUE(name >= 14 && name <= 24);
    EXPECT_GE(number_of(row[3]), 1.00);
    EXPECT_LE(number_of(row[3]), 100.00);
    const std::size_t data = text_of(row[4]).size();
    EXPECT_TRUE(data >= 26 && data <= 50);
    original += has_original(row[4]) ? 1 : 0;
  });
  EXPECT_EQ(counts["item"], 100'000);
  EXPECT_NEAR(static_cast<double>(original) / 100'000, 0.10, 0.01);
}

TEST(population, FirstThousandCustomersOfEachDistrictHaveSequentialLastNames) {
  std::int64_t checked = 0;
  std::int64_t bad_credit = 0;
  std::map<std::string, std::int64_t> later_names;
  each_row(warehouse_rows(), [&](std::string_view table, row_view row) {
    if (table != "customer") return;
    const std::int64_t c_id = int_of(row[0]);
    EXPECT_EQ(text_of(row[4]), "OE");
    if (c_id <= 1000) {
      EXPECT_EQ(text_of(row[5]), tpcc::random::last_name(c_id - 1)) << "c_id " << c_id;
      ++checked;
    } else {
      ++later_names[text_of(row[5])];
    }
    EXPECT_EQ(text_of(row[12]), load_time);
    bad_credit += text_of(row[13]) == "BC" ? 1 : 0;
    EXPECT_TRUE(text_of(row[13]) == "BC" || text_of(row[13]) == "GC");
    EXPECT_EQ(number_of(row[16]), -10.00);
    EXPECT_EQ(int_of(row[18]), 1);
    const std::size_t data = text_of(row[20]).size();
    EXPECT_TRUE(data >= 300 && data <= 500);
  });
  EXPECT_EQ(checked, 10 * 1000);
  EXPECT_NEAR(static_cast<double>(bad_credit) / 30'000, 0.10, 0.01);
  // NURand(255, 0, 999) makes some names far more common than uniform draws would.
  std::int64_t most = 0;
  for (const auto& [name, n] : later_names) most = std::max(most, n);
  EXPECT_GT(most, 3 * 20'000 / 1000);
}

TEST(population, StockHasTenPercentOriginalAndZeroCounts) {
  std::int64_t original = 0;
  each_row(warehouse_rows(), [&](std::string_view table, row_view row) {
    if (table != "stock") return;
    EXPECT_GE(int_of(row[2]), 10);
    EXPECT_LE(int_of(row[2]), 100);
    for (std::size_t d = 3; d < 13; ++d) EXPECT_EQ(text_of(row[d]).size(), 24u);
    EXPECT_EQ(int_of(row[13]), 0);
    EXPECT_EQ(int_of(row[14]), 0);
    EXPECT_EQ(int_of(row[15]), 0);
    original += has_original(row[16]) ? 1 : 0;
  });
  EXPECT_NEAR(static_cast<double>(original) / 100'000, 0.10, 0.01);
}

TEST(population, NewOrdersAreOrders2101To3000Of900PerDistrict) {
  std::map<std::int64_t, std::set<std::int64_t>> by_district;
  each_row(warehouse_rows(), [&](std::string_view table, row_view row) {
    if (table != "new_order") return;
    EXPECT_EQ(int_of(row[2]), 3);
    by_district[int_of(row[1])].insert(int_of(row[0]));
  });
  ASSERT_EQ(by_district.size(), 10u);
  for (const auto& [d_id, orders] : by_district) {
    EXPECT_EQ(orders.size(), 900u) << "district " << d_id;
    EXPECT_EQ(*orders.begin(), 2101);
    EXPECT_EQ(*orders.rbegin(), 3000);
  }
}

TEST(population, OrderCustomersArePermutationsAndCarriersNullExactlyFromOrder2101) {
  std::map<std::int64_t, std::set<std::int64_t>> customers;
  std::vector<std::int64_t> in_order;
  each_row(warehouse_rows(), [&](std::string_view table, row_view row) {
    if (table != "orders") return;
    const std::int64_t o_id = int_of(row[0]);
    customers[int_of(row[1])].insert(int_of(row[3]));
    if (int_of(row[1]) == 1) in_order.push_back(int_of(row[3]));
    if (o_id < 2101) {
      EXPECT_GE(int_of(row[5]), 1);
      EXPECT_LE(int_of(row[5]), 10);
    } else {
      EXPECT_TRUE(tpcc::driver::is_null(row[5])) << "o_id " << o_id;
    }
    EXPECT_GE(int_of(row[6]), 5);
    EXPECT_LE(int_of(row[6]), 15);
    EXPECT_EQ(int_of(row[7]), 1);
  });
  ASSERT_EQ(customers.size(), 10u);
  for (const auto& [d_id, ids] : customers) {
    EXPECT_EQ(ids.size(), 3000u) << "district " << d_id;
    EXPECT_EQ(*ids.begin(), 1);
    EXPECT_EQ(*ids.rbegin(), 3000);
  }
  std::int64_t in_place = 0;  // a shuffle, not the identity
  for (std::size_t i = 0; i < in_order.size(); ++i) {
    in_place += in_order[i] == static_cast<std::int64_t>(i + 1) ? 1 : 0;
  }
  EXPECT_LT(in_place, 20);
}

TEST(population, OrderLinesFollowTheirOrder) {
  std::map<std::int64_t, std::int64_t> lines_of;  // (d, o) -> ol_cnt
  std::map<std::int64_t, std::int64_t> seen;
  each_row(warehouse_rows(), [&](std::string_view table, row_view row) {
    if (table == "orders") lines_of[int_of(row[1]) * 10'000 + int_of(row[0])] = int_of(row[6]);
    if (table != "order_line") return;
    const std::int64_t o_id = int_of(row[0]);
    const std::int64_t key = int_of(row[1]) * 10'000 + o_id;
    EXPECT_EQ(int_of(row[3]), ++seen[key]);  // OL_NUMBER 1, 2, ...
    EXPECT_GE(int_of(row[4]), 1);
    EXPECT_LE(int_of(row[4]), 100'000);
    EXPECT_EQ(int_of(row[5]), 3);
    EXPECT_EQ(int_of(row[7]), 5);
    EXPECT_EQ(text_of(row[9]).size(), 24u);
    if (o_id < 2101) {
      EXPECT_EQ(text_of(row[6]), load_time);
      EXPECT_EQ(number_of(row[8]), 0.0);
    } else {
      EXPECT_TRUE(tpcc::driver::is_null(row[6]));
      EXPECT_GE(number_of(row[8]), 0.01);
      EXPECT_LE(number_of(row[8]), 9999.99);
    }
  });
  EXPECT_EQ(seen, lines_of);
}

// Every value of a population, flattened, for comparisons.
std::vector<value> all_values(population p, std::size_t chunk) {
  std::vector<value> out;
  bulk_rows rows;
  while (p.next(rows, chunk)) out.insert(out.end(), rows.values.begin(), rows.values.end());
  return out;
}

TEST(population, SameSeedGivesTheSameRowsWhateverTheChunkSize) {
  const std::vector<value> a = all_values(population::items(seed), 2000);
  const std::vector<value> b = all_values(population::items(seed), 777);
  EXPECT_EQ(a.size(), 100'000u * 5);
  EXPECT_TRUE(a == b);
  EXPECT_FALSE(a == all_values(population::items(seed + 1), 2000));
}

TEST(population, WarehousesDifferFromEachOther) {
  bulk_rows one;
  bulk_rows two;
  population a = warehouse_rows(1);
  population b = warehouse_rows(2);
  ASSERT_TRUE(a.next(one, 1));
  ASSERT_TRUE(b.next(two, 1));
  EXPECT_EQ(int_of(one.values[0]), 1);
  EXPECT_EQ(int_of(two.values[0]), 2);
  EXPECT_NE(text_of(one.values[1]), text_of(two.values[1]));  // W_NAME
}

}  // namespace
