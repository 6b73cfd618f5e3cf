// SPDX-License-Identifier: Apache-2.0
// NURand (clause 2.1.6): values in range, the exact probability mass by enumeration, visibly
// non-uniform; the C constants of load and run (clause 2.1.6.1).
#include "random/nurand.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <vector>

#include "random/rng.hpp"
#include "statistics.hpp"

namespace {

using tpcc::random::c_last_delta_ok;
using tpcc::random::load_constants;
using tpcc::random::nurand;
using tpcc::random::nurand_constants;
using tpcc::random::rng;
using tpcc::random::run_constants;
using tpcc::random::testing::chi_square;
using tpcc::random::testing::chi_square_critical;
using tpcc::random::testing::nurand_mass;
using tpcc::random::testing::nurand_mass_by_pairs;

std::vector<std::int64_t> histogram(rng& r, std::int64_t a, std::int64_t x, std::int64_t y,
                                    std::int64_t c, int draws) {
  std::vector<std::int64_t> counts(static_cast<std::size_t>(y - x + 1), 0);
  for (int i = 0; i < draws; ++i) {
    const auto v = nurand(r, a, x, y, c);
    EXPECT_GE(v, x);
    EXPECT_LE(v, y);
    if (v < x || v > y) return counts;
    ++counts[static_cast<std::size_t>(v - x)];
  }
  return counts;
}

// The fast enumeration used by the other tests agrees with the plain one.
TEST(random_nurand, FastMassEqualsPairEnumeration) {
  for (const std::int64_t c : {0, 7, 255}) {
    const auto fast = nurand_mass(255, 0, 999, c);
    const auto plain = nurand_mass_by_pairs(255, 0, 999, c);
    ASSERT_EQ(fast.size(), plain.size());
    for (std::size_t v = 0; v < fast.size(); ++v) ASSERT_NEAR(fast[v], plain[v], 1e-12) << v;
  }
  const auto fast = nurand_mass(15, 1, 20, 3);
  const auto plain = nurand_mass_by_pairs(15, 1, 20, 3);
  for (std::size_t v = 0; v < fast.size(); ++v) ASSERT_NEAR(fast[v], plain[v], 1e-12) << v;
}

TEST(random_nurand, SmallCaseMatchesTheExactMass) {
  rng r{101};
  const auto counts = histogram(r, 15, 1, 20, 7, 400000);
  const auto mass = nurand_mass_by_pairs(15, 1, 20, 7);
  EXPECT_LT(chi_square(counts, mass), chi_square_critical(19));
  const std::vector<double> flat(20, 1.0 / 20);
  EXPECT_GT(chi_square(counts, flat), 100 * chi_square_critical(19));
}

TEST(random_nurand, LastNameCaseMatchesTheExactMassAndIsNotUniform) {
  rng r{103};
  const auto counts = histogram(r, 255, 0, 999, 123, 1000000);
  const auto mass = nurand_mass(255, 0, 999, 123);
  EXPECT_LT(chi_square(counts, mass), chi_square_critical(999));
  const std::vector<double> flat(1000, 1.0 / 1000);
  EXPECT_GT(chi_square(counts, flat), 100 * chi_square_critical(999));
}

TEST(random_nurand, CustomerAndItemCasesStayInRange) {
  rng r{107};
  for (int i = 0; i < 100000; ++i) {
    const auto c_id = nurand(r, 1023, 1, 3000, 1023);
    ASSERT_GE(c_id, 1);
    ASSERT_LE(c_id, 3000);
    const auto i_id = nurand(r, 8191, 1, 100000, 8191);
    ASSERT_GE(i_id, 1);
    ASSERT_LE(i_id, 100000);
  }
}

TEST(random_nurand, LoadConstantsCoverTheirRanges) {
  rng r{109};
  std::set<std::int64_t> c_last;
  std::int64_t max_c_id = 0;
  std::int64_t max_ol_i_id = 0;
  for (int i = 0; i < 100000; ++i) {
    const auto c = load_constants(r);
    ASSERT_GE(c.c_last, 0);
    ASSERT_LE(c.c_last, 255);
    ASSERT_GE(c.c_id, 0);
    ASSERT_LE(c.c_id, 1023);
    ASSERT_GE(c.ol_i_id, 0);
    ASSERT_LE(c.ol_i_id, 8191);
    c_last.insert(c.c_last);
    max_c_id = std::max(max_c_id, c.c_id);
    max_ol_i_id = std::max(max_ol_i_id, c.ol_i_id);
  }
  EXPECT_EQ(c_last.size(), 256U);
  EXPECT_EQ(max_c_id, 1023);
  EXPECT_GT(max_ol_i_id, 8150);
}

TEST(random_nurand, DeltaRuleAcceptsExactlyTheSpecifiedDeltas) {
  for (std::int64_t delta = 0; delta <= 255; ++delta) {
    const bool expected = delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
    EXPECT_EQ(c_last_delta_ok(100, 100 + delta), expected) << delta;
    EXPECT_EQ(c_last_delta_ok(200, 200 - delta), expected) << delta;
  }
}

// Over many loads and runs: every run constant obeys the rule, the rejected deltas never
// appear, and every accepted delta (65..119 but 96 and 112) is reached.
TEST(random_nurand, RunConstantsObeyTheDeltaRuleAndReachEveryAcceptedDelta) {
  rng r{113};
  std::set<std::int64_t> deltas;
  std::set<std::int64_t> c_ids;
  for (int i = 0; i < 50000; ++i) {
    const nurand_constants load = load_constants(r);
    const nurand_constants run = run_constants(r, load);
    ASSERT_TRUE(c_last_delta_ok(load.c_last, run.c_last));
    ASSERT_GE(run.c_last, 0);
    ASSERT_LE(run.c_last, 255);
    deltas.insert(run.c_last > load.c_last ? run.c_last - load.c_last : load.c_last - run.c_last);
    c_ids.insert(run.c_id - load.c_id);
  }
  for (const std::int64_t rejected : {64, 96, 112, 120}) EXPECT_EQ(deltas.count(rejected), 0U);
  EXPECT_EQ(deltas.size(), 53U);  // 119 - 65 + 1 = 55 values, minus 96 and 112
  EXPECT_EQ(*deltas.begin(), 65);
  EXPECT_EQ(*deltas.rbegin(), 119);
  EXPECT_GT(c_ids.size(), 1000U);  // c_id drawn afresh, not tied to the load value
}

}  // namespace
