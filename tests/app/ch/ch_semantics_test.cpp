// SPDX-License-Identifier: Apache-2.0
// The paper's semantics of each of CH-benCHmark's 22 queries: a few hand-made rows in an empty
// SQLite schema (TPC-C's tables and CH's), each built so that every condition of the query
// keeps one row out (a date, a case, a nation, a region, a NULL), and the answer written out
// by hand. The PostgreSQL and MariaDB forms are held to the SQLite answers by the cross-database
// test (ch_cross_db_test.cpp).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "ch/queries.hpp"
#include "ch_support.hpp"
#include "driver/database.hpp"
#include "driver/target.hpp"

namespace {

using shoal::task;
using tpcc::driver::database;
using tpcc::testing::ch_dataset;
using rows = std::vector<std::string>;

const ch_dataset::value no_date = ch_dataset::null();
const ch_dataset::value no_carrier = ch_dataset::null();

// Region 3 Europe, 2 Asia; Germany ('L', 76) and France ('K', 75) in Europe, Cambodia ('8',
// 56) in Asia.
constexpr std::int64_t germany = 'L';
constexpr std::int64_t france = 'K';
constexpr std::int64_t cambodia = '8';

void add_nations(ch_dataset& data) {
  data.region(2, "Asia");
  data.region(3, "Europe");
  data.nation(germany, "Germany", 3);
  data.nation(france, "France", 3);
  data.nation(cambodia, "Cambodia", 2);
}

class ch_semantics : public ::testing::Test {
 protected:
  // The rows of query `number` over `data` (written into a fresh schema).
  rows answer(const ch_dataset& data, int number) {
    return scratch_.run(answer_on_fresh_schema(scratch_.sqlite_target(), data, number));
  }

 private:
  static task<rows> answer_on_fresh_schema(std::string target, const ch_dataset& data, int number) {
    std::unique_ptr<database> db = co_await tpcc::testing::opened(std::move(target), 1);
    co_await tpcc::testing::create_ch_everything(*db);
    co_await data.write_all(*db);
    rows out = co_await tpcc::testing::ch_rows(*db, tpcc::driver::engine::sqlite, number);
    co_await db->close();
    co_return out;
  }

  tpcc::testing::loader_scratch scratch_;
};

TEST_F(ch_semantics, Q1SumsDeliveredLinesPerLineNumber) {
  ch_dataset d;
  d.line(1, 1, 1, 1, 1, 1, "2010-01-01 00:00:00", 5, 10.00);
  d.line(1, 1, 2, 1, 1, 1, "2011-01-01 00:00:00", 3, 20.00);
  d.line(1, 1, 1, 2, 1, 1, "2010-01-01 00:00:00", 4, 7.50);
  d.line(1, 1, 2, 2, 1, 1, "2006-12-31 00:00:00", 9, 1.00);  // delivered too early
  d.line(1, 1, 1, 3, 1, 1, no_date, 1, 1.00);                // not delivered
  EXPECT_EQ(answer(d, 1), (rows{"1|8|30|4|15|2", "2|4|7.5|4|7.5|1"}));
}

TEST_F(ch_semantics, Q2FindsTheEuropeanSupplierWithTheLowestStockOfEachItem) {
  ch_dataset d;
  add_nations(d);
  d.item(1, "item1", 1, "xxb");
  d.item(2, "item2", 1, "xxB");  // upper case: not '%b'
  d.item(3, "item3", 1, "xxb");
  d.supplier(1, "S1", germany, "A1", "P1", "C1");
  d.supplier(2, "S2", france, "A2", "P2", "C2");
  d.supplier(3, "S3", cambodia, "A3", "P3", "C3");
  d.supplier(6, "S6", germany, "A6", "P6", "C6");
  d.stock(1, 1, 50);  // supplier 1
  d.stock(2, 1, 20);  // supplier 2: the lowest in Europe
  d.stock(3, 1, 5);   // supplier 3, in Asia: lower, not counted
  d.stock(1, 2, 1);
  d.stock(1, 3, 30);  // supplier 3, Asia
  d.stock(2, 3, 30);  // supplier 6
  EXPECT_EQ(answer(d, 2), (rows{"2|S2|France|1|item1|A2|P2|C2", "6|S6|Germany|3|item3|A6|P6|C6"}));
}

TEST_F(ch_semantics, Q3RanksUndeliveredOrdersOfCustomersInStatesStartingWithA) {
  ch_dataset d;
  d.customer(1, 1, 1, "AB", "1", 0);
  d.customer(1, 1, 2, "aB", "1", 0);  // lower case: not 'A%'
  d.customer(1, 1, 3, "AZ", "1", 0);
  d.order(1, 1, 1, 1, "2010-01-01 00:00:00", no_carrier, 2);
  d.order(1, 1, 2, 2, "2010-01-01 00:00:00", no_carrier, 1);
  d.order(1, 1, 3, 3, "2010-01-01 00:00:00", 1, 1);  // delivered: no NEW-ORDER row
  d.order(1, 1, 4, 3, "2011-01-01 00:00:00", no_carrier, 1);
  d.order(1, 1, 5, 1, "2006-01-01 00:00:00", no_carrier, 1);  // entered too early
  for (std::int64_t o : {1, 2, 4, 5}) d.new_order(1, 1, o);
  d.line(1, 1, 1, 1, 1, 1, no_date, 1, 10);
  d.line(1, 1, 1, 2, 1, 1, no_date, 1, 5);
  d.line(1, 1, 2, 1, 1, 1, no_date, 1, 100);
  d.line(1, 1, 3, 1, 1, 1, no_date, 1, 50);
  d.line(1, 1, 4, 1, 1, 1, no_date, 1, 20);
  d.line(1, 1, 5, 1, 1, 1, no_date, 1, 70);
  EXPECT_EQ(answer(d, 3), (rows{"4|1|1|20|2011-01-01 00:00:00", "1|1|1|15|2010-01-01 00:00:00"}));
}

TEST_F(ch_semantics, Q4CountsOrdersOfTheWindowWithALineDeliveredAfterEntry) {
  ch_dataset d;
  d.order(1, 1, 1, 1, "2010-01-01 00:00:00", 1, 5);
  d.order(1, 1, 2, 1, "2010-01-01 00:00:00", no_carrier, 5);  // not delivered
  d.order(1, 1, 3, 1, "2011-01-01 00:00:00", 1, 7);
  d.order(1, 1, 4, 1, "2013-01-01 00:00:00", 1, 5);  // after the window
  d.order(1, 1, 5, 1, "2010-06-01 00:00:00", 1, 7);  // its line "delivered" before entry
  d.line(1, 1, 1, 1, 1, 1, "2010-02-01 00:00:00", 1, 1);
  d.line(1, 1, 2, 1, 1, 1, no_date, 1, 1);
  d.line(1, 1, 3, 1, 1, 1, "2011-01-01 00:00:00", 1, 1);  // the same second counts
  d.line(1, 1, 4, 1, 1, 1, "2013-02-01 00:00:00", 1, 1);
  d.line(1, 1, 5, 1, 1, 1, "2010-05-01 00:00:00", 1, 1);
  EXPECT_EQ(answer(d, 4), (rows{"5|1", "7|1"}));
}

TEST_F(ch_semantics, Q5SumsEuropeanRevenueWhereCustomerAndSupplierShareANation) {
  ch_dataset d;
  add_nations(d);
  d.customer(1, 1, 1, "LX", "1", 0);  // Germany
  d.customer(1, 1, 2, "KX", "1", 0);  // France
  d.customer(1, 1, 3, "8X", "1", 0);  // Cambodia
  d.supplier(1, "S1", germany);
  d.supplier(2, "S2", france);
  d.supplier(3, "S3", cambodia);
  d.supplier(4, "S4", germany);
  for (std::int64_t i : {1, 2, 3, 4}) d.stock(1, i, 10);
  d.order(1, 1, 1, 1, "2010-01-01 00:00:00", 1, 3);
  d.order(1, 1, 2, 2, "2010-01-01 00:00:00", 1, 1);
  d.order(1, 1, 3, 3, "2010-01-01 00:00:00", 1, 1);
  d.order(1, 1, 4, 1, "2006-01-01 00:00:00", 1, 1);  // entered too early
  d.line(1, 1, 1, 1, 1, 1, no_date, 1, 10.00);       // German supplier, German customer
  d.line(1, 1, 1, 2, 2, 1, no_date, 1, 5.00);        // French supplier: not the customer's nation
  d.line(1, 1, 1, 3, 4, 1, no_date, 1, 2.50);
  d.line(1, 1, 2, 1, 2, 1, no_date, 1, 7.00);
  d.line(1, 1, 3, 1, 3, 1, no_date, 1, 100.00);  // Asia
  d.line(1, 1, 4, 1, 1, 1, no_date, 1, 1000.00);
  EXPECT_EQ(answer(d, 5), (rows{"Germany|12.5", "France|7"}));
}

TEST_F(ch_semantics, Q6SumsLinesDeliveredInTheWindowWithAQuantity) {
  ch_dataset d;
  d.line(1, 1, 1, 1, 1, 1, "2010-01-01 00:00:00", 5, 10);
  d.line(1, 1, 1, 2, 1, 1, "2019-12-31 00:00:00", 1, 20);
  d.line(1, 1, 1, 3, 1, 1, "2020-01-01 00:00:00", 5, 30);  // the end is excluded
  d.line(1, 1, 1, 4, 1, 1, "1998-01-01 00:00:00", 5, 40);
  d.line(1, 1, 1, 5, 1, 1, "2010-01-01 00:00:00", 0, 50);  // quantity below 1
  EXPECT_EQ(answer(d, 6), (rows{"30"}));
}

TEST_F(ch_semantics, Q7SumsTradeBetweenGermanyAndCambodiaPerYear) {
  ch_dataset d;
  add_nations(d);
  d.customer(1, 1, 1, "8A", "1", 0);  // Cambodia
  d.customer(1, 1, 2, "LA", "1", 0);  // Germany
  d.supplier(1, "S1", germany);
  d.supplier(2, "S2", cambodia);
  d.supplier(3, "S3", france);
  for (std::int64_t i : {1, 2, 3}) d.stock(1, i, 10);
  d.order(1, 1, 1, 1, "2010-03-01 00:00:00", 1, 2);
  d.order(1, 1, 2, 2, "2011-02-01 00:00:00", 1, 2);
  d.order(1, 1, 3, 1, "2011-05-01 00:00:00", 1, 1);
  d.order(1, 1, 4, 1, "2012-06-01 00:00:00", 1, 1);
  d.line(1, 1, 1, 1, 1, 1, "2010-04-01 00:00:00", 1, 10);  // Germany to Cambodia
  d.line(1, 1, 1, 2, 3, 1, "2010-04-01 00:00:00", 1, 5);   // France to Cambodia
  d.line(1, 1, 2, 1, 2, 1, "2011-03-01 00:00:00", 1, 7);   // Cambodia to Germany
  d.line(1, 1, 2, 2, 1, 1, "2011-03-01 00:00:00", 1, 9);   // Germany to Germany
  d.line(1, 1, 3, 1, 1, 1, "2011-06-01 00:00:00", 1, 20);
  d.line(1, 1, 4, 1, 1, 1, "2012-07-01 00:00:00", 1, 40);  // delivered after the window
  EXPECT_EQ(answer(d, 7), (rows{"56|L|2011|7", "76|8|2010|10", "76|8|2011|20"}));
}

TEST_F(ch_semantics, Q8GivesGermanSuppliersShareOfEuropeanCustomersPurchasesPerYear) {
  ch_dataset d;
  add_nations(d);
  d.customer(1, 1, 1, "KA", "1", 0);  // France: Europe
  d.customer(1, 1, 2, "8A", "1", 0);  // Cambodia: Asia
  d.item(1, "i1", 1, "xb");
  d.item(2, "i2", 1, "xb");
  d.item(3, "i3", 1, "xc");  // not '%b'
  d.supplier(1, "S1", germany);
  d.supplier(2, "S2", france);
  d.supplier(3, "S3", germany);
  for (std::int64_t i : {1, 2, 3}) d.stock(1, i, 10);
  d.order(1, 1, 1, 1, "2010-01-01 00:00:00", 1, 3);
  d.order(1, 1, 2, 2, "2010-01-01 00:00:00", 1, 1);
  d.order(1, 1, 3, 1, "2011-01-01 00:00:00", 1, 1);
  d.line(1, 1, 1, 1, 1, 1, no_date, 1, 30);
  d.line(1, 1, 1, 2, 2, 1, no_date, 1, 10);
  d.line(1, 1, 1, 3, 3, 1, no_date, 1, 100);
  d.line(1, 1, 2, 1, 1, 1, no_date, 1, 50);
  d.line(1, 1, 3, 1, 2, 1, no_date, 1, 20);
  EXPECT_EQ(answer(d, 8), (rows{"2010|0.75", "2011|0"}));
}

TEST_F(ch_semantics, Q9SumsItemsEndingInBBPerSupplierNationAndYearLatestFirst) {
  ch_dataset d;
  add_nations(d);
  d.item(1, "i1", 1, "xBB");
  d.item(2, "i2", 1, "xbb");  // lower case
  d.item(3, "i3", 1, "xBB");
  d.supplier(1, "S1", germany);
  d.supplier(2, "S2", germany);
  d.supplier(3, "S3", france);
  for (std::int64_t i : {1, 2, 3}) d.stock(1, i, 10);
  d.order(1, 1, 1, 1, "2010-01-01 00:00:00", 1, 3);
  d.order(1, 1, 2, 1, "2011-01-01 00:00:00", 1, 2);
  d.line(1, 1, 1, 1, 1, 1, no_date, 1, 10);
  d.line(1, 1, 1, 2, 2, 1, no_date, 1, 99);
  d.line(1, 1, 1, 3, 3, 1, no_date, 1, 5);
  d.line(1, 1, 2, 1, 1, 1, no_date, 1, 20);
  d.line(1, 1, 2, 2, 3, 1, no_date, 1, 7);
  EXPECT_EQ(answer(d, 9),
            (rows{"France|2011|7", "France|2010|5", "Germany|2011|20", "Germany|2010|10"}));
}

TEST_F(ch_semantics, Q10RanksCustomersByRevenueOfLinesDeliveredAfterEntry) {
  ch_dataset d;
  add_nations(d);
  d.customer(1, 1, 1, "LA", "P1", 0, "ONE", "C1");
  d.customer(1, 1, 2, "KA", "P2", 0, "TWO", "C2");
  d.order(1, 1, 1, 1, "2010-01-01 00:00:00", 1, 2);
  d.order(1, 1, 2, 2, "2010-01-01 00:00:00", 1, 1);
  d.order(1, 1, 3, 1, "2006-01-01 00:00:00", 1, 1);  // entered too early
  d.order(1, 1, 4, 1, "2011-01-01 00:00:00", 1, 1);
  d.line(1, 1, 1, 1, 1, 1, "2010-02-01 00:00:00", 1, 10);
  d.line(1, 1, 1, 2, 1, 1, no_date, 1, 5);
  d.line(1, 1, 2, 1, 1, 1, "2010-01-01 00:00:00", 1, 30);  // delivered as entered
  d.line(1, 1, 3, 1, 1, 1, "2006-02-01 00:00:00", 1, 40);
  d.line(1, 1, 4, 1, 1, 1, "2010-12-31 00:00:00", 1, 3);  // before entry
  EXPECT_EQ(answer(d, 10), (rows{"2|TWO|30|C2|P2|France", "1|ONE|10|C1|P1|Germany"}));
}

TEST_F(ch_semantics, Q11ListsGermanStockAboveHalfAPercentOfItsOrders) {
  ch_dataset d;
  add_nations(d);
  d.supplier(1, "S1", germany);
  d.supplier(2, "S2", germany);
  d.supplier(3, "S3", france);
  d.supplier(4, "S4", germany);
  d.supplier(5, "S5", germany);
  d.stock(1, 1, 10, 100);
  d.stock(2, 1, 10, 50);
  d.stock(1, 3, 10, 1000);  // France's
  d.stock(1, 4, 10, 0);
  d.stock(1, 5, 10, 1);  // 1 > 0.005 * 151
  EXPECT_EQ(answer(d, 11), (rows{"1|150", "5|1"}));
}

TEST_F(ch_semantics, Q12CountsDeliveredLinesByCarrierClassPerLineCount) {
  ch_dataset d;
  d.order(1, 1, 1, 1, "2010-01-01 00:00:00", 1, 2);
  d.order(1, 1, 2, 1, "2010-01-01 00:00:00", 5, 2);
  d.order(1, 1, 3, 1, "2010-01-01 00:00:00", 2, 3);
  d.order(1, 1, 4, 1, "2010-01-01 00:00:00", no_carrier, 3);
  d.order(1, 1, 5, 1, "2010-01-01 00:00:00", 7, 3);
  d.line(1, 1, 1, 1, 1, 1, "2010-02-01 00:00:00", 1, 1);
  d.line(1, 1, 1, 2, 1, 1, "2010-02-01 00:00:00", 1, 1);
  d.line(1, 1, 2, 1, 1, 1, "2010-02-01 00:00:00", 1, 1);
  d.line(1, 1, 3, 1, 1, 1, "2020-05-01 00:00:00", 1, 1);  // delivered too late
  d.line(1, 1, 4, 1, 1, 1, "2010-02-01 00:00:00", 1, 1);  // no carrier: neither class
  d.line(1, 1, 5, 1, 1, 1, "2009-02-01 00:00:00", 1, 1);  // before entry
  EXPECT_EQ(answer(d, 12), (rows{"2|2|1", "3|0|0"}));
}

TEST_F(ch_semantics, Q13CountsCustomersPerNumberOfLateCarrierOrdersGroupedByCustomerId) {
  ch_dataset d;
  d.customer(1, 1, 1, "AA", "1", 0);
  d.customer(1, 1, 2, "AA", "1", 0);
  d.customer(1, 1, 3, "AA", "1", 0);
  d.customer(1, 2, 1, "AA", "1", 0);  // c_id 1 again: the paper groups by c_id alone
  d.order(1, 1, 1, 1, "2010-01-01 00:00:00", 9, 1);
  d.order(1, 1, 2, 1, "2010-01-01 00:00:00", 10, 1);
  d.order(1, 2, 1, 1, "2010-01-01 00:00:00", 9, 1);
  d.order(1, 1, 3, 2, "2010-01-01 00:00:00", 3, 1);  // carrier not above 8
  d.order(1, 1, 4, 3, "2010-01-01 00:00:00", 9, 1);
  EXPECT_EQ(answer(d, 13), (rows{"3|1", "1|1", "0|1"}));
}

TEST_F(ch_semantics, Q14GivesThePromotionItemsShareOfDeliveredRevenue) {
  ch_dataset d;
  d.item(1, "i1", 1, "PRx");
  d.item(2, "i2", 1, "prx");  // lower case: not a promotion
  d.item(3, "i3", 1, "xPR");
  d.line(1, 1, 1, 1, 1, 1, "2010-01-01 00:00:00", 1, 30);
  d.line(1, 1, 1, 2, 2, 1, "2010-01-01 00:00:00", 1, 10);
  d.line(1, 1, 1, 3, 3, 1, "2010-01-01 00:00:00", 1, 9);
  d.line(1, 1, 1, 4, 1, 1, "2021-01-01 00:00:00", 1, 100);  // delivered too late
  EXPECT_EQ(answer(d, 14), (rows{"60"}));                   // 100 * 30 / (1 + 49)
}

TEST_F(ch_semantics, Q15FindsTheSupplierWithTheMostDeliveredRevenue) {
  ch_dataset d;
  d.supplier(1, "S1", germany, "A1", "P1");
  d.supplier(2, "S2", germany, "A2", "P2");
  d.stock(1, 1, 10);  // supplier 1
  d.stock(1, 2, 10);  // supplier 2
  d.stock(2, 1, 10);  // supplier 2 as well
  d.line(1, 1, 1, 1, 1, 1, "2010-01-01 00:00:00", 1, 10);
  d.line(1, 1, 1, 2, 2, 1, "2010-01-01 00:00:00", 1, 15);
  d.line(1, 1, 1, 3, 1, 2, "2010-01-01 00:00:00", 1, 5);
  d.line(1, 1, 1, 4, 1, 1, "2006-01-01 00:00:00", 1, 100);  // delivered too early
  EXPECT_EQ(answer(d, 15), (rows{"2|S2|A2|P2|20"}));
}

TEST_F(ch_semantics, Q16CountsSuppliersPerBrandLeavingOutComplaints) {
  ch_dataset d;
  d.item(1, "N1", 5, "abcX");
  d.item(2, "N2", 6, "zzX");  // left out
  d.item(3, "N3", 7, "ZZy");  // upper case: kept
  d.supplier(1, "S1", germany, "", "", "fine");
  d.supplier(2, "S2", germany, "", "", "good");
  d.supplier(3, "S3", germany, "", "", "so bad here");
  d.supplier(6, "S6", germany, "", "", "Bad");  // upper case: not a complaint
  d.stock(1, 1, 1);                             // supplier 1
  d.stock(2, 1, 1);                             // supplier 2
  d.stock(3, 1, 1);                             // supplier 3: complained about
  d.stock(1, 2, 1);
  d.stock(1, 3, 1);  // supplier 3
  d.stock(2, 3, 1);  // supplier 6
  EXPECT_EQ(answer(d, 16), (rows{"N1|abc|5|2", "N3|ZZy|7|1"}));
}

TEST_F(ch_semantics, Q17HalvesTheRevenueOfLinesBelowTheirItemsAverageQuantity) {
  ch_dataset d;
  d.item(1, "i1", 1, "xb");
  d.item(2, "i2", 1, "xc");
  d.item(3, "i3", 1, "yb");
  d.line(1, 1, 1, 1, 1, 1, no_date, 2, 10);  // below item 1's average of 4
  d.line(1, 1, 1, 2, 1, 1, no_date, 4, 20);
  d.line(1, 1, 1, 3, 1, 1, no_date, 6, 30);
  d.line(1, 1, 1, 4, 2, 1, no_date, 1, 40);  // not '%b'
  d.line(1, 1, 1, 5, 3, 1, no_date, 5, 50);
  d.line(1, 1, 1, 6, 3, 1, no_date, 5, 60);
  EXPECT_EQ(answer(d, 17), (rows{"5"}));
}

TEST_F(ch_semantics, Q18ListsOrdersAboveTwoHundredLargestFirst) {
  ch_dataset d;
  d.customer(1, 1, 1, "AA", "1", 0, "ONE");
  d.customer(1, 1, 2, "AA", "1", 0, "TWO");
  d.order(1, 1, 1, 1, "2010-01-01 00:00:00", 1, 2);
  d.order(1, 1, 2, 2, "2010-01-01 00:00:00", 1, 1);
  d.order(1, 1, 3, 1, "2011-01-01 00:00:00", 1, 1);
  d.line(1, 1, 1, 1, 1, 1, no_date, 1, 150);
  d.line(1, 1, 1, 2, 1, 1, no_date, 1, 60);
  d.line(1, 1, 2, 1, 1, 1, no_date, 1, 200);  // not above 200
  d.line(1, 1, 3, 1, 1, 1, no_date, 1, 300);
  EXPECT_EQ(answer(d, 18),
            (rows{"ONE|1|3|2011-01-01 00:00:00|1|300", "ONE|1|1|2010-01-01 00:00:00|2|210"}));
}

TEST_F(ch_semantics, Q19SumsTheThreeItemAndWarehouseClasses) {
  ch_dataset d;
  d.item(1, "i1", 10, "xa");
  d.item(2, "i2", 10, "xb");
  d.item(3, "i3", 10, "xc");
  d.item(4, "i4", 0.5, "xb");
  d.line(1, 1, 1, 1, 1, 1, no_date, 5, 10);     // '%a' at warehouse 1
  d.line(4, 1, 1, 1, 2, 4, no_date, 5, 20);     // '%b' at warehouse 4
  d.line(4, 1, 1, 2, 1, 4, no_date, 5, 100);    // '%a' not at 1, 2 or 3
  d.line(5, 1, 1, 1, 3, 5, no_date, 10, 30);    // '%c' at warehouse 5
  d.line(1, 1, 1, 2, 3, 1, no_date, 11, 1000);  // quantity above 10
  d.line(1, 1, 1, 3, 4, 1, no_date, 5, 500);    // price below 1
  EXPECT_EQ(answer(d, 19), (rows{"60"}));
}

TEST_F(ch_semantics, Q20ListsGermanSuppliersOfCoItemsWithStockAboveHalfTheQuantityOrdered) {
  ch_dataset d;
  add_nations(d);
  d.item(1, "i1", 1, "coX");
  d.item(2, "i2", 1, "Cox");  // upper case
  d.item(3, "i3", 1, "coY");
  d.supplier(1, "S1", germany, "A1");
  d.supplier(2, "S2", germany, "A2");
  d.supplier(3, "S3", france, "A3");
  d.stock(1, 1, 10);   // supplier 1: 2 * 10 > 5
  d.stock(2, 1, 2);    // supplier 2: 2 * 2 is not above 5
  d.stock(1, 2, 99);   // supplier 2, through an item that is not 'co%'
  d.stock(1, 3, 100);  // supplier 3, French
  d.line(1, 1, 1, 1, 1, 1, "2011-01-01 00:00:00", 5, 1);
  d.line(1, 1, 1, 2, 1, 1, "2010-01-01 00:00:00", 2, 1);  // delivered too early
  d.line(1, 1, 1, 3, 3, 1, "2011-01-01 00:00:00", 1, 1);
  d.line(1, 1, 1, 4, 2, 1, "2011-01-01 00:00:00", 1, 1);
  EXPECT_EQ(answer(d, 20), (rows{"S1|A1"}));
}

TEST_F(ch_semantics, Q21CountsGermanSuppliersLastDeliveredLinesThatCameLate) {
  ch_dataset d;
  add_nations(d);
  d.supplier(1, "S1", germany);
  d.supplier(2, "S2", germany);
  d.stock(1, 1, 10);
  d.stock(1, 2, 10);
  d.order(1, 1, 1, 1, "2010-01-01 00:00:00", 1, 2);
  d.order(1, 1, 2, 1, "2010-01-01 00:00:00", 1, 1);
  d.order(1, 1, 3, 1, "2010-06-01 00:00:00", 1, 1);
  d.line(1, 1, 1, 1, 1, 1, "2010-02-01 00:00:00", 1, 1);  // not the last of its order
  d.line(1, 1, 1, 2, 2, 1, "2010-03-01 00:00:00", 1, 1);
  d.line(1, 1, 2, 1, 1, 1, "2010-05-01 00:00:00", 1, 1);
  d.line(1, 1, 3, 1, 1, 1, "2010-05-01 00:00:00", 1, 1);  // before entry
  EXPECT_EQ(answer(d, 21), (rows{"S1|1", "S2|1"}));
}

TEST_F(ch_semantics, Q22CountsCustomersWithoutOrdersAboveTheAverageBalancePerStateInitial) {
  ch_dataset d;
  d.customer(1, 1, 1, "AB", "1000000000000000", 10);
  d.customer(1, 1, 2, "AC", "2000000000000000", 45);
  d.customer(1, 1, 3, "BX", "3000000000000000", 50);   // has an order
  d.customer(1, 1, 4, "CX", "8000000000000000", 100);  // phone not 1-7
  d.customer(1, 1, 5, "DX", "4000000000000000", -5);
  d.customer(1, 1, 6, "AZ", "5000000000000000", 60);
  d.customer(1, 1, 7, "BY", "6000000000000000", 70);
  d.order(1, 1, 1, 3, "2010-01-01 00:00:00", 1, 1);
  // The average of the positive balances with such phones: (10 + 45 + 50 + 60 + 70) / 5 = 47.
  EXPECT_EQ(answer(d, 22), (rows{"A|1|60", "B|1|70"}));
}

TEST(ch_queries, EveryNumberHasAStatementPerDialectAndOthersAreRefused) {
  for (const tpcc::ch::query& q : tpcc::ch::queries()) {
    for (const auto dialect : {tpcc::driver::engine::sqlite, tpcc::driver::engine::postgres,
                               tpcc::driver::engine::mysql}) {
      const tpcc::driver::statement& s = tpcc::ch::statement_for(q.number, dialect);
      EXPECT_FALSE(s.sql.empty()) << q.number;
      EXPECT_EQ(s.name, "ch_q" + std::string(q.number < 10 ? "0" : "") + std::to_string(q.number));
    }
  }
  EXPECT_THROW((void)tpcc::ch::statement_for(0, tpcc::driver::engine::sqlite), std::out_of_range);
  EXPECT_THROW((void)tpcc::ch::statement_for(23, tpcc::driver::engine::mysql), std::out_of_range);
}

}  // namespace
