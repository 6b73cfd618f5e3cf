// SPDX-License-Identifier: Apache-2.0
// tests/app/report/html_test.cpp: the HTML report: what the page embeds (escaping, labels,
// downsampling, nothing fetched from the network), and the page rendered by a real headless
// Chromium, for a synthetic run and for a real short run of the binary on SQLite.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "binary.hpp"
#include "chromium.hpp"
#include "report/html.hpp"
#include "report/html_chart.hpp"
#include "report/verdict.hpp"
#include "sample_run.hpp"
#include "support/temp_dir.hpp"

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using tpcc::testing::binary_result;
using tpcc::testing::run_binary;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

std::size_t occurrences(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The attribute values `name="..."` that follow each `marker` in `text`, in order (no
// std::regex: its recursion overflows the stack on a path of 720 points).
std::vector<std::string> attributes_after(const std::string& text, const std::string& marker,
                                          const std::string& name) {
  std::vector<std::string> values;
  const std::string opening = std::string(" ").append(name).append("=\"");
  for (auto at = text.find(marker); at != std::string::npos; at = text.find(marker, at + 1)) {
    const auto start = text.find(opening, at);
    if (start == std::string::npos) break;
    const auto from = start + opening.size();
    values.push_back(text.substr(from, text.find('"', from) - from));
  }
  return values;
}

// The number of points of every <path class="line ..."> in the page, in order.
std::vector<std::size_t> line_points(const std::string& page) {
  std::vector<std::size_t> points;
  for (const std::string& d : attributes_after(page, "<path class=\"line", "d")) {
    points.push_back(occurrences(d, "M") + occurrences(d, "L"));
  }
  return points;
}

// The data-drawn-lines counts the page's script wrote on each chart.
std::vector<int> drawn_lines(const std::string& dom) {
  std::vector<int> counts;
  for (const std::string& n : attributes_after(dom, "<svg class=\"chart\"", "data-drawn-lines")) {
    counts.push_back(std::stoi(n));
  }
  return counts;
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// 1 throughput chart, 5 response-time charts (one per type), 1 distribution chart.
constexpr int charts = 7;

TEST(html_report, EscapesEveryEmbeddedString) {
  tpcc::run::run_result r = tpcc::testing::sample_run(60, 1.0);
  r.fatal = "<script>alert(1)</script>";
  r.client.client_bound = true;
  r.client.client_bound_reason = "lateness p99 \"80 ms\" > 50 ms & more";
  const std::string page = tpcc::report::format_html(r, "sqlite:/tmp/<b>'x'&\"y\".db");
  EXPECT_TRUE(contains(page, "sqlite:/tmp/&lt;b&gt;&#39;x&#39;&amp;&quot;y&quot;.db"));
  EXPECT_TRUE(contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
  EXPECT_TRUE(contains(page, "lateness p99 &quot;80 ms&quot; &gt; 50 ms &amp; more"));
  EXPECT_FALSE(contains(page, "<b>'x'"));
  EXPECT_EQ(occurrences(page, "<script"), 1U) << "only the page's own script";
}

TEST(html_report, ShowsTheVerdictItemsAndHowTheResultWasObtained) {
  tpcc::run::run_result r = tpcc::testing::sample_run(60, 1.0);
  r.origin.command_line = "shoal-tpcc run --seed 9 --json 'my result.json'";
  r.origin.version = "1.2.3";
  r.origin.commit = "0123456789ab";
  r.origin.server_version = "PostgreSQL 15.18 <Debian>";
  r.origin.host = "client-7";
  r.config.seed = 9;
  const std::string target = "postgresql://tpcc:***@db/tpcc";
  const std::string page = tpcc::report::format_html(r, target);
  const tpcc::report::verdict v = tpcc::report::evaluate(r, target);
  EXPECT_TRUE(contains(page, std::string("Verdict: ") + v.word())) << page;
  for (const tpcc::report::verdict_item& i : v.items) {
    EXPECT_TRUE(contains(page, "<td>" + tpcc::report::html::escape(i.name) + "</td>")) << i.name;
  }
  EXPECT_TRUE(contains(page, "Configuration and provenance"));
  EXPECT_TRUE(contains(page, "shoal-tpcc run --seed 9 --json &#39;my result.json&#39;"));
  EXPECT_TRUE(contains(page, "1.2.3 (commit 0123456789ab)"));
  EXPECT_TRUE(contains(page, "PostgreSQL 15.18 &lt;Debian&gt;"));
  EXPECT_TRUE(contains(page, "client-7, "));
  EXPECT_TRUE(contains(page, "<th>seed</th><td>9</td>"));
  EXPECT_TRUE(contains(page, ">tpmC<"));
  // The database once on the page (the facts), besides the window's title.
  const std::string body = page.substr(page.find("<body>"));
  EXPECT_EQ(occurrences(body, target), 1U) << body.substr(0, 2000);
}

TEST(html_report, LabelsSimulatedAndScaledRunsOnly) {
  tpcc::run::run_result r = tpcc::testing::sample_run(60, 1.0);
  std::string page = tpcc::report::format_html(r, "postgresql://tpcc@db/tpcc");
  EXPECT_FALSE(contains(page, "Simulated database: not a database result"));
  EXPECT_FALSE(contains(page, "NOT TPC-C"));
  r.wait_scale = 0.5;
  page = tpcc::report::format_html(r, "sim:5ms");
  EXPECT_TRUE(contains(page, "Simulated database: not a database result"));
  EXPECT_TRUE(contains(page, "NOT TPC-C: keying and think times scaled by 0.5"));
  EXPECT_TRUE(contains(page, "of the scaled maximum"));
}

TEST(html_report, NeedsNothingFromTheNetwork) {
  const std::string page =
      tpcc::report::format_html(tpcc::testing::sample_run(120, 1.0), "sqlite:x.db");
  const std::string svg_namespace = "http://www.w3.org/2000/svg";
  EXPECT_EQ(occurrences(page, "http://"), occurrences(page, svg_namespace));
  EXPECT_FALSE(contains(page, "https://"));
  EXPECT_FALSE(contains(page, "src="));
  EXPECT_FALSE(contains(page, "<link"));
  EXPECT_FALSE(contains(page, "@import"));
  EXPECT_FALSE(contains(page, "url("));
}

TEST(html_report, DrawsTwelveMinutesOfOneSecondIntervalsPointByPoint) {
  const std::string page =
      tpcc::report::format_html(tpcc::testing::sample_run(720, 1.0), "sqlite:x.db");
  const std::vector<std::size_t> points = line_points(page);
  ASSERT_EQ(points.size(), 5U + 5U * 3U + 5U);  // throughput, p50/p90/p99 per type, curves
  for (std::size_t i = 0; i < 20; ++i) EXPECT_EQ(points[i], 720U) << "line " << i;
}

TEST(html_report, DownsamplesTwoHourRunsByMergingIntervals) {
  const std::string page =
      tpcc::report::format_html(tpcc::testing::sample_run(7200, 1.0), "sqlite:x.db");
  const std::vector<std::size_t> points = line_points(page);
  ASSERT_EQ(points.size(), 25U);
  for (std::size_t i = 0; i < 20; ++i) {
    EXPECT_LE(points[i], 720U) << "line " << i;
    EXPECT_GE(points[i], 700U) << "line " << i;
  }
  EXPECT_TRUE(contains(page, "each point merges 10 intervals"));
  EXPECT_LT(page.size(), 1'500'000U);
}

// A sparse series (a Delivery every few intervals): each gap gets a dashed connector and each
// point a dot, so the line can be followed; a dense line gets neither.
TEST(html_report, ASparseLineGetsConnectorsAcrossItsGapsAndADotOnEachPoint) {
  namespace html = tpcc::report::html;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  html::chart c;
  c.x.max = 7;
  c.y.max = 10;
  html::line sparse;
  sparse.key = "delivery";
  sparse.css_class = "c-3";
  sparse.label = "Delivery";
  for (const double y : {1.0, nan, nan, 3.0, nan, 5.0, 6.0}) {
    sparse.points.push_back({static_cast<double>(sparse.points.size()), y});
  }
  html::line dense;
  dense.key = "payment";
  dense.css_class = "c-1";
  for (int x = 0; x < 7; ++x) dense.points.push_back({static_cast<double>(x), 2.0});
  c.lines = {sparse, dense};
  const std::string svg = html::render_svg(c);
  const std::vector<std::string> gaps = attributes_after(svg, "<path class=\"gap", "d");
  ASSERT_EQ(gaps.size(), 1U) << svg;
  EXPECT_EQ(occurrences(gaps[0], "M"), 2U) << "1 to 3, 3 to 5";
  const std::vector<std::string> dots = attributes_after(svg, "<path class=\"dots", "d");
  ASSERT_EQ(dots.size(), 1U) << svg;
  EXPECT_EQ(occurrences(dots[0], "M"), 4U) << "one dot per point";
  EXPECT_TRUE(contains(svg, "<path class=\"gap c-3\" data-series=\"delivery\""));
  EXPECT_EQ(occurrences(svg, "data-series=\"payment\""), 1U) << "the dense line alone";
}

TEST(html_report, SaysSoWhenThereIsNothingToDraw) {
  tpcc::run::run_result r;
  const std::string page = tpcc::report::format_html(r, "sqlite:x.db");
  EXPECT_EQ(occurrences(page, "No interval series in this result."), 2U);
  EXPECT_TRUE(contains(page, "Nothing completed in the measurement interval."));
  EXPECT_EQ(occurrences(page, "<svg"), 0U);
}

TEST(html_report, WriteFailureNamesThePath) {
  const auto error = tpcc::report::write_html(tpcc::testing::sample_run(10, 1.0), "sqlite:x.db",
                                              "/nonexistent-dir-shoal/report.html");
  ASSERT_TRUE(error.has_value());
  const std::string message = error.value_or("");
  EXPECT_TRUE(contains(message, "/nonexistent-dir-shoal/report.html")) << message;
  EXPECT_TRUE(contains(message, "No such file or directory")) << message;
}

// Renders `page` in Chromium; checks every chart was laid out with lines of non-empty extent.
void expect_rendered(const fs::path& chromium, const fs::path& page,
                     const std::vector<int>& lines_per_chart) {
  const tpcc::testing::browser_result dom = tpcc::testing::dump_dom(chromium, page);
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  const std::string all_drawn =
      std::string("data-charts-drawn=\"").append(std::to_string(charts)).append("\"");
  EXPECT_TRUE(contains(dom.out, all_drawn)) << dom.out.substr(0, 2000) << "\n" << dom.err;
  EXPECT_EQ(drawn_lines(dom.out), lines_per_chart);
  EXPECT_TRUE(contains(dom.out, "Per transaction type (measurement interval)"));
}

TEST(html_chromium, RendersEveryChartOfASyntheticRun) {
  const auto chromium = tpcc::testing::find_chromium();
  if (!chromium) GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh)";
  const tpcc::testing::temp_dir dir("shoal-html");
  for (const std::size_t intervals : {720U, 7200U}) {
    const fs::path page =
        dir.path() / std::string("run-").append(std::to_string(intervals)).append(".html");
    ASSERT_FALSE(tpcc::report::write_html(tpcc::testing::sample_run(intervals, 1.0), "sim:5ms",
                                          page.string()));
    expect_rendered(*chromium, page, {5, 3, 3, 3, 3, 3, 5});
  }
  // A screenshot to look at: kept when SHOAL_REPORT_SCREENSHOT names a file.
  const char* keep = std::getenv("SHOAL_REPORT_SCREENSHOT");
  const fs::path png = keep != nullptr ? fs::path(keep) : dir.path() / "run.png";
  const auto shot =
      tpcc::testing::screenshot(*chromium, dir.path() / "run-720.html", png, 1280, 2600);
  ASSERT_EQ(shot.exit_code, 0) << shot.err;
  const std::string image = read_file(png);
  ASSERT_GT(image.size(), 20'000U);
  EXPECT_EQ(image.substr(1, 3), "PNG");
}

#ifdef SHOAL_TPCC_BINARY
TEST(html_chromium, RendersARealShortRunOnSqlite) {
  const auto chromium = tpcc::testing::find_chromium();
  if (!chromium) GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh)";
  const tpcc::testing::temp_dir dir("shoal-html");
  const std::string db = std::string("sqlite:").append((dir.path() / "tpcc.db").string());
  const fs::path page = dir.path() / "report.html";
  binary_result r = run_binary({"init", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_binary({"load", "--db", db, "--warehouses", "1", "--no-progress"}, 300s);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run_binary({"run", "--db", db, "--warmup", "2s", "--duration", "6s", "--drain", "10s",
                  "--wait-scale", "0.01", "--seed", "42", "--no-progress", "--html", page.string()},
                 300s);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string html = read_file(page);
  EXPECT_TRUE(contains(html, "NOT TPC-C: keying and think times scaled by 0.01"));
  EXPECT_TRUE(contains(html, "tpcc.db"));
  expect_rendered(*chromium, page, {5, 3, 3, 3, 3, 3, 5});
}
#endif

// Long verdict notes and database messages wrap: no horizontal scrollbar at 1,400 px, and a
// message carrying markup is shown as text.
TEST(html_chromium, LongNotesAndErrorMessagesWrapAt1400Pixels) {
  const auto chromium = tpcc::testing::find_chromium();
  if (!chromium) GTEST_SKIP() << "chromium is not installed (scripts/install-deps.sh)";
  const tpcc::testing::temp_dir dir("shoal-html-wrap");
  auto r = tpcc::testing::sample_run(720, 1.0);
  r.results.inputs.think_times = 3;  // too few: the think item carries a long note
  r.results.inputs.think_censored = 1;
  r.results.inputs.think_relative = 2.0;
  tpcc::stats::error_entry e;
  e.sqlstate = "P0001";
  e.outcome = "failed";
  e.statement = "no_update_stock";
  e.message = "<script>document.title='owned'</script>" + std::string(400, 'x');
  e.count = 3;
  e.first = r.started;
  e.last = r.started;
  r.errors.entries.push_back(e);
  std::string page = tpcc::report::format_html(r, "sim:5ms");
  EXPECT_TRUE(contains(page, "&lt;script&gt;document.title="));
  const std::string probe =
      "<script>document.body.setAttribute('data-overflow', "
      "String(document.documentElement.scrollWidth > window.innerWidth));</script></body>";
  page.replace(page.rfind("</body>"), 7, probe);
  const fs::path file = dir.path() / "wrap.html";
  std::ofstream(file) << page;
  const tpcc::testing::browser_result dom = tpcc::testing::dump_dom(*chromium, file, 1400, 900);
  ASSERT_EQ(dom.exit_code, 0) << dom.err;
  EXPECT_TRUE(contains(dom.out, "too few to tell a 5 % miss from chance"));
  EXPECT_TRUE(contains(dom.out, "data-overflow=\"false\""))
      << dom.out.substr(dom.out.find("<body"), 300);
  EXPECT_FALSE(contains(dom.out, "<title>owned")) << "the message ran as script";
}

}  // namespace
