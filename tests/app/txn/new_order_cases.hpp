// SPDX-License-Identifier: Apache-2.0
// tests/app/txn/new_order_cases.hpp: New-Order checks against the dataset (dataset.hpp), run
// on SQLite (new_order_test.cpp) and on PostgreSQL (postgres_txn_test.cpp). Each expects a
// freshly loaded dataset and reports through gtest's EXPECT macros.
#pragma once

#include "driver/session.hpp"
#include "shoal/task.hpp"

namespace txn_test {

shoal::task<void> expect_new_order_committed(tpcc::driver::session& s);
shoal::task<void> expect_new_order_rolled_back(tpcc::driver::session& s);
// An item on two lines: read once (one IN list), written on both lines, its stock updated twice.
shoal::task<void> expect_new_order_repeated_item(tpcc::driver::session& s);

}  // namespace txn_test
