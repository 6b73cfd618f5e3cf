// SPDX-License-Identifier: Apache-2.0
// New-Order (clause 2.4) against the hand-built dataset (dataset.hpp) in a SQLite file: the
// district's next order number, the order, new-order and line rows, both branches of the stock
// quantity rule, remote counts, brand-generic, the total, and the 1% rollback.
#include <gtest/gtest.h>

#include "dataset.hpp"
#include "new_order_cases.hpp"

namespace txn_test {
namespace {

TEST(new_order, CommitsTheOrderWithItsLinesAndStockEffects) {
  sqlite_fixture f;
  f.run(&expect_new_order_committed);
}

TEST(new_order, UnusedItemRollsEverythingBack) {
  sqlite_fixture f;
  f.run(&expect_new_order_rolled_back);
}

TEST(new_order, RepeatedItemIsReadOnceAndWrittenOnEachLine) {
  sqlite_fixture f;
  f.run(&expect_new_order_repeated_item);
}

}  // namespace
}  // namespace txn_test
