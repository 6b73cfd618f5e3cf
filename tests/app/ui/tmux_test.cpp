// SPDX-License-Identifier: Apache-2.0
// tests/app/ui/tmux_test.cpp: the real shoal-tpcc in a real terminal (a 120x40 tmux pane), looked
// at as a person would: the dashboard while it loads and runs, the summary on the normal screen
// afterwards, what stderr said kept, and plain lines with --no-tui.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "support/temp_dir.hpp"
#include "tmux.hpp"

namespace tpcc::testing {
namespace {

using namespace std::chrono_literals;
using tpcc::testing::shows;

// The default job (clean, init, load, run, check, clean) of one warehouse, waits x0.02. A run of
// seconds exits 0: its verdict is INCONCLUSIVE where the window cannot decide (issue 28).
std::string default_job(const temp_dir& dir, const std::string& duration,
                        const std::string& extra = {}) {
  std::string command = std::string(SHOAL_TPCC_BINARY) + " --db sqlite:" + dir.path().string() +
                        "/ui.db --warehouses 1 --warmup 2s --duration " + duration +
                        " --wait-scale 0.02 --seed 7";
  if (!extra.empty()) command += " " + extra;
  return command;
}

// After the last time the alternate screen was entered, it was left and the cursor shown.
void expect_terminal_given_back(const std::string& raw) {
  const auto entered = raw.rfind("\x1b[?1049h");
  ASSERT_NE(entered, std::string::npos) << "the dashboard never took the screen";
  EXPECT_NE(raw.find("\x1b[?1049l", entered), std::string::npos);
  EXPECT_NE(raw.find("\x1b[?25h", entered), std::string::npos);
}

TEST(dashboard_in_tmux, ShowsTheRunThenLeavesTheSummaryOnTheNormalScreen) {
  if (!tmux_session::available()) GTEST_SKIP() << "tmux is not installed";
  const temp_dir dir("shoal-tpcc-ui");
  tmux_session pane(120, 40);
  pane.start(default_job(dir, "8s"));
  const auto measuring = [](const std::string& s) { return shows(s, "MEASURING"); };
  std::string screen = pane.wait_for(measuring, 400s);
  ASSERT_TRUE(measuring(screen)) << screen;
  EXPECT_TRUE(shows(screen, "shoal-tpcc run")) << screen;
  EXPECT_TRUE(shows(screen, "1 warehouse, 10 terminals")) << screen;
  EXPECT_TRUE(shows(screen, "remaining")) << screen;
  EXPECT_TRUE(shows(screen, "[#")) << screen;
  EXPECT_TRUE(shows(screen, "p50 ms")) << screen;
  for (const char* type : {"New-Order", "Payment", "Order-Status", "Delivery", "Stock-Level"}) {
    EXPECT_TRUE(shows(screen, type)) << screen;
  }
  EXPECT_TRUE(shows(screen, "log (stderr)")) << screen;
  // A few frames later the figures have moved: New-Orders committed, a tpmC above zero.
  const std::regex counting("tpmC [1-9][0-9]*\\.[0-9]");
  screen = pane.wait_for([&](const std::string& s) { return std::regex_search(s, counting); }, 30s);
  EXPECT_TRUE(std::regex_search(screen, counting)) << screen;

  ASSERT_EQ(pane.wait_exit(400s), 0) << pane.history();
  const std::string after = pane.history();
  EXPECT_TRUE(shows(after, "shoal-tpcc result")) << after;
  EXPECT_TRUE(shows(after, "tpmC")) << after;
  EXPECT_TRUE(shows(after, "check: all conditions passed")) << after;
  EXPECT_TRUE(shows(after, "load: 1 warehouse loaded")) << after;
  EXPECT_FALSE(shows(after, "MEASURING")) << "the dashboard leaked onto the normal screen";
  expect_terminal_given_back(pane.raw());
}

TEST(dashboard_in_tmux, LoaderHasItsOwnDashboard) {
  if (!tmux_session::available()) GTEST_SKIP() << "tmux is not installed";
  const temp_dir dir("shoal-tpcc-ui");
  tmux_session pane(120, 40);
  const std::string db = " --db sqlite:" + dir.path().string() + "/load.db";
  pane.start(std::string(SHOAL_TPCC_BINARY) + " init" + db + " && " + SHOAL_TPCC_BINARY +
             " load --warehouses 2 --load-parallel 1" + db);
  const auto loading = [](const std::string& s) { return shows(s, "LOADING"); };
  const std::string screen = pane.wait_for(loading, 300s);
  ASSERT_TRUE(loading(screen)) << screen;
  EXPECT_TRUE(shows(screen, "shoal-tpcc load")) << screen;
  EXPECT_TRUE(shows(screen, "/2 done")) << screen;
  EXPECT_TRUE(shows(screen, "rows/s")) << screen;
  EXPECT_TRUE(shows(screen, "MiB/s")) << screen;
  EXPECT_TRUE(shows(screen, "ETA")) << screen;
  EXPECT_TRUE(shows(screen, "[")) << screen;
  EXPECT_TRUE(shows(screen, "rows done / expected")) << screen;  // the per-table table
  for (const char* table : {"warehouse ", "customer ", "order_line ", "stock ", "item "}) {
    EXPECT_TRUE(shows(screen, table)) << screen;
  }
  ASSERT_EQ(pane.wait_exit(400s), 0) << pane.history();
  EXPECT_TRUE(shows(pane.history(), "load: 2 warehouses loaded")) << pane.history();
  expect_terminal_given_back(pane.raw());
}

TEST(dashboard_in_tmux, CtrlCGivesTheTerminalBackAndKeepsWhatStderrSaid) {
  if (!tmux_session::available()) GTEST_SKIP() << "tmux is not installed";
  const temp_dir dir("shoal-tpcc-ui");
  tmux_session pane(120, 40);
  pane.start(default_job(dir, "5m"));
  const auto measuring = [](const std::string& s) { return shows(s, "MEASURING"); };
  const std::string screen = pane.wait_for(measuring, 400s);
  ASSERT_TRUE(measuring(screen)) << screen;
  pane.send_keys("C-c");
  ASSERT_EQ(pane.wait_exit(120s), 130) << pane.history();
  const std::string after = pane.history();
  // Written to stderr while the dashboard was up, replayed once it was gone.
  EXPECT_TRUE(shows(after, "interrupted (Ctrl-C): finishing transactions in flight")) << after;
  EXPECT_TRUE(shows(after, "shoal-tpcc result")) << after;
  EXPECT_TRUE(shows(after, "interrupted: the interval was cut short")) << after;
  EXPECT_LT(after.find("interrupted (Ctrl-C): finishing"), after.find("shoal-tpcc result"))
      << after;
  expect_terminal_given_back(pane.raw());
}

TEST(dashboard_in_tmux, NoTuiPrintsPlainLinesWithoutEscapeSequences) {
  if (!tmux_session::available()) GTEST_SKIP() << "tmux is not installed";
  const temp_dir dir("shoal-tpcc-ui");
  tmux_session pane(120, 40);
  pane.start(default_job(dir, "4s", "--no-tui"));
  ASSERT_EQ(pane.wait_exit(400s), 0) << pane.history();
  const std::string after = pane.history();
  EXPECT_TRUE(shows(after, "[measuring] ")) << after;
  EXPECT_TRUE(shows(after, " | tpmC ")) << after;
  EXPECT_TRUE(shows(after, "shoal-tpcc result")) << after;
  const std::string raw = pane.raw();
  EXPECT_TRUE(shows(raw, "[measuring] ")) << "pipe-pane saw nothing";
  EXPECT_EQ(raw.find('\x1b'), std::string::npos) << "an escape sequence with --no-tui";
}

}  // namespace
}  // namespace tpcc::testing
