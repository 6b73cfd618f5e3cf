// SPDX-License-Identifier: Apache-2.0
// tests/app/server_stats/server_figures_test.cpp: the database's own figures as the reports show
// them, from known figures: the window's top statements, the CSV beside --csv, the HTML section
// and the metrics endpoint's families.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "metrics/exposition.hpp"
#include "metrics/server_render.hpp"
#include "report/html_server.hpp"
#include "report/json_server.hpp"
#include "report/server_csv.hpp"
#include "server_stats/collector.hpp"

namespace {

using namespace tpcc;

server_stats::server_figures two_intervals() {
  server_stats::server_figures f;
  f.source = "postgresql";
  f.figures = {{"xact_commit", server_stats::measure::counter, true},
               {"lock_waits", server_stats::measure::gauge, false}};
  f.series = {{0, 1, "warm-up", {100, 2}, 1.5}, {1, 2, "measuring", {250, std::nan("")}, 2.5}};
  f.window_seconds = 1;
  f.window = {250, std::nan("")};
  f.notes = {"pg_stat_activity: permission denied <x> (SQLSTATE 42501)"};
  return f;
}

TEST(ServerFigures, TopStatementsAreTheWindowsGrowthByTotalTime) {
  server_stats::statement_map from, to;
  from["a"] = {"SELECT a", 10, 100, 10};
  from["b"] = {"SELECT b", 5, 50, 5};
  to["a"] = {"SELECT a", 12, 110, 12};  // 2 calls, 10 ms in the window
  to["b"] = {"SELECT b", 15, 550, 15};  // 10 calls, 500 ms
  to["c"] = {"SELECT c", 3, 30, 3};     // new in the window: all of it
  to["d"] = {"SELECT d", 0, 0, 0};      // never called: left out
  const auto top = server_stats::top_statements(from, to);
  ASSERT_EQ(top.size(), 3U);
  EXPECT_EQ(top[0].query, "SELECT b");
  EXPECT_DOUBLE_EQ(top[0].calls, 10);
  EXPECT_DOUBLE_EQ(top[0].total_ms, 500);
  EXPECT_EQ(top[1].query, "SELECT c");
  EXPECT_EQ(top[2].query, "SELECT a");
  EXPECT_DOUBLE_EQ(top[2].total_ms, 10);
}

TEST(ServerFigures, TopStatementsKeepTheTenLongest) {
  server_stats::statement_map to;
  for (int i = 0; i < 15; ++i) {
    to[std::string("q").append(std::to_string(i))] = {"q", 1, static_cast<double>(i), 1};
  }
  const auto top = server_stats::top_statements({}, to);
  ASSERT_EQ(top.size(), server_stats::max_top_statements);
  EXPECT_DOUBLE_EQ(top.front().total_ms, 14);
  EXPECT_DOUBLE_EQ(top.back().total_ms, 5);
}

TEST(ServerFigures, CsvHasOneRowPerReadingAndEmptyCellsForTheUnknown) {
  const std::string csv = report::format_server_csv(two_intervals());
  EXPECT_EQ(csv,
            "start_seconds,end_seconds,phase,xact_commit,lock_waits,sample_ms\r\n"
            "0.000,1.000,warm-up,100,2,1.500\r\n"
            "1.000,2.000,measuring,250,,2.500\r\n");
  EXPECT_EQ(report::server_csv_path("out/r.csv"), "out/r.server.csv");
  EXPECT_EQ(report::server_csv_path("r"), "r.server.csv");
}

TEST(ServerFigures, JsonWritesTheUnknownAsNullAndTheWindow) {
  const nlohmann::json j = report::detail::server_json(two_intervals());
  EXPECT_TRUE(j["collected"].get<bool>());
  EXPECT_EQ(j["series"][1]["values"]["xact_commit"].get<double>(), 250);
  EXPECT_TRUE(j["series"][1]["values"]["lock_waits"].is_null());
  EXPECT_EQ(j["window"]["values"]["xact_commit"].get<double>(), 250);
  EXPECT_EQ(j["figures"][1]["kind"], "gauge");
  EXPECT_EQ(j["notes"].size(), 1U);
  server_stats::server_figures none;
  none.not_collected = server_stats::not_collected_here;
  const nlohmann::json n = report::detail::server_json(none);
  EXPECT_FALSE(n["collected"].get<bool>());
  EXPECT_TRUE(n["window"].is_null());
}

TEST(ServerFigures, HtmlSectionHasTheChartTheWindowTableAndTheNotesEscaped) {
  run::run_result r;
  r.server = two_intervals();
  const std::string html = report::html::server_section(r, {1, 2, 2});
  EXPECT_NE(html.find("id=\"server\""), std::string::npos);
  EXPECT_NE(html.find("<svg"), std::string::npos);
  EXPECT_NE(html.find("data-series=\"xact_commit\""), std::string::npos);
  EXPECT_NE(html.find("<td>xact_commit</td><td>counter</td><td>250</td><td>250.0</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("permission denied &lt;x&gt;"), std::string::npos);
  run::run_result sqlite;
  sqlite.server.not_collected = server_stats::not_collected_here;
  const std::string none = report::html::server_section(sqlite, {1, 2, 2});
  EXPECT_NE(none.find("not collected for this database."), std::string::npos) << none;
  EXPECT_EQ(none.find("<svg"), std::string::npos);
}

TEST(ServerFigures, MetricsShowCountersGaugesAndTheReadingsCost) {
  server_stats::live_figures f{"mysql",
                               {{"com_commit", server_stats::measure::counter, true},
                                {"threads_running", server_stats::measure::gauge, false},
                                {"innodb_row_lock_waits", server_stats::measure::counter, false}},
                               {42, 3, std::nan("")},
                               2.5,
                               7};
  metrics::exposition e;
  metrics::render_server(e, f);
  const std::string& page = e.text();
  EXPECT_NE(page.find("# TYPE shoal_tpcc_server_total counter\n"), std::string::npos);
  EXPECT_NE(page.find("shoal_tpcc_server_total{source=\"mysql\",figure=\"com_commit\"} 42\n"),
            std::string::npos)
      << page;
  EXPECT_NE(page.find("shoal_tpcc_server_value{source=\"mysql\",figure=\"threads_running\"} 3\n"),
            std::string::npos);
  EXPECT_EQ(page.find("innodb_row_lock_waits"), std::string::npos);  // unknown: left out
  EXPECT_NE(page.find("shoal_tpcc_server_sample_seconds 0.0025\n"), std::string::npos);
  EXPECT_NE(page.find("shoal_tpcc_server_samples_total 7\n"), std::string::npos);
}

}  // namespace
