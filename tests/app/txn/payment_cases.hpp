// SPDX-License-Identifier: Apache-2.0
// tests/app/txn/payment_cases.hpp: Payment checks against the dataset (dataset.hpp), run on
// SQLite (payment_test.cpp) and on PostgreSQL (postgres_txn_test.cpp). Each expects a freshly
// loaded dataset and reports through gtest's EXPECT macros.
#pragma once

#include "driver/session.hpp"
#include "shoal/task.hpp"

namespace txn_test {

// Customer 5 of (1,1), a BC customer, pays 100.50 at its home warehouse.
shoal::task<void> expect_payment_by_number(tpcc::driver::session& s);
// "SHARED" of (2,2) (CHARLIE, ALICE, BOB: BOB, customer 12) pays 250 at warehouse 1 district 1.
shoal::task<void> expect_payment_by_name_remote(tpcc::driver::session& s);
// "PAIR" of (1,1) (ZED 20, ANNA 21): position ceil(2/2) = 1 is ANNA, customer 21.
shoal::task<void> expect_payment_by_name_even(tpcc::driver::session& s);
// Customer 99 does not exist: failed, and nothing is left behind.
shoal::task<void> expect_payment_to_nobody_rolls_back(tpcc::driver::session& s);

}  // namespace txn_test
