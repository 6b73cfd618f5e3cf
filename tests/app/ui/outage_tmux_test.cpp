// SPDX-License-Identifier: Apache-2.0
// tests/app/ui/outage_tmux_test.cpp: the dashboard while the database goes away (a real
// PostgreSQL stopped the hard way mid-run): the log pane shows what went wrong as it happens,
// the type rows count the lost transactions, and what stderr said is kept after the exit.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "support/verdict_count.hpp"
#include "testing/postgres_server.hpp"
#include "tmux.hpp"

namespace tpcc::testing {
namespace {

using namespace std::chrono_literals;
using tpcc::testing::shows;

// The "lost" column of the type's row on the run screen; -1 when the row is not shown.
long lost_on_screen(const std::string& screen, const std::string& type) {
  std::smatch m;
  const std::regex row(type + R"( +[0-9.kM]+ +[0-9.kM]+ +[0-9.kM]+ +([0-9]+))");
  return std::regex_search(screen, m, row) ? std::stol(m[1].str()) : -1;
}

TEST(dashboard_in_tmux, TheLogPaneShowsWhatWentWrongWhileTheDatabaseIsGone) {
  if (!tmux_session::available()) GTEST_SKIP() << "tmux is not installed";
  if (!postgres_server::available()) GTEST_SKIP() << "PostgreSQL is not installed";
  postgres_server server;
  const std::string binary = SHOAL_TPCC_BINARY;
  std::string db = "'";  // appends only: g++ 12's -Wrestrict misfires on "literal" + string
  db.append(server.conninfo()).append("'");
  tmux_session pane(120, 40);
  pane.start(binary + " init --db " + db + " && " + binary + " load --db " + db +
             " --warehouses 1 --no-progress && " + binary + " run --db " + db +
             " --warmup 2s --duration 5m --wait-scale 0.05");
  const auto measuring = [](const std::string& s) { return shows(s, "MEASURING"); };
  const std::string before = pane.wait_for(measuring, 400s);
  ASSERT_TRUE(measuring(before)) << before;
  EXPECT_FALSE(shows(before, "connection lost")) << before;
  server.stop_now();
  // The next transactions find the server gone: the failure is on the screen, in the log pane,
  // while the run goes on.
  const auto told = [](const std::string& s) {
    return shows(s, "connection lost") && lost_on_screen(s, "New-Order") > 0;
  };
  const std::string during = pane.wait_for(told, 120s);
  EXPECT_TRUE(told(during)) << during;
  EXPECT_TRUE(shows(during, "MEASURING")) << during;
  EXPECT_LT(during.find("log (stderr)"), during.find("connection lost")) << during;
  EXPECT_EQ(lost_on_screen(before, "New-Order"), 0) << before;
  pane.send_keys("C-c");
  ASSERT_EQ(pane.wait_exit(120s), 130) << pane.history();
  const std::string after = pane.history();
  EXPECT_TRUE(shows(after, "error (first of its kind)")) << after;
  // The verdict prints its lost-transactions line either way: its count is what says so.
  EXPECT_GT(verdict_count(after, "lost transactions").value_or(0), 0U) << after;
}

}  // namespace
}  // namespace tpcc::testing
