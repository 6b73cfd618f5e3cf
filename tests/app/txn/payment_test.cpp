// SPDX-License-Identifier: Apache-2.0
// Payment (clause 2.5) against the hand-built dataset (dataset.hpp) in a SQLite file: year-to-
// date updates, the customer by number and by last name (position ceil(n/2) by C_FIRST), the BC
// C_DATA rule, the HISTORY row, and a payment to a missing customer leaving nothing behind.
#include <gtest/gtest.h>

#include "dataset.hpp"
#include "payment_cases.hpp"

namespace txn_test {
namespace {

TEST(payment, ByNumberUpdatesYearToDateCustomerAndBadCreditData) {
  sqlite_fixture f;
  f.run(&expect_payment_by_number);
}

TEST(payment, ByNameTakesTheMiddleCustomerOfARemoteDistrict) {
  sqlite_fixture f;
  f.run(&expect_payment_by_name_remote);
}

TEST(payment, ByNameWithTwoMatchesTakesTheFirst) {
  sqlite_fixture f;
  f.run(&expect_payment_by_name_even);
}

TEST(payment, MissingCustomerFailsAndRollsBack) {
  sqlite_fixture f;
  f.run(&expect_payment_to_nobody_rolls_back);
}

}  // namespace
}  // namespace txn_test
