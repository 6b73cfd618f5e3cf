// SPDX-License-Identifier: Apache-2.0
// TPC-C strings: lengths and alphabets (4.3.2.2), last names (4.3.2.3), zip codes (4.3.2.7),
// "ORIGINAL" in 10% of I_DATA / S_DATA (4.3.3.1).
#include "random/strings.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "random/rng.hpp"
#include "statistics.hpp"

namespace {

using tpcc::random::a_string;
using tpcc::random::data_with_original;
using tpcc::random::last_name;
using tpcc::random::n_string;
using tpcc::random::rng;
using tpcc::random::zip_code;
using tpcc::random::testing::chi_square;
using tpcc::random::testing::chi_square_critical;

bool is_alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

TEST(random_strings, AStringLengthsCoverTheRangeWithTheRightMean) {
  rng r{201};
  std::set<std::size_t> lengths;
  double sum = 0;
  constexpr int draws = 20000;
  for (int i = 0; i < draws; ++i) {
    const auto s = a_string(r, 8, 16);
    ASSERT_GE(s.size(), 8U);
    ASSERT_LE(s.size(), 16U);
    lengths.insert(s.size());
    sum += static_cast<double>(s.size());
  }
  EXPECT_EQ(lengths.size(), 9U);
  EXPECT_NEAR(sum / draws, 12.0, 0.1);
}

TEST(random_strings, AStringUsesAllSixtyTwoAlphanumericsUniformly) {
  rng r{203};
  std::vector<std::int64_t> counts(256, 0);
  std::string s;
  for (int i = 0; i < 2000; ++i) {
    a_string(r, 300, 500, s);
    for (const char c : s) {
      ASSERT_TRUE(is_alnum(c)) << static_cast<int>(c);
      ++counts[static_cast<unsigned char>(c)];
    }
  }
  std::vector<std::int64_t> observed;
  for (std::size_t c = 0; c < counts.size(); ++c) {
    if (is_alnum(static_cast<char>(c))) observed.push_back(counts[c]);
  }
  ASSERT_EQ(observed.size(), 62U);
  const std::vector<double> flat(62, 1.0 / 62);
  EXPECT_LT(chi_square(observed, flat), chi_square_critical(61));
}

TEST(random_strings, NStringIsUniformDigits) {
  rng r{205};
  std::vector<std::int64_t> counts(10, 0);
  for (int i = 0; i < 20000; ++i) {
    const auto s = n_string(r, 16, 16);
    ASSERT_EQ(s.size(), 16U);
    for (const char c : s) {
      ASSERT_TRUE(c >= '0' && c <= '9') << c;
      ++counts[static_cast<std::size_t>(c - '0')];
    }
  }
  const std::vector<double> flat(10, 0.1);
  EXPECT_LT(chi_square(counts, flat), chi_square_critical(9));
}

TEST(random_strings, EmptyRangeGivesEmptyString) {
  rng r{207};
  EXPECT_TRUE(a_string(r, 0, 0).empty());
}

TEST(random_strings, LastNamesFollowTheSyllableTable) {
  EXPECT_EQ(last_name(0), "BARBARBAR");
  EXPECT_EQ(last_name(371), "PRICALLYOUGHT");
  EXPECT_EQ(last_name(999), "EINGEINGEING");
  EXPECT_EQ(last_name(40), "BARPRESBAR");
  EXPECT_EQ(last_name(1371), "PRICALLYOUGHT");
  std::set<std::string> all;
  for (std::int64_t n = 0; n < 1000; ++n) all.insert(last_name(n));
  EXPECT_EQ(all.size(), 1000U);
}

TEST(random_strings, ZipCodeIsFourRandomDigitsThenFiveOnes) {
  rng r{211};
  std::set<std::string> prefixes;
  for (int i = 0; i < 5000; ++i) {
    const auto zip = zip_code(r);
    ASSERT_EQ(zip.size(), 9U);
    for (std::size_t k = 0; k < 4; ++k) ASSERT_TRUE(zip[k] >= '0' && zip[k] <= '9') << zip;
    ASSERT_EQ(zip.substr(4), "11111");
    prefixes.insert(zip.substr(0, 4));
  }
  EXPECT_GT(prefixes.size(), 3000U);  // 5000 draws over 10^4 prefixes: about 3935 distinct
}

TEST(random_strings, OriginalAppearsInTenPercentAtVaryingPositions) {
  rng r{213};
  constexpr int draws = 100000;
  int with_original = 0;
  std::set<std::size_t> positions;
  std::string s;
  for (int i = 0; i < draws; ++i) {
    data_with_original(r, 26, 50, s);
    ASSERT_GE(s.size(), 26U);
    ASSERT_LE(s.size(), 50U);
    const auto at = s.find("ORIGINAL");
    if (at != std::string::npos) {
      ++with_original;
      positions.insert(at);
    }
  }
  EXPECT_NEAR(static_cast<double>(with_original) / draws, 0.10, 0.01);
  EXPECT_EQ(positions.size(), 43U);  // every start 0..42 that fits a 50-character string
}

}  // namespace
