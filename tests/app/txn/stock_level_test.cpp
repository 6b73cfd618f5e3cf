// SPDX-License-Identifier: Apache-2.0
// Stock-Level (clause 2.8) against the hand-built dataset (dataset.hpp) in a SQLite file:
// distinct items of the last 20 orders below the threshold.
#include <gtest/gtest.h>

#include "dataset.hpp"
#include "txn/stock_level.hpp"

namespace txn_test {
namespace {

using tpcc::driver::outcome;
using tpcc::txn::stock_level_input;
using tpcc::txn::stock_level_output;

stock_level_input input(std::int64_t d_id, std::int64_t threshold) {
  stock_level_input in;
  in.w_id = 1;
  in.d_id = d_id;
  in.threshold = threshold;
  return in;
}

shoal::task<std::int64_t> low_stock(tpcc::driver::session& s, std::int64_t d_id,
                                    std::int64_t threshold) {
  const stock_level_input in = input(d_id, threshold);
  stock_level_output out;
  const outcome result = co_await tpcc::txn::run_stock_level(s, in, out);
  EXPECT_TRUE(result.ok()) << result.message;
  EXPECT_EQ(out.threshold, threshold);
  co_return out.low_stock;
}

// (1,1): orders 1-3 use items 1-10 (item 3-7 twice), stock 10 + i.
shoal::task<void> counts_distinct_items_below_threshold(tpcc::driver::session& s) {
  const std::int64_t below_15 = co_await low_stock(s, 1, 15);
  EXPECT_EQ(below_15, 4) << "items 1-4 (stock 11-14), each once";
  const std::int64_t below_20 = co_await low_stock(s, 1, 20);
  EXPECT_EQ(below_20, 9) << "items 1-9";
  const std::int64_t below_10 = co_await low_stock(s, 1, 10);
  EXPECT_EQ(below_10, 0);
}

// (1,2): D_NEXT_O_ID 25, orders 1 (items 1,30-33) and 24 (items 2,30,34-36): only 24 is among
// the last 20, so item 1 (stock 11) is not counted and item 2 (stock 12) is.
shoal::task<void> only_the_last_20_orders_count(tpcc::driver::session& s) {
  const std::int64_t counted = co_await low_stock(s, 2, 15);
  EXPECT_EQ(counted, 1);
}

TEST(stock_level, CountsDistinctItemsBelowTheThreshold) {
  sqlite_fixture f;
  f.run(&counts_distinct_items_below_threshold);
}

TEST(stock_level, OnlyTheLastTwentyOrdersCount) {
  sqlite_fixture f;
  f.run(&only_the_last_20_orders_count);
}

}  // namespace
}  // namespace txn_test
