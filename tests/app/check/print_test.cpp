// SPDX-License-Identifier: Apache-2.0
// The consistency report (check/print.hpp): verdicts, dots, offenders and their overflow.
#include "check/print.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

namespace {

using tpcc::check::condition_result;

condition_result passing(std::string_view clause, std::string_view title, std::int64_t checked) {
  condition_result r;
  r.clause = clause;
  r.title = title;
  r.checked = checked;
  return r;
}

condition_result failing_with(std::int64_t offending, std::vector<std::string> offenders) {
  condition_result r = passing("3.3.2.9", "D_YTD = sum(H_AMOUNT)", 20);
  r.passed = false;
  r.offending = offending;
  r.offenders = std::move(offenders);
  return r;
}

TEST(tpcc_check_print, PassingConditionIsOneDottedLine) {
  const std::string text =
      tpcc::check::format_results({passing("3.3.2.1", "W_YTD = sum(D_YTD)", 20)});
  EXPECT_EQ(text,
            "3.3.2.1   W_YTD = sum(D_YTD) "
            "........................................... PASS (20 checked)\n");
}

TEST(tpcc_check_print, AConditionThatRanShowsItsTimeInItsVerdict) {
  condition_result quick = passing("3.3.2.1", "W_YTD = sum(D_YTD)", 20);
  quick.duration = std::chrono::microseconds(12'345);
  condition_result slow = failing_with(1, {"W_ID=1 D_ID=3: x"});
  slow.duration = std::chrono::milliseconds(4'500);
  const std::string text = tpcc::check::format_results({quick, slow});
  EXPECT_NE(text.find(" PASS (20 checked, 12.3 ms)\n"), std::string::npos) << text;
  EXPECT_NE(text.find(" FAIL (1 of 20, 4.50 s)\n"), std::string::npos) << text;
}

TEST(tpcc_check_print, VerdictsLineUpWhateverTheTitle) {
  const std::string text = tpcc::check::format_results(
      {passing("3.3.2.1", "W_YTD = sum(D_YTD)", 2),
       passing("3.3.2.12", "C_BALANCE + C_YTD_PAYMENT = sum(OL_AMOUNT)", 60)});
  const auto first = text.find("PASS");
  const auto second = text.find("PASS", first + 1);
  const auto newline = text.find('\n');
  EXPECT_EQ(first, second - newline - 1);
}

TEST(tpcc_check_print, FailureListsOffendersAndHowManyMore) {
  const std::string text =
      tpcc::check::format_results({failing_with(4, {"W_ID=1 D_ID=3: x", "W_ID=1 D_ID=4: y"})});
  EXPECT_NE(text.find("FAIL (4 of 20)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n    W_ID=1 D_ID=3: x\n    W_ID=1 D_ID=4: y\n    ... and 2 more\n"),
            std::string::npos)
      << text;
}

TEST(tpcc_check_print, ErrorsAndInapplicableConditionsSaySo) {
  condition_result broken = passing("3.3.2.4", "sum(O_OL_CNT) = ORDER-LINE rows", 0);
  broken.passed = false;
  broken.error = "connection lost: server closed the connection";
  condition_result skipped = passing("3.3.2.11", "count(ORDER) - count(NEW-ORDER)", 0);
  skipped.applicable = false;
  const std::string text = tpcc::check::format_results({broken, skipped});
  EXPECT_NE(text.find("ERROR: connection lost: server closed the connection\n"), std::string::npos);
  EXPECT_NE(text.find(" N/A\n"), std::string::npos);
}

TEST(tpcc_check_print, AllPassedIgnoresOnlyInapplicableConditions) {
  condition_result skipped = passing("3.3.2.11", "t", 0);
  skipped.applicable = false;
  skipped.passed = false;
  EXPECT_TRUE(tpcc::check::all_passed({passing("3.3.2.1", "t", 1), skipped}));
  EXPECT_FALSE(tpcc::check::all_passed({passing("3.3.2.1", "t", 1), failing_with(1, {"x"})}));
  condition_result errored = passing("3.3.2.2", "t", 0);
  errored.error = "failed: no such table";
  EXPECT_FALSE(tpcc::check::all_passed({errored}));
  EXPECT_TRUE(tpcc::check::all_passed({}));
}

}  // namespace
