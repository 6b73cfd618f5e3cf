// tests/app/batched_notifications_test.cpp: examples/10_batched_notifications run as a user
// runs it, against the throwaway PostgreSQL (tests/support/postgres_server.hpp): batched and
// unbatched in one run, each checked on its output (users notified, rows inserted, statements
// sent). Skips when the PostgreSQL server binaries are not installed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <regex>
#include <string>

#include "run/binary.hpp"
#include "support/postgres_server.hpp"

namespace {

using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::describe;
using tpcc::testing::postgres_server;
using tpcc::testing::run_binary;

// One mode's line: "<mode>: U users in S s: N SELECTs, M INSERTs; K notified, R rows".
struct mode_line {
  bool found = false;
  std::int64_t users = 0, selects = 0, inserts = 0, notified = 0, rows = 0;
};

mode_line line_of(const std::string& out, const std::string& mode) {
  const std::regex re("(^|\n)" + mode +
                      R"(: (\d+) users in [0-9.]+ s: (\d+) SELECTs, (\d+) INSERTs; )"
                      R"((\d+) notified, (\d+) rows)");
  std::smatch m;
  mode_line l;
  if (!std::regex_search(out, m, re)) return l;
  l.found = true;
  l.users = std::stoll(m[2]);
  l.selects = std::stoll(m[3]);
  l.inserts = std::stoll(m[4]);
  l.notified = std::stoll(m[5]);
  l.rows = std::stoll(m[6]);
  return l;
}

TEST(batched_notifications, BatchedAndUnbatchedNotifyTheSameUsersWithFarFewerStatements) {
  if (!postgres_server::available()) GTEST_SKIP() << "PostgreSQL server binaries not installed";
  const postgres_server server;
  // 12,000 users: at most 5,000 per batch, so at least 3 SELECTs; 8,000 want mail.
  const binary_result r = run_binary({server.conninfo(), "--users", "12000"}, 300s);
  ASSERT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("all checks passed"), std::string::npos) << describe(r);
  EXPECT_NE(r.out.find("unbatched / batched: "), std::string::npos) << describe(r);

  const mode_line batched = line_of(r.out, "batched");
  ASSERT_TRUE(batched.found) << describe(r);
  EXPECT_EQ(batched.users, 12000);
  EXPECT_EQ(batched.notified, 8000);
  EXPECT_EQ(batched.rows, 8000);
  EXPECT_GE(batched.selects, 3);
  EXPECT_GE(batched.inserts, 2);
  EXPECT_LE(batched.selects, 120) << "batches average under 100 users";
  EXPECT_LE(batched.inserts, 80) << "batches average under 100 notifications";

  const mode_line unbatched = line_of(r.out, "unbatched");
  ASSERT_TRUE(unbatched.found) << describe(r);
  EXPECT_EQ(unbatched.users, 12000);
  EXPECT_EQ(unbatched.notified, 8000);
  EXPECT_EQ(unbatched.rows, 8000);
  EXPECT_EQ(unbatched.selects, 12000);
  EXPECT_EQ(unbatched.inserts, 8000);
}

TEST(batched_notifications, ABadModeIsAUsageErrorNamingIt) {
  const binary_result r = run_binary({"host=/nonexistent", "--mode", "sometimes"}, 60s);
  EXPECT_EQ(r.exit_code, 2) << describe(r);
  EXPECT_NE(r.err.find("bad value 'sometimes' for --mode"), std::string::npos) << describe(r);
}

TEST(batched_notifications, HelpPrintsTheUsageAndSucceeds) {
  const binary_result r = run_binary({"--help"}, 60s);
  EXPECT_EQ(r.exit_code, 0) << describe(r);
  EXPECT_NE(r.out.find("usage: 10_batched_notifications DSN"), std::string::npos) << describe(r);
}

}  // namespace
